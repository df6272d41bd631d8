/**
 * `make bench`: a project of one's own, as a new user starts it. Each round, in a new temporary folder:
 * `passepartout init`, `passepartout check`, and the example skill's tests (`passepartout test`), each timed and
 * the three together; beside them, in the same round, vitest alone on the same test file (the installation's
 * vitest, the configuration `passepartout test` gives it), which is what the tests cost without the command
 * line. Rounds interleaved, medians of each, and the ratio of the medians. The goal: the three under
 * 10 s of wall time, and under 3 times vitest alone.
 *
 * The installation's own caches (its bundles) are warm, as they are for a person who has run a command once; the
 * project's are cold, as a new project's are. Figures only; asserts nothing (the machine is shared).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {installedPackage} from '../tools/installation.ts'
import {vitestConfiguration} from '../tools/cli/test-command.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const cli = path.join(repo, 'bin', 'passepartout')
const ROUNDS = 5
const STEPS = ['init', 'check', 'test'] as const

export async function main(): Promise<number> {
  console.log(`project benchmark: node ${process.version}; ${os.cpus().length} CPUs; medians of ${ROUNDS} rounds\n`)
  // A person's shell: the shipped skills boot beside the project's (the tests of this repository turn them off).
  const {SHIPPED_SKILLS: _, ...env} = process.env
  const times = {
    init: [] as number[],
    check: [] as number[],
    test: [] as number[],
    all: [] as number[],
    vitest: [] as number[],
  }
  // The installation's bundles built once, as any first command builds them.
  run(['--version'], os.tmpdir(), env)
  for (let round = 0; round < ROUNDS; round++) {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-project-bench-'))
    const dir = path.join(parent, 'demo')
    let all = 0
    for (const step of STEPS) {
      const took = timed(() => run(step === 'init' ? ['init', dir] : [step], step === 'init' ? parent : dir, env))
      times[step].push(took)
      all += took
    }
    times.all.push(all)
    times.vitest.push(timed(() => vitestAlone(dir, env)))
    fs.rmSync(parent, {recursive: true, force: true})
  }
  for (const step of STEPS) console.log(`  passepartout ${step.padEnd(14)} ${ms(median(times[step]))}`)
  console.log(`  init + check + test       ${ms(median(times.all))}`)
  console.log(`  vitest alone, same file   ${ms(median(times.vitest))}`)
  const ratio = median(times.all) / median(times.vitest)
  console.log(`  (init + check + test) / vitest alone: ${ratio.toFixed(1)}x   (goals: under 10 s, under 3x)`)
  return 0
}

/** `passepartout ARGS` in CWD; throws with what it said when it fails. */
function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(cli, args, {cwd, env, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(`passepartout ${args.join(' ')} failed (${result.status}): ${result.stderr}`)
}

/** The installation's vitest on the example skill's test file of DIR, configured as `passepartout test` does. */
function vitestAlone(dir: string, env: NodeJS.ProcessEnv): void {
  const test = path.join(dir, 'generated', 'skills', 'hello.test.ts')
  const config = path.join(dir, 'vitest.config.mjs')
  fs.writeFileSync(config, vitestConfiguration(dir, repo, [test], {}))
  const vitest = path.join(installedPackage(repo, 'vitest')!, 'vitest.mjs')
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--root', dir], {cwd: dir, env})
  if (result.status !== 0) throw new Error(`vitest failed (${result.status}): ${String(result.stdout)}`)
}

function timed(work: () => void): number {
  const started = performance.now()
  work()
  return performance.now() - started
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`
