/**
 * `make bench`: live reload, from a saved Org file to the new behaviour
 * callable in the running core (generated/core/live.ts), side by side in one
 * run with the same edit applied by restarting the process, as `node --watch`
 * or `tsx watch` would:
 *
 * - with 10 and 200 skills loaded, 50 saves of one skill: the time from the
 *   write to the first call that answers the new version (p50, p95), and its
 *   parts: from the write to the watcher's first event, the quiet time the
 *   watcher waits for a save to settle, the tangle, the type check (the
 *   type-check gate), the load and commit in the skill host, and from the
 *   commit to the call's answer;
 * - a restart: a fresh process that boots the same skills and answers the
 *   same call (median of 5), against which the live reload's p95 is compared;
 * - the core's heap after 1000 saves of one skill (10 skills loaded), after a
 *   full collection, as it runs and with V8's compilers off.
 *
 * Figures only; asserts nothing.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import v8 from 'node:v8'
import {ProjectSession} from '../tools/session/project-session.ts'
import {SkillCallError, SkillEngine} from '../generated/core/engine.ts'
import {type Applied, LiveReload} from '../generated/core/live.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const SAVES = 50
const HEAP_SAVES = 1000
const WARM_SAVES = 200
const RESTARTS = 5

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--restart') return restartChild(args[1]!, args[2]!)
  if (args[0] === '--heap') return heapChild(args[1]!)
  console.log(`live reload benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  for (const size of [10, 200]) await benchSaves(size)
  benchHeap()
  return 0
}

/** Skill N: an export answering VERSION, a few helpers, and, every tenth, a dependency on the one before. */
function skillDocument(n: number, version = 0): string {
  const name = `skill-${String(n).padStart(4, '0')}`
  const lines = [`#+TITLE: Skill ${n}`, n % 10 === 9 ? `#+DEPENDS_ON: skill-${String(n - 1).padStart(4, '0')}` : '', '* Code', `#+begin_src typescript :tangle ../../generated/skills/${name}.ts :mkdirp yes`, "import {defineSkill} from 'passepartout'"]
  lines.push(`export const version = (): number => ${version}`)
  for (let k = 0; k < 10; k++) lines.push(`export function helper${k}(input: string): number {`, `  return input.length * ${k} + ${n}`, '}')
  lines.push(`defineSkill({name: '${name}', trigger: () => false})`, '#+end_src', '')
  return lines.join('\n')
}

