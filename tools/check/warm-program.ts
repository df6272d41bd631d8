/**
 * The warm type checker (warm-checker.ts) in a thread of its own (warm-thread.ts). Building its program takes
 * seconds (5 s for the shipped skills on a loaded machine, 8 to 35 s for this repository's core), and a re-check
 * milliseconds to hundreds of them. On the thread of the process that asked, that held everything else there: in a
 * running core, its turns, its schedules, and its skills' questions, which the pace of those questions then took
 * for a skill asking faster than the core answers (skill-services.org). Here it holds only its own thread.
 *
 * The thread keeps the process alive only while a request waits for its answer: a command that checks once ends
 * when its work does. `close` ends the thread.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import type {WarmAnswers, WarmRequest, WarmResponse} from './warm-messages.ts'

const THREAD_ENTRY = 'tools/check/warm-thread.ts'

/** The thread's bundle, built by bin/bundle.mjs when its sources changed; its packages (ts-morph) are node_modules'. */
async function threadBundle(): Promise<string> {
  const home = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..', '..')
  type Bundler = {bundled(entry: string): Promise<string>}
  const {bundled} = (await import(pathToFileURL(path.join(home, 'bin', 'bundle.mjs')).href)) as Bundler
  return bundled(THREAD_ENTRY)
}

/** A request as its asker writes it: without the number the program gives it. */
type Asked = WarmRequest extends infer Request ? (Request extends WarmRequest ? Omit<Request, 'id'> : never) : never

export class WarmProgram {
  /** The requests sent and not answered, by number. */
  private readonly waiting = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void}>()
  private sent = 0
  /** Why the thread can answer nothing more, once it cannot. */
  private ended: Error | undefined

  private constructor(private readonly thread: Worker) {
    thread.unref()
    thread.on('message', (response: WarmResponse) => this.answered(response))
    thread.on('error', (error) => this.end(error))
    thread.on('exit', (code) => this.end(new Error(`the type checker's thread ended (exit status ${code})`)))
  }

  /** A thread whose program has the options of TSCONFIG and ADDED (as tsconfig.json spells them), and no file yet. */
  static async start(tsconfig: string | undefined, added?: Record<string, unknown>): Promise<WarmProgram> {
    return new WarmProgram(new Worker(await threadBundle(), {workerData: {tsconfig, added}}))
  }

  /** REQUEST's answer, once the thread has answered those sent before it. */
  ask<Request extends Asked>(request: Request): Promise<WarmAnswers[Request['type']]> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.sent++
    if (this.waiting.size === 0) this.thread.ref()
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {resolve: resolve as (value: unknown) => void, reject})
      this.thread.postMessage({...request, id})
    })
  }

  /** End the thread; what waits is refused. */
  async close(): Promise<void> {
    await this.thread.terminate()
  }

  private answered(response: WarmResponse): void {
    const waiting = this.waiting.get(response.id)
    if (!waiting) return
    this.waiting.delete(response.id)
    if (this.waiting.size === 0) this.thread.unref()
    if (response.ok) waiting.resolve(response.value)
    else waiting.reject(new Error(response.error))
  }

  private end(error: Error): void {
    this.ended ??= error
    for (const waiting of this.waiting.values()) waiting.reject(this.ended)
    this.waiting.clear()
  }
}
