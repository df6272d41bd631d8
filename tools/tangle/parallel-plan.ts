/**
 * Planning a run's documents on every core. Planning is CPU work (a thousand
 * documents take 300-400 ms on one core here), so a large run starts a
 * planning thread (plan-worker.ts) and both threads take documents from one
 * shared counter until none is left: a slow start of the thread costs nothing,
 * a fast one takes half the work. The main thread keeps everything that
 * touches the targets: between two of its own documents it picks up what the
 * other thread planned (`receiveMessageOnPort`, without waiting) and hands it
 * on, so the files of both are staged while planning goes on. A thread that
 * dies leaves its documents to the main thread.
 */
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {MessageChannel, receiveMessageOnPort, Worker} from 'node:worker_threads'
import {debug} from '../debug.ts'
import type {DiskView} from './disk.ts'
import {fromTransfer, type PlannedDocument, planForRun, type RunOptions, type TransferredDocument} from './run-document.ts'

const log = debug('plan')

/** Below this many documents to plan, a thread costs more to start (~40 ms) than it saves. */
const PARALLEL_FROM = 64

/**
 * Plan FILES, calling HANDLE on the main thread for each as soon as it is planned (not in order). Resolves
 * when every one was handled.
 */
export async function planAll(files: readonly string[], options: RunOptions, disk: DiskView, handle: (index: number, document: PlannedDocument) => void): Promise<void> {
  const helper = files.length >= PARALLEL_FROM && os.availableParallelism() > 1 ? await startPlanner(files, options) : undefined
  if (!helper) {
    files.forEach((file, index) => handle(index, planForRun(file, options, disk)))
    return
  }
  const handled = new Uint8Array(files.length)
  let received = 0
  const drain = () => {
    for (let message = receiveMessageOnPort(helper.documents); message; message = receiveMessageOnPort(helper.documents)) {
      const {index, document} = message.message as {index: number; document: TransferredDocument}
      received++
      handled[index] = 1
      handle(index, fromTransfer(document))
    }
  }
  let mine = 0
  for (;;) {
    drain()
    // What the other thread planned goes first: the files it writes are what takes longest. Only with
    // nothing of it waiting (it is still starting, or writing here is quick) does this thread plan too.
    if (Atomics.load(helper.next, 1) > received) continue
    const index = Atomics.add(helper.next, 0, 1)
    if (index >= files.length) break
    handled[index] = 1
    mine++
    handle(index, planForRun(files[index]!, options, disk))
  }
  for (;;) {
    drain()
    if (mine + received === files.length) break
    if (helper.exited.done) {
      // The thread died: what it took and did not send is planned here.
      files.forEach((file, index) => {
        if (!handled[index]) handle(index, planForRun(file, options, disk))
      })
      break
    }
    const posted = Atomics.load(helper.next, 1)
    if (posted > received) continue
    await Promise.race([Atomics.waitAsync(helper.next, 1, posted).value, helper.exited.promise])
  }
  log?.(`planned ${mine} documents here and ${received} on the planning thread`)
  helper.documents.close()
  await helper.worker.terminate()
}

interface Planner {
  worker: Worker
  /** [0] the next index to take; [1] how many documents the thread has sent. */
  next: Int32Array
  documents: import('node:worker_threads').MessagePort
  exited: {done: boolean; promise: Promise<void>}
}

/** The planning thread for FILES, or undefined when it cannot start (the run is then planned here). */
async function startPlanner(files: readonly string[], options: RunOptions): Promise<Planner | undefined> {
  let entry: string
  try {
    const home = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..', '..')
    const {bundled} = (await import(pathToFileURL(path.join(home, 'bin', 'bundle.mjs')).href)) as {bundled(entry: string): Promise<string>}
    entry = await bundled('tools/tangle/plan-worker.ts')
  } catch (error) {
    log?.(`no planning thread: ${(error as Error).message}`)
    return undefined
  }
  const next = new Int32Array(new SharedArrayBuffer(8))
  const {port1, port2} = new MessageChannel()
  const worker = new Worker(entry, {workerData: {files, next, options, documents: port2}, transferList: [port2]})
  const exited = {done: false, promise: Promise.resolve()}
  exited.promise = new Promise((resolve) => {
    const end = () => {
      exited.done = true
      resolve()
    }
    worker.once('exit', end)
    worker.once('error', (error) => {
      log?.(`the planning thread failed: ${error.message}`)
      end()
    })
  })
  return {worker, next, documents: port1, exited}
}
