/**
 * `make bench`: what `passepartout run` holds in memory. A real `passepartout run` on a project with the shipped
 * skills, its openai backend asking a real HTTP server on 127.0.0.1 that plays the model (a `grep` tool call, then an
 * answer), watching and with --no-watch. For each, the memory of the whole process tree (the command, the core and
 * their children: the skill host, the type checker) as proc-memory.ts reads it: the sum of residents (VmRSS: Node's
 * binary, which the processes share, counted in each), the sum of proportional shares (Pss: the binary counted once)
 * and the own pages; each process beside it, resident and own:
 *
 * - at rest, once booted;
 * - after TURNS tool turns through the socket, one after another (each a new session, as `passepartout send` asks);
 * - after CLIENTS clients have connected at once, sent CLIENT_TURNS turns each, and left;
 *
 * each beside its goal (at rest under 200 MB watching, 150 MB not; after the turns and after the clients, within 10%
 * of at rest). Watching, also the time from a skill document's write to its `reloaded` line: the first save (checked
 * by the native compiler, no checker's process started), the next saves (p50, p95: the second starts the warm
 * checker's program, built beside the saves, which the native compiler checks until it is ready), and the first
 * after the checker left, idle (PASSEPARTOUT_CHECKER_IDLE_MS, short here).
 *
 * `--turns N` runs N turns instead of TURNS (while working on it). Figures only; asserts nothing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {spawn, type ChildProcess} from 'node:child_process'
import {CoreClient} from '../generated/core/client.ts'
import {type ModelAnswer, modelServer} from '../generated/core/fixtures.ts'
import {MEMORY_LEGEND, memoryOfTree, type ProcessMemory, sumOf} from './proc-memory.ts'
import {shippedProject} from './shipped-project.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const TURNS = 3000
const CLIENTS = 200
const CLIENT_TURNS = 5
const SAVES = 20
/** How long the checker waits idle before it leaves, in this bench: short, for the first save after it left. */
const CHECKER_IDLE_MS = 3000
const GOAL_WATCHING_MB = 200
const GOAL_NOT_WATCHING_MB = 150
/** How long a reading at rest lasts (`settled`). */
const REST_MS = 30_000
/** How far the tree may grow from its rest after the turns, and after the clients. */
const FLAT = 0.1

type Body = Record<string, unknown>
type Sent = {role: string}

/** The model: a `grep` while the turn has no tool result, then the answer. */
function play(body: Body): ModelAnswer {
  const sent = body.messages as Sent[]
  if (sent.at(-1)?.role !== 'tool') return {toolCalls: [{name: 'grep', arguments: JSON.stringify({pattern: 'one'})}]}
  return JSON.stringify({target: 'cli', action: 'message', args: {text: 'found it'}, explanation: 'answer'})
}

export async function main(args: string[]): Promise<number> {
  const turns = args[0] === '--turns' ? Number(args[1]) : TURNS
  console.log(`footprint benchmark: node ${process.version}; ${os.cpus().length} CPUs; load ${os.loadavg()[0]!.toFixed(2)}`)
  console.log(`${MEMORY_LEGEND}\n`)
  const server = await modelServer([play])
  try {
    for (const watching of [true, false]) await benchRun(server.baseURL, watching, turns)
  } finally {
    await server.close()
  }
  return 0
}

async function benchRun(baseURL: string, watching: boolean, turns: number): Promise<void> {
  const root = shippedProject(repo, 'pp-footprint-bench-')
  fs.mkdirSync(path.join(root, 'notes'))
  fs.writeFileSync(path.join(root, 'notes', 'a.org'), '* one\n* two\n')
  const env = {
    ...process.env,
    PASSEPARTOUT_BACKENDS: 'openai',
    PASSEPARTOUT_MODEL: 'scripted',
    OPENAI_BASE_URL: baseURL,
    PASSEPARTOUT_NOTES: 'notes',
    PASSEPARTOUT_CHECKER_IDLE_MS: String(CHECKER_IDLE_MS),
    MANDATORY_SKILLS: '',
  }
  const args = ['run', '--no-frames', ...(watching ? [] : ['--no-watch'])]
  const run = spawn(path.join(repo, 'bin/passepartout'), args, {cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env})
  const output = watchOutput(run)
  const goal = watching ? GOAL_WATCHING_MB : GOAL_NOT_WATCHING_MB
  try {
    await output.until('talk to it', 180_000)
    console.log(`passepartout run${watching ? '' : ' --no-watch'} (the shipped skills; a model that greps, then answers)`)
    const rest = await settled(run.pid!)
    say('at rest', rest, `(goal: under ${goal} MB)`)
    const client = await CoreClient.connect(root)
    for (let n = 0; n < turns; n++) await turn(client, `turn ${n}`)
    client.close()
    say(`after ${turns} tool turns`, await settled(run.pid!), within(rest))
    await Promise.all(
      Array.from({length: CLIENTS}, async (_, c) => {
        const each = await CoreClient.connect(root)
        for (let n = 0; n < CLIENT_TURNS; n++) await turn(each, `client ${c} turn ${n}`)
        each.close()
      }),
    )
    say(`after ${CLIENTS} clients (${CLIENT_TURNS} turns each) left`, await settled(run.pid!), within(rest))
    if (watching) await benchSaves(root, run.pid!, output)
    console.log()
  } finally {
    run.kill('SIGTERM')
    await new Promise((resolve) => run.once('exit', resolve))
    fs.rmSync(root, {recursive: true, force: true})
  }
}

