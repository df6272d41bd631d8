/**
 * Staging a document's files (write.ts says what a run does with them):
 * each written to a temporary file beside its target, the file it replaces
 * given a second name, all or none of them. A run with many documents does it
 * on a thread of its own, while the main thread plans the next documents.
 */
import {Worker} from 'node:worker_threads'

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
 * the staging thread from its source text, so it names nothing outside itself: the modules come as arguments.
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
        const created = fs.mkdirSync(path.dirname(entry.target), {recursive: true})
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

/** A batch of jobs for the staging thread: the documents' ids and their entries. */
interface Job {
  id: number
  entries: StageEntry[]
}

/** The staging thread's code: stageDocument on every job of each batch it is sent, answered in one message. */
const STAGER_SOURCE = `
const {parentPort} = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const stageDocument = ${stageDocument.toString()}
parentPort.on('message', (jobs) => {
  parentPort.postMessage(jobs.map(({id, entries}) => stageDocument(fs, path, id, entries)))
})
`

/**
 * The staging thread. Jobs go to it in batches: while it stages one batch, the jobs that come meanwhile wait,
 * and go together as soon as it answers, so that it never waits while a job is queued. (Measured at 1000
 * documents, one message each way per document was 6% of a run's time, most of it the thread's answers.)
 */
export class StagingThread {
  private readonly worker = new Worker(STAGER_SOURCE, {eval: true})
  private readonly pending = new Map<number, (result: StageResult) => void>()
  private queued: Job[] = []
  private busy = false
  private failed = false

  /** RESTAGE stages the job of an id here, when the thread cannot run (its bytes went with the batch). */
  constructor(private readonly restage: (id: number) => StageResult) {
    this.worker.on('message', (results: StageResult[]) => {
      for (const result of results) {
        this.pending.get(result.id)?.(result)
        this.pending.delete(result.id)
      }
      this.busy = false
      this.send()
    })
    this.worker.on('error', () => {
      this.failed = true
      for (const [job, resolve] of this.pending) resolve(restage(job))
      this.pending.clear()
      this.queued = []
    })
  }

  /** Stage ENTRIES, the files of the document ID; their bytes are moved to the thread, not copied. */
  stage(id: number, entries: StageEntry[]): Promise<StageResult> {
    if (this.failed) return Promise.resolve(this.restage(id))
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.queued.push({id, entries})
      this.send()
    })
  }

  /** The thread is not needed any more. */
  close(): void {
    void this.worker.terminate()
  }

  /** Send the jobs queued, unless the thread is still staging the last batch. */
  private send(): void {
    if (this.busy || this.queued.length === 0) return
    const jobs = this.queued
    this.queued = []
    this.busy = true
    const buffers = jobs.flatMap((job) => job.entries.map((entry) => entry.content.buffer as ArrayBuffer))
    this.worker.postMessage(jobs, buffers)
  }
}
