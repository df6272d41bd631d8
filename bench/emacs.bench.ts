/**
 * `make bench`: a save seen from Emacs (generated/emacs/passepartout.el, tangled from org/emacs/passepartout.org).
 * A core started by `passepartout-run` on a temporary project, a skill document in `passepartout-mode`, saved
 * ROUNDS times (bench/emacs-reload.el). Side by side, per save: the time from `save-buffer` to the reload's line in
 * the echo area, the core's own time for that reload (from the watcher's first event to the new version
 * committed: the `ms` of its reload event), and the difference, which is Emacs's write, the file system's event,
 * the event's way to Emacs and its handling there. The goal: the line is there within the time the core takes, so
 * the difference is small beside it. Figures only; asserts nothing. Skipped, said, without Emacs 28 or later.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import os from 'node:os'
import path from 'node:path'

const ROUNDS = 30
/** The repository: `make bench` runs from it (this module runs bundled, elsewhere). */
const here = path.join(process.cwd(), 'bench')

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export async function main(): Promise<number> {
  let version = ''
  try {
    version = /GNU Emacs (\d+\.\d+)/.exec(execFileSync('emacs', ['--version'], {encoding: 'utf8'}))?.[1] ?? ''
  } catch {}
  if (!version || Number(version.split('.')[0]) < 28) {
    console.log('emacs benchmark: skipped (Emacs 28 or later is not installed)\n')
    return 0
  }
  console.log(`emacs benchmark: Emacs ${version}; node ${process.version}; ${os.cpus().length} CPUs; ${ROUNDS} saves\n`)
  const run = spawnSync(
    'emacs',
    ['--batch', '-Q', '-L', path.join(here, '..', 'generated', 'emacs'), '-l', path.join(here, 'emacs-reload.el')],
    {encoding: 'utf8', env: {...process.env, ROUNDS: String(ROUNDS)}, timeout: 600_000},
  )
  const line = run.stdout.trim().split('\n').at(-1) ?? ''
  let rounds: [number, number][]
  try {
    rounds = JSON.parse(line) as [number, number][]
  } catch {
    console.log(`emacs benchmark: no figures (exit ${run.status}): ${run.stdout}\n${run.stderr}`)
    return 1
  }
  const emacs = rounds.map(([said]) => said)
  const core = rounds.map(([, ms]) => ms)
  const over = rounds.map(([said, ms]) => said - ms)
  const row = (name: string, values: number[]) =>
    `  ${name.padEnd(48)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms`
  console.log(row('save-buffer to the echo-area line', emacs))
  console.log(row("the core's reload (its event's ms)", core))
  console.log(row('the difference (write, fs event, event, Emacs)', over))
  console.log(
    `  the echo-area line comes ${(percentile(emacs, 50) / percentile(core, 50)).toFixed(2)}x the core's time (p50)\n`,
  )
  return 0
}
