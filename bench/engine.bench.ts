/**
 * `make bench`, third part: the skill engine and its skill host (generated/core/,
 * tangled from org/core/). Prints, side by side in one run:
 *
 * - the gates of 50 skills on one proposal through the host (`engine.verify`,
 *   one round trip), p50/p95/p99 of 2000 proposals, next to the same 50 gate
 *   functions called in the benchmark's own process, as the engine did before
 *   the host;
 * - boot time for projects of 10, 100 and 1000 skill documents (median of 3,
 *   each in a fresh engine; every tenth skill depends on the one before);
 * - the reload of one skill (p50/p95 of 50 saves), alone and with a dependent;
 * - the memory after 1000 reloads of one skill: the host's heap after a full
 *   collection (every replaced compartment must be freed) and the core's, in a
 *   child process with `--expose-gc`, next to the same module re-imported 1000
 *   times through a cache-busted ESM `import()`;
 * - the restart of the host after a skill's gate loops, with 100 skills loaded:
 *   how long the watchdog took to stop it, and how long the new host took to
 *   start and load the other 100.
 *
 * Figures only; asserts nothing.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import * as esbuild from 'esbuild'
import {SkillEngine} from '../generated/core/engine.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const RUNS = 3
const RELOADS = 1000
const PROPOSALS = 2000

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--heap') return heapChild(args[1]!, args[2] as 'engine' | 'import')
  console.log(`skill engine benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  await benchGates()
  for (const size of [10, 100, 1000]) await benchBoot(size)
  await benchReload()
  benchHeap()
  await benchRestart()
  return 0
}

/** The gate of skill N: blocks a proposal whose action is longer than its limit. */
const gateSource = (n: number) => `(proposal) => (proposal.action.length > ${n} + 100 ? {kind: 'block', reason: 'too long'} : {kind: 'pass'})`

/** A skill document: a gate, a few helpers, and a dependency on the previous skill every tenth document. */
function skillDocument(n: number, version = 0): string {
  const lines = [`#+TITLE: Skill ${n}`, n % 10 === 9 ? `#+DEPENDS_ON: skill-${String(n - 1).padStart(4, '0')}` : '', '* Code', `#+begin_src typescript :tangle ../../generated/skills/skill-${n}.ts :mkdirp yes`, "import {defineSkill, hot, type Proposal} from 'passepartout'"]
  if (n % 10 === 9) lines.push(`import {limit as previous} from './skill-${n - 1}.ts'`)
  else lines.push('const previous = 0')
  lines.push(`export const limit = ${version} + previous`, `hot.data.loads = ((hot.data.loads as number | undefined) ?? 0) + 1`)
  for (let k = 0; k < 10; k++) lines.push(`export function helper${k}(input: string): number {`, `  return input.length * ${k} + limit`, '}')
  lines.push(`defineSkill({name: 'skill-${String(n).padStart(4, '0')}', priority: ${n % 50}, trigger: (context) => context.signal.text === 'skill ${n}', gate: ${gateSource(n).replace('(proposal)', '(proposal: Proposal)')}})`, '#+end_src', '')
  return lines.join('\n')
}

