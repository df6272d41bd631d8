/**
 * `make bench`: the boot. On a temporary project with the shipped skills (as a user's: `passepartout` resolves
 * to this installation):
 *
 * - `passepartout ask hello` (a core booted with the shipped skills, its caches warm from a `run --once`, one
 *   signal through the loop with the offline backend, stopped), its wall time and its CPU time (its own and its
 *   children's: the skill host's), beside `node -e 0`'s in the same run, rounds interleaved, medians of each and
 *   the ratio of the medians;
 * - the boot of a core: `passepartout run --no-watch` until it says how to talk to it, the CPU time of the core's
 *   process and of the whole tree (the command that supervises it, the core, its skill host), in the same rounds,
 *   beside the same `node -e 0`;
 * - the resident memory (VmRSS) of each process of `passepartout run`'s tree once it has booted and says how to
 *   talk to it, and once the spare skill host had its chance to start, with their sum; beside it, what is each
 *   process's own (its private pages: a sum of resident figures counts the pages processes share, Node's own code
 *   above all, once a process), and the tree's proportional share (Pss, which shares them out: proc-memory.ts);
 * - the same of a watching core on a copy of this installation, run by its own command: a core on this repository.
 *
 * Figures only; asserts nothing (the machine is shared).
 */
import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {cpuOfTree} from './proc-cpu.ts'
import {MEMORY_LEGEND, memoryOfTree, sumOf} from './proc-memory.ts'
import {shippedProject} from './shipped-project.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const cli = path.join(repo, 'bin', 'passepartout')
const ROUNDS = 5
/** How long the spare skill host is waited for after the boot (it starts once the core has been idle 1 s). */
const SPARE_MS = 5000

export async function main(): Promise<number> {
  console.log(
    `boot benchmark: node ${process.version}; ${os.cpus().length} CPUs; medians of ${ROUNDS} interleaved rounds`,
  )
  console.log(`${MEMORY_LEGEND}\n`)
  const root = shippedProject(repo, 'pp-boot-bench-')
  // The project's copies of the shipped skills and nothing else, as these figures always measured.
  const env = {...process.env, PASSEPARTOUT_BACKENDS: 'offline', SHIPPED_SKILLS: ''}
  const ask = () => {
    const result = spawnSync(cli, ['ask', 'hello'], {cwd: root, env, encoding: 'utf8'})
    if (result.status !== 0) throw new Error(`passepartout ask hello failed (${result.status}): ${result.stderr}`)
  }
  // The caches a core finds once it has run: the bundles, the tangle's, the check's answer, the compiled skills,
  // the sandbox verdicts.
  const once = spawnSync(cli, ['run', '--once'], {cwd: root, env, encoding: 'utf8'})
  if (once.status !== 0) throw new Error(`passepartout run --once failed (${once.status}): ${once.stderr}`)
  ask()
  const node = {wall: [] as number[], cpu: [] as number[]}
  const asked = {wall: [] as number[], cpu: [] as number[]}
  const boots = {wall: [] as number[], cpu: [] as number[], tree: [] as number[]}
  for (let round = 0; round < ROUNDS; round++) {
    measure(node, () => spawnSync(process.execPath, ['-e', '0']))
    measure(asked, ask)
    const boot = await bootCpu(root, env)
    boots.wall.push(boot.wall)
    boots.cpu.push(boot.core)
    boots.tree.push(boot.tree)
  }
  const row = (label: string, times: typeof node) =>
    `  ${label.padEnd(22)} wall ${ms(median(times.wall))}  cpu ${ms(median(times.cpu))}`
  console.log(row('node -e 0', node))
  console.log(row('passepartout ask hello', asked))
  const ratio = (key: 'wall' | 'cpu') => (median(asked[key]) / median(node[key])).toFixed(1)
  console.log(
    `  ask / node -e 0        wall ${ratio('wall')}x  cpu ${ratio('cpu')}x   (goals: cpu under 10x, wall under 1.5 s)`,
  )
  console.log(
    `${row('core boot (its process)', boots)}  the tree's cpu ${ms(median(boots.tree))}   (run --no-watch until "talk to it")`,
  )
  console.log(
    `  core boot / node -e 0  cpu ${(median(boots.cpu) / median(node.cpu)).toFixed(1)}x, the tree's ${(median(boots.tree) / median(node.cpu)).toFixed(1)}x\n`,
  )
  await runTree(root, env, ['run', '--no-watch'], 'with the shipped skills', 200)
  await runTree(root, env, ['run'], 'with the shipped skills', 200)
  const copy = repositoryCopy()
  // The copy's own command: its core's documents are then the core's own, as on this repository.
  const copied = path.join(copy, 'bin', 'passepartout')
  await runTree(copy, env, ['run'], 'on a copy of this repository', 300, copied)
  fs.rmSync(copy, {recursive: true, force: true})
  fs.rmSync(root, {recursive: true, force: true})
  return 0
}

/**
 * One boot of a core in ROOT: `passepartout run --no-watch` until it says how to talk to it; its wall time, the CPU
 * time of the core's process, and of the whole tree then (/proc), then stopped.
 */
