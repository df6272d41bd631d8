/**
 * `make bench`: the clients of a running core. On a temporary project with the shipped skills, a core runs
 * (`passepartout run --no-watch`, the offline backend); beside it, in the same run, rounds interleaved:
 *
 * - `node -e 0`, the floor: Node starting and ending;
 * - `passepartout send hi`: a turn in the running core, the command's own CPU (the core's is not counted);
 * - `passepartout status`: one request and its report.
 *
 * Each is the CPU of its process (user and system, as the kernel counts a child that was waited for, in ticks of
 * 10 ms: the mean of the rounds, which a tick's rounding does not bias as a median would), with its ratio to the
 * floor beside the goal: under 2x. Figures only; asserts nothing (the machine is shared).
 */
import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {shippedProject} from './shipped-project.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const cli = path.join(repo, 'bin', 'passepartout')
const ROUNDS = 20
const GOAL = 2
/** How long the core may take to boot before the bench gives up. */
const BOOT_MS = 120_000

export async function main(): Promise<number> {
  console.log(
    `client benchmark: node ${process.version}; ${os.cpus().length} CPUs; means of ${ROUNDS} interleaved rounds\n`,
  )
  const root = shippedProject(repo, 'pp-client-bench-')
  const env = {...process.env, PASSEPARTOUT_BACKENDS: 'offline', SHIPPED_SKILLS: ''}
  const run = spawn(cli, ['run', '--no-watch'], {cwd: root, env, stdio: ['ignore', 'pipe', 'inherit']})
  try {
    await booted(run)
    const commands = {
      'node -e 0': [process.execPath, '-e', '0'],
      'passepartout send hi': [cli, 'send', 'hi'],
      'passepartout status': [cli, 'status'],
    }
    const cpu = Object.fromEntries(Object.keys(commands).map((label) => [label, [] as number[]]))
    // A first round unmeasured: the bundles are built, the caches warm.
    for (const [program, ...args] of Object.values(commands)) runs(program!, args, root, env)
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, [program, ...args]] of Object.entries(commands))
        cpu[label]!.push(runs(program!, args, root, env))
    }
    const floor = mean(cpu['node -e 0']!)
    for (const [label, times] of Object.entries(cpu)) {
      const ratio =
        label === 'node -e 0' ? '' : `  ${(mean(times) / floor).toFixed(1)}x node -e 0 (goal: under ${GOAL}x)`
      console.log(`  ${label.padEnd(22)} cpu ${mean(times).toFixed(0).padStart(4)} ms${ratio}`)
    }
  } finally {
    run.kill('SIGTERM')
    await new Promise((resolve) => (run.exitCode === null ? run.once('exit', resolve) : resolve(undefined)))
    fs.rmSync(root, {recursive: true, force: true})
  }
  return 0
}

/** Once RUN says how to talk to its core; it fails when RUN ends first or takes longer than BOOT_MS. */
function booted(run: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = ''
    const timer = setTimeout(() => reject(new Error(`the core did not boot within ${BOOT_MS} ms:\n${said}`)), BOOT_MS)
    run.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8')
      if (said.includes('talk to it:')) {
        clearTimeout(timer)
        resolve()
      }
    })
    run.once('exit', (code) => reject(new Error(`passepartout run ended (${code}) before it booted:\n${said}`)))
  })
}

/** The CPU of PROGRAM ARGS run to its end in ROOT, in ms; it throws when the command fails. */
function runs(program: string, args: string[], root: string, env: NodeJS.ProcessEnv): number {
  const before = childrenCpuMs()
  const result = spawnSync(program, args, {cwd: root, env, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${result.status}): ${result.stderr}`)
  return childrenCpuMs() - before
}

/**
 * The CPU time of the children this process has waited for, in ms: cutime and cstime of /proc/self/stat (the
 * 14th and 15th fields after the command's name), in clock ticks of 1/100 s.
 */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