/** One turn through CLIENT; refused unless the model's answer came back. */
async function turn(client: CoreClient, text: string): Promise<void> {
  const answer = JSON.stringify(await client.request({action: 'send', text}))
  if (!answer.includes('found it')) throw new Error(`a turn did not answer: ${answer.slice(0, 400)}`)
}

/**
 * Saves of the shipped `policy` skill (a comment appended), each timed from the write to its `reloaded` line: the
 * first (the native compiler's), SAVES more (the second has the checker's program built; the native compiler checks
 * until it is ready, then the checker warm), then one once the checker left, idle (the native compiler's again).
 */
async function benchSaves(root: string, pid: number, output: ReturnType<typeof watchOutput>): Promise<void> {
  const document = path.join(root, 'org', 'skills', 'policy.org')
  const original = fs.readFileSync(document, 'utf8')
  let saved = 0
  const save = async () => {
    saved++
    // A save the watcher saw as two reloads the first time: what came of it is said before the next is timed.
    await sleep(300)
    output.skip()
    const started = performance.now()
    fs.writeFileSync(document, `${original}\n# save ${saved}\n`)
    await output.until(/reloaded policy\b.*\n/, 120_000)
    return performance.now() - started
  }
  const first = await save()
  say('after a first save (the native compiler checked it)', memoryOfTree(pid), '')
  const warm: number[] = []
  for (let n = 0; n < SAVES; n++) warm.push(await save())
  say(`with the checker built (after ${SAVES + 1} saves)`, memoryOfTree(pid), '')
  const gone = await checkerGone(pid, CHECKER_IDLE_MS * 10)
  say(`the checker idle ${CHECKER_IDLE_MS} ms${gone ? ', gone' : ', STILL THERE'}`, await settled(pid), '')
  const again = await save()
  const ms = (value: number) => `${value.toFixed(0)} ms`
  console.log(`  a save, written to reloaded: first ${ms(first)}; next ${SAVES}: p50 ${ms(quantile(warm, 0.5))}, p95 ${ms(quantile(warm, 0.95))}; first after the checker left ${ms(again)}`)
}

/** Whether the tree of PID holds no type checker's process any more, looked at until DEADLINE_MS. */
async function checkerGone(pid: number, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs
  while (Date.now() < until) {
    if (!memoryOfTree(pid).some((each) => each.command.includes('warm-'))) return true
    await sleep(200)
  }
  return false
}

/**
 * The tree of PID at rest: its lowest reading (one a second) over REST_MS, long enough for the core to collect its
 * heap once at rest (server.org, 5 s after its last turn) and for the pages freed to go back to the system.
 */
async function settled(pid: number): Promise<ProcessMemory[]> {
  let lowest = memoryOfTree(pid)
  for (let waited = 0; waited < REST_MS; waited += 1000) {
    await sleep(1000)
    const now = memoryOfTree(pid)
    if (total(now) < total(lowest)) lowest = now
  }
  return lowest
}

const total = (processes: readonly ProcessMemory[]) => sumOf(processes, 'rssKb')
const mb = (kB: number) => (kB / 1024).toFixed(0)

/** What compares a reading with REST: its growth, against the goal of FLAT. */
function within(rest: readonly ProcessMemory[]): (now: readonly ProcessMemory[]) => string {
  return (now) => `(${(((total(now) - total(rest)) / total(rest)) * 100).toFixed(1)}% from at rest; goal: within ${FLAT * 100}%)`
}

function say(what: string, processes: readonly ProcessMemory[], goal: string | ((now: readonly ProcessMemory[]) => string)): void {
  const beside = typeof goal === 'string' ? goal : goal(processes)
  const each = processes.map((one) => `${shortName(one.command)} ${mb(one.rssKb)} (own ${mb(one.ownKb)})`).join(', ')
  const [resident, share, own] = (['rssKb', 'pssKb', 'ownKb'] as const).map((key) => mb(sumOf(processes, key)))
  console.log(`  ${what.padEnd(40)} ${resident!.padStart(4)} MB resident, ${share} proportional, ${own} own  ${beside}`)
  console.log(`  ${''.padEnd(40)} ${each}`)
}

/**
 * A process's command as the reader knows it: the script it runs, or the entry point of the bundle it runs (a bundle is
 * `…/ENTRY/STAMP/main.mjs`, ENTRY its path with `__` for `/`: tools__check__warm-process).
 */
function shortName(command: string): string {
  const script = command.split(' ').find((part) => /\.(m?js|ts)$/.test(part) || part.endsWith('/passepartout'))
  if (!script) return path.basename(command.split(' ')[0]!)
  const entry = script.split('/').findLast((part) => part.includes('__'))
  return entry ? entry.replace(/\.self-contained$/, '').split('__').at(-1)! : path.basename(script)
}

/** Waits on a child's output, each with its own deadline. */
function watchOutput(child: ChildProcess) {
  let out = ''
  let seen = 0
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return {
    /** Wait for what comes from now on only. */
    skip(): void {
      seen = out.length
    },
    /** Until PATTERN appears in what came since the last wait ended. */
    async until(pattern: string | RegExp, deadlineMs: number): Promise<void> {
      const until = Date.now() + deadlineMs
      for (;;) {
        const rest = out.slice(seen)
        const at = typeof pattern === 'string' ? rest.indexOf(pattern) : rest.search(pattern)
        if (at >= 0) {
          seen += at + 1
          return
        }
        if (Date.now() > until || child.exitCode !== null) throw new Error(`waited for ${pattern}; came: ${out.slice(-2000)}`)
        await sleep(20)
      }
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]!
}
