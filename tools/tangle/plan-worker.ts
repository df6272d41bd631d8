/**
 * The planning thread of a large run (parallel-plan.ts): it takes the next
 * document from the counter it shares with the main thread, plans it, and
 * sends it over, its files' bytes moved rather than copied, until none is
 * left. It writes nothing but source maps: staging and renaming stay on the
 * main thread, with the journal.
 */
import {type MessagePort, workerData} from 'node:worker_threads'
import {DiskView} from './disk.ts'
import {planForRun, type RunOptions, toTransfer} from './run-document.ts'

interface PlanJob {
  files: string[]
  /** Int32Array over a SharedArrayBuffer: [0] the next index to take; [1] how many documents were sent. */
  next: Int32Array
  options: RunOptions
  /** Planned documents go here, polled by the main thread between its own. */
  documents: MessagePort
}

const job = workerData as PlanJob
const disk = new DiskView()
for (let index = Atomics.add(job.next, 0, 1); index < job.files.length; index = Atomics.add(job.next, 0, 1)) {
  const {document, buffers} = toTransfer(planForRun(job.files[index]!, job.options, disk))
  job.documents.postMessage({index, document}, buffers)
  // Said after the message is in the main thread's queue, so that a main thread woken by it finds it there.
  Atomics.add(job.next, 1, 1)
  Atomics.notify(job.next, 1)
}
