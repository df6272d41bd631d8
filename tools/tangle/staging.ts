/**
 * Staging a document's files (write.ts says what a run does with them):
 * each written to a temporary file beside its target, the file it replaces
 * given a second name, all or none of them. A run with many documents does it
 * on a thread of its own, while the main thread plans the next documents.
 */
import {Worker} from 'node:worker_threads'
import {makeFolders} from '../folders.ts'

/** One file to stage: where, what, and the second name to give the file it replaces. */
export interface StageEntry {
  target: string
  temporary: string
  backup: string | null
  /** The bytes to write, in a buffer of their own (moved, not copied, to the staging thread). */
  content: Uint8Array
  /** Permission bits to set, or null for the default of a new file. */
  mode: number | null
  makeDirectory: boolean
  /** The staging folder TEMPORARY is in, renamed into place with every file in it (write.ts); null beside its target. */
  folder: string | null
}

/** What staging a document came to: on a failure, which entry failed and what its undo could not remove. */
export interface StageResult {
  id: number
  failedAt: number | null
  message: string
  createdDirectories: string[]
  left: string[]
}

/**
 * Stage the files of one document, or none of them: on a failure, what was made is removed again. It runs on
 * the staging thread from its source text, so it names nothing outside itself but makeFolders (folders.ts), whose
 * source the thread is given too: the modules come as arguments.
 */
export function stageDocument(
  fs: typeof import('node:fs'),
  path: typeof import('node:path'),
  id: number,
  entries: readonly StageEntry[],
): StageResult {
  const createdDirectories: string[] = []
  let at = 0
  try {
    for (; at < entries.length; at++) {
      const entry = entries[at]!
      if (entry.makeDirectory) {
        const created = makeFolders(fs, path, path.dirname(entry.temporary))
        if (created) createdDirectories.push(created)
      }
      fs.writeFileSync(entry.temporary, entry.content, {mode: 0o666})
      if (entry.mode !== null) fs.chmodSync(entry.temporary, entry.mode)
      // A second name for the file about to be replaced: what an undo puts back.
      if (entry.backup) fs.linkSync(entry.target, entry.backup)
    }
    return {id, failedAt: null, message: '', createdDirectories, left: []}
  } catch (error) {
    const left: string[] = []
    // The undo goes on past a step it cannot take, and names what it had to leave.
    const attempt = (what: string, step: () => void) => {
      try {
        step()
      } catch {
        left.push(what)
      }
    }
    for (const entry of entries) {
      attempt(entry.temporary, () => fs.rmSync(entry.temporary, {force: true}))
      const backup = entry.backup
      if (backup) attempt(backup, () => fs.rmSync(backup, {force: true}))
    }
    for (const directory of createdDirectories.reverse()) {
      attempt(directory, () => fs.rmSync(directory, {recursive: true, force: true}))
    }
    return {id, failedAt: at, message: (error as Error).message, createdDirectories: [], left}
  }
}

/** A job for the staging thread: the document's id and its entries. */
interface Job {
  id: number
  entries: StageEntry[]
}

/** Asks the staging thread for its answers (`StagingThread.answer`). */
const ANSWER = 'answer'

/**
 * The staging thread's code: stageDocument on every job of each batch it is sent, as it comes; the results
 * are kept until the main thread asks for them, and go together, in one message. makeFolders is defined under the
 * name its function has here, which is the name stageDocument's code calls it by, should a bundler rename it.
 */
const STAGER_SOURCE = `
const {parentPort} = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const ${makeFolders.name} = ${makeFolders.toString()}
const stageDocument = ${stageDocument.toString()}
const results = []
parentPort.on('message', (jobs) => {
  if (jobs === ${JSON.stringify(ANSWER)}) parentPort.postMessage(results.splice(0))
  else for (const {id, entries} of jobs) results.push(stageDocument(fs, path, id, entries))
})
`

/**
 * Documents whose jobs go to the staging thread together. A message costs more than staging a small file
 * (measured at 1000 documents on a loaded machine: a message per document was a third of the planning
 * thread's time), and the thread stages a batch faster than the planner plans the next.
 */
const BATCH = 16

/**
 * The staging thread. The jobs go to it in batches as the documents are planned, so that it stages while
 * this thread plans; its results come back together, in one message, when the run asks for them (`answer`),
 * as it does once every document is planned: the planning loop reads no message before. (Measured at 1000
 * documents: an answer per document was most of what the messages cost; and a thread sent its next jobs
 * only when it answered the last stood idle until the planning was done.)
 */
export class StagingThread {
  private readonly worker = new Worker(STAGER_SOURCE, {eval: true})
  private readonly pending = new Map<number, (result: StageResult) => void>()
  private queued: Job[] = []
  private failed = false

  /** RESTAGE stages the job of an id here, when the thread cannot run (its bytes went with the batch). */
  constructor(private readonly restage: (id: number) => StageResult) {
    this.worker.on('message', (results: StageResult[]) => {
      for (const result of results) {
        this.pending.get(result.id)?.(result)
        this.pending.delete(result.id)
      }
    })
    this.worker.on('error', () => {
      this.failed = true
      for (const [job, resolve] of this.pending) resolve(restage(job))
      this.pending.clear()
      this.queued = []
    })
  }

  /**
   * Stage ENTRIES, the files of the document ID; their bytes are moved to the thread, not copied. The result
   * comes once the run asks for the results (`answer`).
   */
  stage(id: number, entries: StageEntry[]): Promise<StageResult> {
    if (this.failed) return Promise.resolve(this.restage(id))
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.queued.push({id, entries})
      if (this.queued.length === BATCH) this.send()
    })
  }

  /** Send what is queued, and ask for the results of every job: the promises `stage` returned settle when they come. */
  answer(): void {
    if (this.failed || this.pending.size === 0) return
    this.send()
    this.worker.postMessage(ANSWER)
  }

  /** The thread is not needed any more. */
  close(): void {
    void this.worker.terminate()
  }

  private send(): void {
    if (this.queued.length === 0) return
    const jobs = this.queued
    this.queued = []
    const buffers = jobs.flatMap((job) => job.entries.map((entry) => entry.content.buffer as ArrayBuffer))
    this.worker.postMessage(jobs, buffers)
  }
}