/** A project of SIZE skills that type-checks as a user's does (`passepartout` resolves to this installation). */
function writeProject(size: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-live-bench-${size}-`))
  const compilerOptions = {target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true, strict: true, skipLibCheck: true, types: []}
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({compilerOptions, include: ['generated']}))
  fs.mkdirSync(path.join(root, 'node_modules'))
  fs.symlinkSync(repo, path.join(root, 'node_modules', 'passepartout'))
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (let n = 0; n < size; n++) fs.writeFileSync(path.join(root, 'org', 'skills', `skill-${String(n).padStart(4, '0')}.org`), skillDocument(n))
  return root
}

async function start(root: string) {
  const session = new ProjectSession({project: root})
  await session.check(session.documents())
  const {engine} = await SkillEngine.boot({root, session, mandatory: [], shippedSkills: []})
  const applied: Applied[] = []
  const live = await LiveReload.start({root, session, engine, say: () => {}, report: () => {}, restart: () => {}})
  live.onApplied = (each) => applied.push(each)
  await session.warmUp()
  return {session, engine, live, applied}
}

/**
 * The version skill NAME's running code says it is; 0 while a save's new version replaces it under the call (a call
 * its version went under fails, and is asked again of the new one).
 */
async function versionOf(engine: SkillEngine, name: string): Promise<number> {
  try {
    return await (engine.skills[name]!.version as () => Promise<number>)()
  } catch (error) {
    if (error instanceof SkillCallError && error.diagnostic.reason.includes('was replaced by a new version')) return 0
    throw error
  }
}

async function benchSaves(size: number): Promise<void> {
  const root = writeProject(size)
  const {engine, live, applied} = await start(root)
  const n = Math.floor(size / 2)
  const name = `skill-${String(n).padStart(4, '0')}`
  const file = path.join(root, 'org', 'skills', `${name}.org`)
  const call = () => versionOf(engine, name)
  const endToEnd: number[] = []
  const parts: Applied['timings'][] = []
  const lags: number[] = []
  const after: number[] = []
  for (let save = 1; save <= SAVES; save++) {
    applied.length = 0
    const written = performance.now()
    fs.writeFileSync(file, skillDocument(n, save))
    while ((await call()) !== save) await new Promise((resolve) => setTimeout(resolve, 1))
    const answered = performance.now()
    endToEnd.push(answered - written)
    await live.idle()
    if (applied[0]) {
      parts.push(applied[0].timings)
      lags.push(applied[0].changes[0]!.at - written)
      after.push(answered - (applied[0].changes[0]!.at + applied[0].timings.total))
    }
    // A pause between saves, as between a person's.
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await live.close()
  engine.close()
  const restarts = Array.from({length: RESTARTS}, () => restart(root, name))
  const restartMs = median(restarts)
  const p = (values: number[], q: number) => quantile(values, q).toFixed(1)
  const part = (pick: (timings: Applied['timings']) => number) => `p50 ${p(parts.map(pick), 0.5)}  p95 ${p(parts.map(pick), 0.95)}`
  console.log(`${size} skills loaded, ${SAVES} saves of one skill (the type-check gate on)`)
  console.log(`  save → new version callable       p50 ${p(endToEnd, 0.5)} ms  p95 ${p(endToEnd, 0.95)} ms   (goal: p95 under 60 ms at 200)`)
  console.log(`    write to watcher event          p50 ${p(lags, 0.5)}  p95 ${p(lags, 0.95)}`)
  console.log(`    watcher (event and settling)   ${part((t) => t.waited)}`)
  console.log(`    tangle                          ${part((t) => t.tangle)}`)
  console.log(`    type check and sandbox rules    ${part((t) => t.check)}`)
  console.log(`    load and commit in the host     ${part((t) => t.load)}`)
  console.log(`    applied to answered             p50 ${p(after, 0.5)}  p95 ${p(after, 0.95)}`)
  console.log(`  restart of the process instead   median ${restartMs.toFixed(0)} ms (${restarts.map((ms) => ms.toFixed(0)).join('/')})`)
  console.log(`  restart / live reload p95: ${(restartMs / quantile(endToEnd, 0.95)).toFixed(1)}x   (goal: at least 20x)\n`)
  fs.rmSync(root, {recursive: true, force: true})
}

/** What `node --watch` does on a save: a new process, which boots every skill and answers the call. Milliseconds. */
function restart(root: string, name: string): number {
  const started = performance.now()
  const result = spawnSync(process.execPath, [path.join(repo, 'bin/launch.mjs'), 'bench/live.bench.ts', '--restart', root, name], {cwd: repo, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(`the restarted process failed: ${result.stderr}`)
  return performance.now() - started
}

async function restartChild(root: string, name: string): Promise<number> {
  const {engine} = await SkillEngine.boot({root, mandatory: [], shippedSkills: []})
  await (engine.skills[name]!.version as () => Promise<number>)()
  engine.close()
  return 0
}

/**
 * The heap after HEAP_SAVES saves, twice: as the core runs, and with V8's compilers off (interpreter only, no
 * bytecode flushing). Measured here, the TypeScript checker alone grows 2–3 MB over 1500 re-checks with the
 * compilers on and 3 KB with them off: what grows is V8's optimized code and the data that goes with it, for
 * the checker's functions, not anything the core keeps.
 */
function benchHeap(): void {
  const root = writeProject(10)
  const measure = (flags: string[]) => {
    const result = spawnSync(process.execPath, ['--expose-gc', ...flags, path.join(repo, 'bin/launch.mjs'), 'bench/live.bench.ts', '--heap', root], {cwd: repo, encoding: 'utf8'})
    if (result.status !== 0) throw new Error(`the heap measure failed: ${result.stderr}`)
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as [HeapReading, HeapReading, HeapReading]
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
  console.log(`the core's heap after ${HEAP_SAVES} saves of one skill through the live reload, type checks included (10 skills, ${WARM_SAVES} saves first, after a full collection)`)
  for (const [label, flags] of [
    ['as it runs', []],
    ["V8's compilers off", ['--no-opt', '--no-maglev', '--no-sparkplug', '--no-flush-bytecode']],
  ] as const) {
    const [before, half, after] = measure([...flags])
    console.log(`  ${label.padEnd(20)} ${(before.heap / 1e6).toFixed(1)} MB → ${(after.heap / 1e6).toFixed(1)} MB   growth ${kb(after.heap - before.heap)} (first ${HEAP_SAVES / 2} saves ${kb(half.heap - before.heap)}, last ${HEAP_SAVES / 2} ${kb(after.heap - half.heap)}; compiled code ${kb(after.code - before.code)})`)
  }
  console.log('  (goal: under 2 MB)\n')
  fs.rmSync(root, {recursive: true, force: true})
}

interface HeapReading {
  /** Bytes of heap in use after a full collection. */
  heap: number
  /** Of which V8's compiled code (its code spaces): the compiler's work on hot functions, not data kept. */
  code: number
}

async function heapChild(root: string): Promise<number> {
  const {engine, live} = await start(root)
  // What the benchmark itself would keep of each save is not the core's.
  live.onApplied = undefined
  const name = 'skill-0005'
  const file = path.join(root, 'org', 'skills', `${name}.org`)
  const call = () => versionOf(engine, name)
  const read = (): HeapReading => {
    ;(globalThis as {gc?: () => void}).gc?.()
    const code = v8
      .getHeapSpaceStatistics()
      .filter((space) => space.space_name.startsWith('code_'))
      .reduce((sum, space) => sum + space.space_used_size, 0)
    return {heap: process.memoryUsage().heapUsed, code}
  }
  const saves = async (from: number, count: number) => {
    for (let save = from; save < from + count; save++) {
      fs.writeFileSync(file, skillDocument(5, save))
      while ((await call()) !== save) await new Promise((resolve) => setTimeout(resolve, 1))
    }
    await live.idle()
  }
  // A first round of saves warms every path (and the caches they fill) before the heap is read.
  await saves(1, WARM_SAVES)
  const readings = [read()]
  await saves(WARM_SAVES + 1, HEAP_SAVES / 2)
  readings.push(read())
  await saves(WARM_SAVES + 1 + HEAP_SAVES / 2, HEAP_SAVES / 2)
  readings.push(read())
  await live.close()
  engine.close()
  process.stdout.write(`${JSON.stringify(readings)}\n`)
  return 0
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]!
}

function median(values: number[]): number {
  return quantile(values, 0.5)
}
