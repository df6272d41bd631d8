/**
 * `make bench`: the cost of skills' schedules on the core's loop (generated/core/schedules.ts, tangled from
 * org/core/schedules.org). One process, a real memory file in a new temporary folder, and three windows of
 * WINDOW_MS one after the other, each measured as the process's CPU time (user and system, `process.cpuUsage`)
 * over the window's wall time, a share of one core:
 *
 * 1. no schedule: the same process, memory open, nothing to do (the baseline, taken first and again last: a shared
 *    machine's noise shows in the two);
 * 2. 100 schedules of `every: '15m'` at rest: armed, none due within the window (the goal: under 1% of a core);
 * 3. 100 schedules of `every: '1s'` whose run does nothing, armed 10 ms apart: 100 runs a second, a wake of the
 *    timer for each, and each run recorded in memory (its due time at its start, its outcome at its end).
 *
 * Each window begins SETTLE_MS after its schedules were armed, so that the writes of their arming are done.
 * Figures only; asserts nothing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {Memory} from '../generated/core/memory.ts'
import {parseSchedule, type Schedule} from '../generated/core/schedule-spec.ts'
import {Scheduler} from '../generated/core/schedules.ts'

const WINDOW_MS = 20_000
const SETTLE_MS = 2000
const SCHEDULES = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function main(): Promise<number> {
  console.log(`schedules benchmark: node ${process.version}; ${os.cpus().length} CPUs; ${WINDOW_MS / 1000} s a window\n`)
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-schedules-bench-'))
  const {memory} = await Memory.open({root})
  let runs = 0
  const scheduler = () =>
    new Scheduler({
      run: async () => {
        runs++
        return {ok: true, text: ''}
      },
      store: memory.schedules,
      log: () => {},
      say: () => {},
    })

  await sleep(SETTLE_MS)
  const idleFirst = await window()

  const resting = scheduler()
  for (let n = 0; n < SCHEDULES; n++) resting.set(`rest-${n}`, schedule('15m'))
  await resting.start()
  await sleep(SETTLE_MS)
  const rest = await window()
  const restRuns = runs
  await resting.stop()

  const busy = scheduler()
  await busy.start()
  for (let n = 0; n < SCHEDULES; n++) {
    busy.set(`busy-${n}`, schedule('1s'))
    await sleep(10)
  }
  await sleep(SETTLE_MS)
  const before = runs
  const ticking = await window()
  const ticked = runs - before
  await busy.stop()
  await sleep(SETTLE_MS)
  const idleLast = await window()

  const idle = (idleFirst + idleLast) / 2
  const net = (share: number) => `${share - idle >= 0 ? '+' : ''}${(share - idle).toFixed(3)}`
  console.log(`  no schedule                          ${idleFirst.toFixed(3)}% of a core first, ${idleLast.toFixed(3)}% last`)
  console.log(
    `  ${SCHEDULES} schedules every 15m, at rest    ${rest.toFixed(3)}% of a core (${net(rest)} over none; ${restRuns} runs)   (goal: under 1% of a core at rest)`,
  )
  console.log(
    `  ${SCHEDULES} schedules every 1s              ${ticking.toFixed(3)}% of a core (${net(ticking)} over none; ${ticked} runs, ${((((ticking - idle) / 100) * WINDOW_MS) / ticked).toFixed(3)} ms of CPU a run)`,
  )
  memory.close()
  fs.rmSync(root, {recursive: true, force: true})
  return 0
}

function schedule(every: string): Schedule {
  const parsed = parseSchedule({every})
  if (!parsed.ok) throw new Error(parsed.problems.join('; '))
  return parsed.schedule
}

/** The process's CPU time over the next WINDOW_MS, as a percentage of one core. */
async function window(): Promise<number> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  await sleep(WINDOW_MS)
  const used = process.cpuUsage(cpu)
  return ((used.user + used.system) / 1000 / (performance.now() - started)) * 100
}
