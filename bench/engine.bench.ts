/**
 * `make bench`, third part: the skill engine (generated/core/, tangled from
 * org/core/). Prints, side by side in one run:
 *
 * - boot time for projects of 10, 100 and 1000 skill documents (median of 3,
 *   each in a fresh engine; every tenth skill depends on the one before);
 * - the reload of one skill (p50/p95 of 50 saves), alone and with a chain of
 *   dependents reloaded after it;
 * - the heap after 1000 reloads of one skill, in a child process with
 *   `--expose-gc`, next to the same module re-imported 1000 times through a
 *   cache-busted ESM `import()` (what the loader avoids).
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

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--heap') return heapChild(args[1]!, args[2] as 'engine' | 'import')
  console.log(`skill engine benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  for (const size of [10, 100, 1000]) await benchBoot(size)
  await benchReload()
  benchHeap()
  return 0
}

/** A skill document: a gate, a few helpers, and a dependency on the previous skill every tenth document. */
function skillDocument(n: number, version = 0): string {
  const lines = [`#+TITLE: Skill ${n}`, n % 10 === 9 ? `#+DEPENDS_ON: skill-${String(n - 1).padStart(4, '0')}` : '', '* Code', `#+begin_src typescript :tangle ../../generated/skills/skill-${n}.ts :mkdirp yes`, "import {defineSkill, hot} from 'passepartout'"]
  if (n % 10 === 9) lines.push(`import {limit as previous} from './skill-${n - 1}.ts'`)
  else lines.push('const previous = 0')
  lines.push(`export const limit = ${version} + previous`, `hot.data.loads = ((hot.data.loads as number | undefined) ?? 0) + 1`)
  for (let k = 0; k < 10; k++) lines.push(`export function helper${k}(input: string): number {`, `  return input.length * ${k} + limit`, '}')
  lines.push(`defineSkill({name: 'skill-${n}', priority: ${n % 50}, trigger: (context) => context.signal.text === 'skill ${n}', gate: (proposal) => (proposal.action.length > limit + 100 ? {kind: 'block', reason: 'too long'} : {kind: 'pass'})})`, '#+end_src', '')
  return lines.join('\n')
}

function writeProject(size: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-engine-bench-${size}-`))
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (let n = 0; n < size; n++) fs.writeFileSync(skillPath(root, n), skillDocument(n))
  return root
}

const skillPath = (root: string, n: number) => path.join(root, 'org', 'skills', `skill-${String(n).padStart(4, '0')}.org`)

async function benchBoot(size: number): Promise<void> {
  const root = writeProject(size)
  const times: number[] = []
  let summary = ''
  for (let run = 0; run < RUNS; run++) {
    const result = await SkillEngine.boot({root, mandatory: []})
    times.push(result.elapsedMs)
    summary = result.summary
  }
  console.log(`boot, ${String(size).padStart(4)} skills   median ${median(times).toFixed(0).padStart(6)} ms   (${(median(times) / size).toFixed(2)} ms a skill; ${summary})`)
  fs.rmSync(root, {recursive: true, force: true})
}

async function benchReload(): Promise<void> {
  const root = writeProject(100)
  const {engine} = await SkillEngine.boot({root, mandatory: []})
  const alone: number[] = []
  const chained: number[] = []
  for (let k = 1; k <= 50; k++) {
    fs.writeFileSync(skillPath(root, 45), skillDocument(45, k))
    alone.push(await time(() => engine.reload(path.basename(skillPath(root, 45), '.org'))))
    fs.writeFileSync(skillPath(root, 8), skillDocument(8, k))
    chained.push(await time(() => engine.reload(path.basename(skillPath(root, 8), '.org'))))
  }
  console.log(`\nreload of one skill (100 loaded)              p50 ${percentile(alone, 0.5).toFixed(1)} ms   p95 ${percentile(alone, 0.95).toFixed(1)} ms`)
  console.log(`reload of one skill and its dependent after it p50 ${percentile(chained, 0.5).toFixed(1)} ms   p95 ${percentile(chained, 0.95).toFixed(1)} ms`)
  fs.rmSync(root, {recursive: true, force: true})
}

function benchHeap(): void {
  const root = writeProject(3)
  const measure = (mode: 'engine' | 'import') => {
    const result = spawnSync(process.execPath, ['--expose-gc', path.join(repo, 'bin/launch.mjs'), 'bench/engine.bench.ts', '--heap', root, mode], {encoding: 'utf8', cwd: repo})
    if (result.status !== 0) throw new Error(`the heap measure failed: ${result.stderr}`)
    return JSON.parse(result.stdout) as {before: number; after: number}
  }
  const engine = measure('engine')
  const imports = measure('import')
  const growth = (run: {before: number; after: number}) => (run.after - run.before) / 1024
  console.log(`\nheap after ${RELOADS} reloads of one skill (after a forced GC)`)
  console.log(`  the engine (esbuild + vm.compileFunction)   ${(engine.before / 1048576).toFixed(1)} MB → ${(engine.after / 1048576).toFixed(1)} MB   growth ${growth(engine).toFixed(0)} KB (${(growth(engine) / RELOADS).toFixed(2)} KB a reload; goal: under 2 MB)`)
  console.log(`  cache-busted ESM import() of the same code  ${(imports.before / 1048576).toFixed(1)} MB → ${(imports.after / 1048576).toFixed(1)} MB   growth ${growth(imports).toFixed(0)} KB (${(growth(imports) / RELOADS).toFixed(2)} KB a reload)`)
  fs.rmSync(root, {recursive: true, force: true})
}

async function heapChild(root: string, mode: 'engine' | 'import'): Promise<number> {
  const gc = (globalThis as {gc?: () => void}).gc!
  const heap = () => {
    for (let k = 0; k < 3; k++) gc()
    return process.memoryUsage().heapUsed
  }
  const reload = mode === 'engine' ? await engineReloader(root) : await importReloader(root)
  for (let k = 0; k < 100; k++) await reload(k)
  const before = heap()
  for (let k = 0; k < RELOADS; k++) await reload(100 + k)
  process.stdout.write(JSON.stringify({before, after: heap()}))
  return 0
}

async function engineReloader(root: string): Promise<(k: number) => Promise<unknown>> {
  const {engine} = await SkillEngine.boot({root, mandatory: []})
  const name = path.basename(skillPath(root, 1), '.org')
  return async (k) => {
    fs.writeFileSync(skillPath(root, 1), skillDocument(1, k))
    const [result] = await engine.reload(name)
    if (result?.status !== 'ready') throw new Error(`reload ${k} failed: ${result?.errors[0]?.reason}`)
  }
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

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

function median(values: number[]): number {
  return percentile(values, 0.5)
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!
}
