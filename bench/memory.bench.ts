/**
 * `make bench`, fifth part: memory in SQLite (generated/core/memory.ts,
 * tangled from org/core/memory.org). Prints, side by side in one run, on a
 * file database in a new temporary folder:
 *
 * - writes per second: 1000 `put`s one after another (a transaction each),
 *   next to the same 1000 objects in one `putMany` (one transaction), with
 *   1000 and with 10,000 objects already in memory (a write rehashes one of
 *   256 buckets and the root, so it should not slow down with the size);
 * - a snapshot of 10,000 objects, a rollback to it, and an open that checks
 *   every hash and the root (median of 5).
 *
 * Figures only; asserts nothing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {Memory} from '../generated/core/memory.ts'

const RUNS = 5

export async function main(): Promise<number> {
  console.log(`memory benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  for (const size of [1000, 10_000]) await benchWrites(size)
  await benchSnapshots(10_000)
  return 0
}

const object = (n: number, run = 0) => ({id: `object-${n}`, type: 'note', content: {text: `note ${n} of run ${run}`, tags: ['bench', String(n % 7)], at: n}})

async function filled(size: number): Promise<{memory: Memory; root: string}> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-memory-bench-${size}-`))
  const {memory} = await Memory.open({root})
  for (let start = 0; start < size; start += 1000) await memory.putMany(Array.from({length: Math.min(1000, size - start)}, (_, k) => object(start + k)))
  return {memory, root}
}

async function benchWrites(size: number): Promise<void> {
  const {memory, root} = await filled(size)
  let started = performance.now()
  for (let n = 0; n < 1000; n++) await memory.put(object(n, 1))
  const single = performance.now() - started
  started = performance.now()
  await memory.putMany(Array.from({length: 1000}, (_, n) => object(n, 2)))
  const batch = performance.now() - started
  console.log(`writes with ${size} objects in memory`)
  console.log(`  1000 puts, a transaction each    ${rate(single)} writes/s (${(single / 1000).toFixed(3)} ms a write)`)
  console.log(`  1000 objects in one putMany      ${rate(batch)} writes/s (${batch.toFixed(1)} ms in all)\n`)
  memory.close()
  fs.rmSync(root, {recursive: true, force: true})
}

async function benchSnapshots(size: number): Promise<void> {
  const {memory, root} = await filled(size)
  const snapshots: number[] = []
  const rollbacks: number[] = []
  const opens: number[] = []
  let current = memory
  for (let run = 0; run < RUNS; run++) {
    let started = performance.now()
    await current.snapshot()
    snapshots.push(performance.now() - started)
    await current.put(object(run, 9))
    started = performance.now()
    await current.rollback(0)
    rollbacks.push(performance.now() - started)
    current.close()
    started = performance.now()
    const {memory: reopened, problems} = await Memory.open({root})
    opens.push(performance.now() - started)
    if (problems.length > 0 || reopened.size !== size) throw new Error(`unexpected reopen: ${problems.map((problem) => problem.reason).join('; ')} (${reopened.size} objects)`)
    current = reopened
  }
  console.log(`${size} objects (median of ${RUNS})`)
  console.log(`  snapshot              ${median(snapshots).toFixed(1)} ms`)
  console.log(`  rollback to it        ${median(rollbacks).toFixed(1)} ms`)
  console.log(`  open, every hash and the root checked  ${median(opens).toFixed(1)} ms\n`)
  current.close()
  fs.rmSync(root, {recursive: true, force: true})
}

function rate(ms: number): string {
  return ((1000 * 1000) / ms).toFixed(0).padStart(6)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
