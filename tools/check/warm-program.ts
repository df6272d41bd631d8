/**
 * The warm type checker (warm-checker.ts) in a process of its own (warm-process.ts). Building its program takes
 * seconds (5 s for the shipped skills on a loaded machine, 8 to 35 s for this repository's core), and a re-check
 * milliseconds to hundreds of them. On the thread of the process that asked, that held everything else there: in a
 * running core, its turns, its schedules, and its skills' questions, which the pace of those questions then took
 * for a skill asking faster than the core answers (skill-services.org). In a thread of the core's, it no longer held
 * the core's thread, but its program (ts-morph, TypeScript, every declaration the skills import: 150 to 300 MB) stayed
 * in the core's memory for as long as the core ran, and a thread's heap given back is not always given back to the
 * system. In a process of its own, it holds only its own memory, and gives all of it back when it ends.
 *
 * It ends when nothing was asked of it for `idleMs` (asked each time: its starter says less for a process that
 * holds no program, project-checker.ts): a core that runs for days and is saved to once an hour holds no checker
 * between the saves. Whoever started it is told once it can answer nothing more (`onEnded`: idle, or the
 * process gone another way), and starts another for the next question: the first re-check then builds the program
 * again (measured in bench/footprint.bench.ts). The process keeps its asker
 * alive only while a request waits for its answer: a command that checks once ends when its work does. `close` ends
 * it.
 */
import {type ChildProcess, fork} from 'node:child_process'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {readToolchainSettings} from '../settings.ts'
import type {WarmAnswers, WarmRequest, WarmResponse} from './warm-messages.ts'

const PROCESS_ENTRY = 'tools/check/warm-process.ts'

/**
 * V8 grows a process's young generation up to 16 MB a half as it allocates, and keeps it: capped at 4 MB, as the
 * core is (core-command.ts), the program's build takes a little more CPU and the process 20 MB less.
 */
const YOUNG_GENERATION = '--max-semi-space-size=4'

/** The process's bundle, built by bin/bundle.mjs when its sources changed; its packages (ts-morph) are node_modules'. */
async function processBundle(): Promise<string> {
  const home = readToolchainSettings().home ?? path.resolve(import.meta.dirname, '..', '..')
  type Bundler = {bundled(entry: string): Promise<string>}
  const {bundled} = (await import(pathToFileURL(path.join(home, 'bin', 'bundle.mjs')).href)) as Bundler
  return bundled(PROCESS_ENTRY)
}

/** A request as its asker writes it: without the number the program gives it. */
type Asked = WarmRequest extends infer Request ? (Request extends WarmRequest ? Omit<Request, 'id'> : never) : never

export interface WarmProgramOptions {
  /** How long the process waits with nothing asked before it ends, asked each time nothing waits. */
  idleMs: () => number
  /** Told once the process can answer nothing more: it ended, idle or otherwise. */
  onEnded: () => void
}

export class WarmProgram {
  /** The requests sent and not answered, by number. */
  private readonly waiting = new Map<number, {resolve: (value: unknown) => void; reject: (error: Error) => void}>()
  private sent = 0
  /** Why the process can answer nothing more, once it cannot. */
  private ended: Error | undefined
  /** Ends the process once it has waited `idleMs` with nothing asked. */
  private idle: NodeJS.Timeout | undefined

  private constructor(
    private readonly child: ChildProcess,
    private readonly options: WarmProgramOptions,
  ) {
    this.unref()
    child.on('message', (response: WarmResponse) => this.answered(response))
    child.on('error', (error) => this.end(error))
    child.on('exit', (code) => this.end(new Error(`the type checker's process ended (exit status ${code})`)))
  }

  /** A process whose program has the options of TSCONFIG and ADDED (as tsconfig.json spells them), and no file yet. */
  static async start(
    tsconfig: string | undefined,
    added: Record<string, unknown> | undefined,
    options: WarmProgramOptions,
  ): Promise<WarmProgram> {
    // Its packages are found from node_modules as written when this process finds its own so (bin/passepartout).
    const links = process.execArgv.filter((flag) => flag === '--preserve-symlinks')
    const child = fork(await processBundle(), [JSON.stringify({tsconfig, added})], {
      execArgv: [...links, YOUNG_GENERATION],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    return new WarmProgram(child, options)
  }

  /** REQUEST's answer, once the process has answered those sent before it. */
  ask<Request extends Asked>(request: Request): Promise<WarmAnswers[Request['type']]> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.sent++
    if (this.waiting.size === 0) this.ref()
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {resolve: resolve as (value: unknown) => void, reject})
      this.child.send({...request, id})
    })
  }

  /** End the process; what waits is refused. */
  async close(): Promise<void> {
    clearTimeout(this.idle)
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.child.kill()
    await exited
  }

  private answered(response: WarmResponse): void {
    const waiting = this.waiting.get(response.id)
    if (!waiting) return
    this.waiting.delete(response.id)
    if (this.waiting.size === 0) this.unref()
    if (response.ok) waiting.resolve(response.value)
    else waiting.reject(new Error(response.error))
  }

  /** A request waits: the process and its channel keep the asker alive, and it is not idle. */
  private ref(): void {
    clearTimeout(this.idle)
    this.child.ref()
    this.child.channel?.ref()
  }

  /** Nothing waits: the asker may end, and the process ends once idle for `idleMs`. */
  private unref(): void {
    this.child.unref()
    this.child.channel?.unref()
    this.idle = setTimeout(() => this.leave(), this.options.idleMs()).unref()
  }

  private leave(): void {
    this.end(new Error("the type checker's process ended, idle"))
    void this.close()
  }

  private end(error: Error): void {
    if (this.ended) return
    this.ended = error
    clearTimeout(this.idle)
    for (const waiting of this.waiting.values()) waiting.reject(error)
    this.waiting.clear()
    this.options.onEnded()
  }
}