async function bootCpu(root: string, env: NodeJS.ProcessEnv): Promise<{wall: number; core: number; tree: number}> {
  const started = performance.now()
  const run = spawn(cli, ['run', '--no-watch'], {cwd: root, env, stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  run.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  run.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  try {
    await until(
      () => out.includes('talk to it'),
      120_000,
      `passepartout run --no-watch to say how to talk to it: ${out}`,
    )
    const wall = performance.now() - started
    const core = memoryOfTree(run.pid!).find((process) => roleOf(process.command) === 'core')
    return {
      wall,
      core: core ? cpuOfTree(core.pid, {alone: true, reaped: true}) : 0,
      tree: cpuOfTree(run.pid!, {reaped: true}),
    }
  } finally {
    run.kill('SIGTERM')
    await until(() => run.exitCode !== null || run.signalCode !== null, 30_000, 'passepartout run to stop on SIGTERM')
  }
}

/** A copy of this installation, run on itself: its documents, toolchain and command, its packages linked (its caches its own). */
function repositoryCopy(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-boot-bench-repository-'))
  for (const entry of ['org', 'bin', 'tools', 'package.json', 'tsconfig.json']) {
    fs.cpSync(path.join(repo, entry), path.join(copy, entry), {recursive: true})
  }
  fs.mkdirSync(path.join(copy, 'node_modules'))
  for (const entry of fs.readdirSync(path.join(repo, 'node_modules'))) {
    if (entry !== '.cache')
      fs.symlinkSync(path.join(repo, 'node_modules', entry), path.join(copy, 'node_modules', entry))
  }
  return copy
}

/** Run WORK once, adding its wall time and the CPU time of the children it waited for to TIMES. */
function measure(times: {wall: number[]; cpu: number[]}, work: () => unknown): void {
  const cpu = childrenCpuMs()
  const started = performance.now()
  work()
  times.wall.push(performance.now() - started)
  times.cpu.push(childrenCpuMs() - cpu)
}

/**
 * `passepartout ARGS` (a `run`) in ROOT, the project WHAT says: each process of its tree, its resident memory and what
 * of it is its own, once booted and its spare host started and grown to its size (or not started within SPARE_MS),
 * then stopped; the tree's goal is GOAL MB resident. COMMAND is the `passepartout` that runs.
 */
async function runTree(
  root: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  what: string,
  goal: number,
  command = cli,
): Promise<void> {
  const run = spawn(command, args, {cwd: root, env, stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  run.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  run.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  try {
    await until(() => out.includes('talk to it'), 600_000, `passepartout run to say how to talk to it: ${out}`)
    const booted = Date.now()
    const hosts = () => memoryOfTree(run.pid!).filter((process) => roleOf(process.command) === 'skill host')
    while (hosts().length < 2 && Date.now() - booted < SPARE_MS) await new Promise((resolve) => setTimeout(resolve, 50))
    // A host that has started grows as it loads its runtime and locks down: read once it has stopped growing.
    const spare = hosts().length >= 2
    let sizes = ''
    while (
      spare &&
      sizes !==
        (sizes = hosts()
          .map((host) => Math.round(host.rssKb / 1024))
          .join())
    )
      await new Promise((resolve) => setTimeout(resolve, 300))
    const processes = memoryOfTree(run.pid!)
    console.log(
      `passepartout ${args.join(' ')} ${what}, ${spare ? 'its spare host started' : `no spare host within ${SPARE_MS} ms of the boot`}:`,
    )
    for (const process of processes)
      console.log(
        `  ${roleOf(process.command).padEnd(22)} ${mb(process.rssKb)} MB   own ${mb(process.ownKb)} MB   (pid ${process.pid})`,
      )
    const total = (key: 'rssKb' | 'pssKb' | 'ownKb') => mb(sumOf(processes, key))
    console.log(
      `  ${'the whole tree'.padEnd(22)} ${total('rssKb')} MB   own ${total('ownKb')} MB   proportional ${total('pssKb')} MB   (goal: under ${goal} MB)`,
    )
  } finally {
    run.kill('SIGTERM')
    await until(() => run.exitCode !== null || run.signalCode !== null, 30_000, 'passepartout run to stop on SIGTERM')
  }
}

/** What a process of the tree is, by its command line. */
function roleOf(command: string): string {
  if (command.includes('host-main')) return 'skill host'
  if (command.includes('host-watchdog')) return 'host watchdog'
  if (command.includes('generated/core/commands.ts')) return 'core'
  if (command.includes('bin/passepartout')) return 'supervisor'
  if (command.includes('esbuild')) return 'esbuild service'
  return command.slice(0, 60)
}

async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting ${ms} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The CPU time of the children this process has waited for, in ms: cutime and cstime of /proc/self/stat (the
 * 14th and 15th fields after the command's name), in clock ticks of 1/100 s.
 */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`
const mb = (kb: number) => (kb / 1024).toFixed(0).padStart(4)