function writeProject(size: number, extra: Record<string, string> = {}): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-engine-bench-${size}-`))
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (let n = 0; n < size; n++) fs.writeFileSync(skillPath(root, n), skillDocument(n))
  for (const [file, text] of Object.entries(extra)) fs.writeFileSync(path.join(root, 'org', 'skills', file), text)
  return root
}

const skillPath = (root: string, n: number) => path.join(root, 'org', 'skills', `skill-${String(n).padStart(4, '0')}.org`)
const proposal = {target: 'shell', action: 'run', args: {cmd: 'ls -la'}, explanation: 'list the files'}
const context = {signal: {sensor: 'user-input', text: 'list the files', payload: {}, depth: 0}}

/** Measure once the boot has settled (its esbuild service, its collections done), as a running core is. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 2000))

async function benchGates(): Promise<void> {
  const root = writeProject(50)
  const {engine} = await SkillEngine.boot({root, mandatory: [], shippedSkills: []})
  await settled()
  const host: number[] = []
  for (let k = 0; k < PROPOSALS; k++) {
    const started = performance.now()
    const outcome = await engine.verify(proposal, context)
    host.push(performance.now() - started)
    if (outcome.kind !== 'pass' || outcome.trace.length !== 50) throw new Error(`unexpected outcome: ${JSON.stringify(outcome).slice(0, 200)}`)
  }
  // The channel alone: a question whose answer costs the host nothing (no skill has a prompt, an augment or a redact).
  const channel: number[] = []
  for (let k = 0; k < PROPOSALS; k++) {
    const started = performance.now()
    await engine.prepareTurn(context, [], '')
    channel.push(performance.now() - started)
  }
  engine.close()
  // The same gates as functions of this process, called in priority order as the engine called them before the host.
  const gates = Array.from({length: 50}, (_, n) => ({priority: n % 50, gate: new Function(`return ${gateSource(n)}`)() as (p: typeof proposal, c: typeof context) => {kind: string}}))
  gates.sort((a, b) => b.priority - a.priority)
  const inProcess: number[] = []
  for (let k = 0; k < PROPOSALS; k++) {
    const started = performance.now()
    const trace = gates.map(({gate}) => gate(proposal, context).kind)
    inProcess.push(performance.now() - started)
    if (trace.length !== 50) throw new Error('lost a gate')
  }
  const row = (label: string, times: number[]) => `${label} p50 ${ms(percentile(times, 0.5))}  p95 ${ms(percentile(times, 0.95))}  p99 ${ms(percentile(times, 0.99))}`
  console.log(`all gates of 50 skills on one proposal (${PROPOSALS} proposals)`)
  console.log(row('  through the skill host (one round trip)   ', host), ' (goal: p95 under 0.5 ms)')
  console.log(row('  called in this process, no boundary       ', inProcess))
  console.log(row('  the channel alone (a question of no work) ', channel))
  console.log(`  the boundary costs ${(percentile(host, 0.5) / Math.max(percentile(inProcess, 0.5), 0.0005)).toFixed(0)}x at the median, ${((percentile(host, 0.5) * 1000) / 50).toFixed(1)} µs a gate\n`)
  fs.rmSync(root, {recursive: true, force: true})
}

/** The first boot of a project compiles every skill; the next ones find them in the compile cache (node_modules/.cache). */
async function benchBoot(size: number): Promise<void> {
  const root = writeProject(size)
  fs.mkdirSync(path.join(root, 'node_modules'))
  const times: number[] = []
  let summary = ''
  for (let run = 0; run <= RUNS; run++) {
    const result = await SkillEngine.boot({root, mandatory: [], shippedSkills: []})
    times.push(result.elapsedMs)
    summary = result.summary
    result.engine.close()
  }
  const [first, ...warm] = times
  console.log(`boot, ${String(size).padStart(4)} skills   first ${first!.toFixed(0).padStart(5)} ms   then median ${median(warm).toFixed(0).padStart(5)} ms   (${(median(warm) / size).toFixed(2)} ms a skill; ${summary})`)
  fs.rmSync(root, {recursive: true, force: true})
}

async function benchReload(): Promise<void> {
  const root = writeProject(100)
  fs.mkdirSync(path.join(root, 'node_modules'))
  const {engine} = await SkillEngine.boot({root, mandatory: [], shippedSkills: []})
  await settled()
  const alone: number[] = []
  const chained: number[] = []
  for (let k = 1; k <= 50; k++) {
    fs.writeFileSync(skillPath(root, 45), skillDocument(45, k))
    alone.push(await time(() => engine.reload(path.basename(skillPath(root, 45), '.org'))))
    fs.writeFileSync(skillPath(root, 8), skillDocument(8, k))
    chained.push(await time(() => engine.reload(path.basename(skillPath(root, 8), '.org'))))
  }
  engine.close()
  console.log(`\nreload of one skill (100 loaded)               p50 ${percentile(alone, 0.5).toFixed(1)} ms   p95 ${percentile(alone, 0.95).toFixed(1)} ms   (goal: p95 under 15 ms)`)
  console.log(`reload of one skill and its dependent after it  p50 ${percentile(chained, 0.5).toFixed(1)} ms   p95 ${percentile(chained, 0.95).toFixed(1)} ms`)
  fs.rmSync(root, {recursive: true, force: true})
}

function benchHeap(): void {
  const root = writeProject(3)
  const measure = (mode: 'engine' | 'import') => {
    const result = spawnSync(process.execPath, ['--expose-gc', path.join(repo, 'bin/launch.mjs'), 'bench/engine.bench.ts', '--heap', root, mode], {encoding: 'utf8', cwd: repo})
    if (result.status !== 0) throw new Error(`the heap measure failed: ${result.stderr}`)
    return JSON.parse(result.stdout) as {core: [number, number]; host?: [number, number]}
  }
  const engine = measure('engine')
  const imports = measure('import')
  const growth = ([before, after]: [number, number]) => `${(before / 1048576).toFixed(1)} MB → ${(after / 1048576).toFixed(1)} MB   growth ${((after - before) / 1024).toFixed(0)} KB (${((after - before) / 1024 / RELOADS).toFixed(2)} KB a reload)`
  console.log(`\nheap after ${RELOADS} reloads of one skill (after a full collection)`)
  console.log(`  the skill host (a compartment a version)    ${growth(engine.host!)}   (goal: under 2 MB)`)
  console.log(`  the core (the engine's side)                ${growth(engine.core)}`)
  console.log(`  cache-busted ESM import() of the same code  ${growth(imports.core)}`)
  fs.rmSync(root, {recursive: true, force: true})
}

async function heapChild(root: string, mode: 'engine' | 'import'): Promise<number> {
  const gc = (globalThis as {gc?: () => void}).gc!
  const heap = () => {
    for (let k = 0; k < 3; k++) gc()
    return process.memoryUsage().heapUsed
  }
  if (mode === 'import') {
    const reload = await importReloader(root)
    for (let k = 0; k < 100; k++) await reload(k)
    const before = heap()
    for (let k = 0; k < RELOADS; k++) await reload(100 + k)
    process.stdout.write(JSON.stringify({core: [before, heap()]}))
    return 0
  }
  const {engine} = await SkillEngine.boot({root, mandatory: [], shippedSkills: []})
  const name = path.basename(skillPath(root, 1), '.org')
  const reload = async (k: number) => {
    fs.writeFileSync(skillPath(root, 1), skillDocument(1, k))
    const [result] = await engine.reload(name)
    if (result?.status !== 'ready') throw new Error(`reload ${k} failed: ${result?.errors[0]?.reason}`)
  }
  for (let k = 0; k < 100; k++) await reload(k)
  const [before, hostBefore] = [heap(), (await engine.hostMemory()).heapUsed]
  for (let k = 0; k < RELOADS; k++) await reload(100 + k)
  const [after, hostAfter] = [heap(), (await engine.hostMemory()).heapUsed]
  engine.close()
  process.stdout.write(JSON.stringify({core: [before, after], host: [hostBefore, hostAfter]}))
  return 0
}

/** The skill's code as an ES module, imported again under a new URL for every version: Node never frees the old ones. */
async function importReloader(root: string): Promise<(k: number) => Promise<unknown>> {
  const file = path.join(root, 'skill.mjs')
  return async (k) => {
    const code = skillDocument(1, k).split('\n').filter((line) => !line.startsWith('#+') && !line.startsWith('*') && !line.includes("from 'passepartout'") && !line.startsWith('defineSkill') && !line.startsWith('hot.'))
    fs.writeFileSync(file, esbuild.transformSync(code.join('\n'), {loader: 'ts', format: 'esm'}).code)
    await import(`${pathToFileURL(file).href}?version=${k}`)
  }
}

async function benchRestart(): Promise<void> {
  const looper = (name: string, priority: number) =>
    [`#+begin_src typescript :tangle ../../generated/skills/${name}.ts :mkdirp yes`, "import {defineSkill} from 'passepartout'", `defineSkill({name: '${name}', priority: ${priority}, trigger: () => false, gate: (proposal) => {`, '  while (proposal.target) {}', "  return {kind: 'pass'}", '}})', '#+end_src', ''].join('\n')
  // Two loopers: the first restart takes the first out, the second restart is the second's.
  const root = writeProject(100, {'looper.org': looper('looper', 99), 'looper2.org': looper('looper2', 98)})
  const timeoutMs = 1000
  const stops: number[] = []
  const cold: number[] = []
  const spare: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const {engine} = await SkillEngine.boot({root, mandatory: [], shippedSkills: [], timeoutMs})
    // A boot keeps no spare host: the first restart starts a new one; a second after it, there is a spare.
    for (const [gate, times, wait] of [['looper', cold, 0], ['looper2', spare, 1500]] as const) {
      await new Promise((resolve) => setTimeout(resolve, wait))
      const started = performance.now()
      const outcome = await engine.verify(proposal, context)
      const total = performance.now() - started
      const restart = engine.catalog.restarts.at(-1)
      if (outcome.kind !== 'block' || outcome.gate !== gate || !restart) throw new Error(`${gate} was not stopped: ${JSON.stringify(outcome).slice(0, 200)}`)
      times.push(restart.ms)
      stops.push(total - restart.ms)
    }
    engine.close()
  }
  console.log(`\na gate that loops, 100 other skills loaded (timeout ${timeoutMs} ms; median of ${RUNS})`)
  console.log(`  stopped by the watchdog after                 ${median(stops).toFixed(0).padStart(5)} ms   (the timeout, then the pause that reads where it was)`)
  console.log(`  a new host started, the 100 loaded into it     ${median(cold).toFixed(0).padStart(5)} ms   (the first restart: a boot keeps no spare)`)
  console.log(`  the spare host taken, the 100 loaded into it   ${median(spare).toFixed(0).padStart(5)} ms   (goal: under 300 ms)`)
  fs.rmSync(root, {recursive: true, force: true})
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

function ms(value: number): string {
  return `${value.toFixed(3)} ms`
}

function median(values: number[]): number {
  return percentile(values, 0.5)
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!
}
