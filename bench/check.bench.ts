/**
 * `make bench`, second part: `passepartout check` on corpora of 100 and 1000
 * generated skill documents (under org/skills/, so the sandbox rules run),
 * each importing its predecessor. Prints, side by side in one run: the full
 * check as a command (median of 3, with its peak memory) with the native
 * compiler and with ts-morph; with nothing changed since, answered from the
 * check's memory and, its memory dropped, by the compiler again; cold, as after
 * a new build of the tool (no tangle cache, no memory); `tsc --noEmit` (the
 * native `tsc` 7) on the same generated files, and, in one warm process, the re-check after changing one
 * document (p50/p95 over 20 changes) next to a whole-program re-check.
 * Figures only; asserts nothing.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {ProjectSession} from '../tools/session/project-session.ts'
import {listOrgFiles} from '../tools/project.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const RUNS = 3
const CHANGES = 20

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--full') return fullCheckChild(args[1]!, args[2] === 'warm')
  const sizes = args.length > 0 ? args.map(Number) : [100, 1000]
  console.log(`passepartout check benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  for (const size of sizes) await benchCorpus(size)
  return 0
}

async function benchCorpus(size: number): Promise<void> {
  const root = writeCorpus(size)
  const full = median(Array.from({length: RUNS}, () => fullCheck(root, 'native')), (run) => run.ms)
  const unchanged = median(Array.from({length: RUNS}, () => fullCheck(root, 'native', {keep: true})), (run) => run.ms)
  const forgotten = median(
    Array.from({length: RUNS}, () => fullCheck(root, 'native', {keep: true, dropMemory: true})),
    (run) => run.ms,
  )
  const cold = median(Array.from({length: RUNS}, () => fullCheck(root, 'native', {keep: true, dropCache: true})), (run) => run.ms)
  const morph = median(Array.from({length: RUNS}, () => fullCheck(root, 'warm')), (run) => run.ms)
  const tscMs = median(Array.from({length: RUNS}, () => time(() => tsc(root))), (ms) => ms)
  const warm = await warmRechecks(root)
  console.log(`${size} documents, ${size} generated TypeScript files`)
  console.log(`  passepartout check (command, full, tsc ${tscVersion()}) ${full.ms.toFixed(0).padStart(7)} ms   peak ${(full.maxRssKb / 1024).toFixed(0)} MB (this process; tsc's own not counted)`)
  const row = (label: string, run: {ms: number; maxRssKb: number}, note: string) => {
    console.log(`  ${label.padEnd(44)} ${run.ms.toFixed(0).padStart(7)} ms   peak ${Math.round(run.maxRssKb / 1024)} MB ${note}`)
  }
  row('passepartout check, nothing changed since', unchanged, "(the check's memory answers)")
  row("  the same, the check's memory dropped", forgotten, '(the compiler runs again)')
  console.log(`  passepartout check, cold (no tangle cache)   ${cold.ms.toFixed(0).padStart(7)} ms   peak ${(cold.maxRssKb / 1024).toFixed(0)} MB (as after every new build of the tool)`)
  console.log(`  passepartout check (command, full, ts-morph) ${morph.ms.toFixed(0).padStart(7)} ms   peak ${(morph.maxRssKb / 1024).toFixed(0)} MB`)
  console.log(`  tsc --noEmit (typescript ${tscVersion()}), same files   ${tscMs.toFixed(0).padStart(7)} ms`)
  console.log(`  warm re-check of one changed document        p50 ${warm.p50.toFixed(1)} ms   p95 ${warm.p95.toFixed(1)} ms   (goal: p95 under 60 ms at 1000)`)
  console.log(`    all ${CHANGES}, in the order of the changes: ${warm.times.map((ms) => ms.toFixed(0)).join(' ')}`)
  console.log(`  warm-up of the re-check program               ${warm.warmUp.toFixed(0).padStart(7)} ms`)
  console.log(`  whole-program check in the warm process       ${warm.whole.toFixed(0).padStart(7)} ms`)
  console.log(`  full check / tsc: ${(full.ms / tscMs).toFixed(2)}x, cold / tsc: ${(cold.ms / tscMs).toFixed(2)}x (goal: 1.15x), unchanged / tsc: ${(unchanged.ms / tscMs).toFixed(2)}x (goal: 0.2x), \
without the memory ${(forgotten.ms / tscMs).toFixed(2)}x;  ts-morph full / native full: ${(morph.ms / full.ms).toFixed(2)}x;  whole-program / one-document p50: ${(warm.whole / warm.p50).toFixed(0)}x\n`)
  fs.rmSync(root, {recursive: true, force: true})
}

/** One check in a fresh process, as a user runs it, of everything or (KEEP) of what the last one left; its wall time and peak memory. */
function fullCheck(
  root: string,
  checker: 'native' | 'warm',
  options: {keep?: boolean; dropCache?: boolean; dropMemory?: boolean} = {},
): {ms: number; maxRssKb: number} {
  const cache = path.join(root, 'node_modules', '.cache', 'passepartout')
  if (!options.keep) fs.rmSync(path.join(root, 'generated'), {recursive: true, force: true})
  // A new build of the tool throws away both the tangle cache and the check's memory.
  if (options.dropCache) fs.rmSync(path.join(cache, 'tangle.json'), {force: true})
  if (options.dropCache || options.dropMemory) fs.rmSync(path.join(cache, 'check.json'), {force: true})
  const started = performance.now()
  const result = spawnSync(process.execPath, [path.join(repo, 'bin/launch.mjs'), 'bench/check.bench.ts', '--full', root, checker], {encoding: 'utf8', cwd: repo})
  const ms = performance.now() - started
  if (result.status !== 0) throw new Error(`the full check failed: ${result.stderr}`)
  return {ms, maxRssKb: JSON.parse(result.stdout).maxRssKb}
}

async function fullCheckChild(root: string, warmOnly: boolean): Promise<number> {
  const report = await new ProjectSession({project: root, warmOnly}).check(listOrgFiles(path.join(root, 'org')))
  if (report.diagnostics.length > 0) throw new Error(`the corpus has problems: ${report.diagnostics[0]!.message}`)
  process.stdout.write(JSON.stringify({maxRssKb: process.resourceUsage().maxRSS}))
  return 0
}

async function warmRechecks(root: string): Promise<{p50: number; p95: number; times: number[]; warmUp: number; whole: number}> {
  const files = listOrgFiles(path.join(root, 'org'))
  const session = new ProjectSession({project: root})
  await session.check(files)
  const warmUp = await timeAsync(() => session.warmUp())
  const times: number[] = []
  for (let k = 0; k < CHANGES; k++) {
    const file = files[Math.floor((k * files.length) / CHANGES)]!
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/LIMIT = \d+/, `LIMIT = ${100 + k}`))
    times.push(await timeAsync(() => session.recheck([file])))
  }
  const file = files[0]!
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/LIMIT = \d+/, 'LIMIT = 7'))
  const whole = await timeAsync(() => session.check(files))
  const sorted = [...times].sort((a, b) => a - b)
  return {p50: sorted[Math.floor(sorted.length * 0.5)]!, p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!, times, warmUp, whole}
}

/** A skill document tangling to generated/skills/skill-N.ts, importing skill N-1. */
function skillDocument(n: number): string {
  const lines = [`#+TITLE: Skill ${n}`, n > 0 ? `#+DEPENDS_ON: id:skill-${n - 1}-0` : '#+DEPENDS_ON:', '']
  const sections = ['Intent', 'Contract', 'Implementation', 'Gate', 'Helpers']
  sections.forEach((section, s) => {
    lines.push(`* ${section}`, ':PROPERTIES:', `:ID: skill-${n}-${s}`, `:header-args:typescript: :tangle ../../generated/skills/skill-${n}.ts :mkdirp yes`, ':END:')
    for (let p = 0; p < 10; p++) lines.push(`Prose line ${p} about the ${section.toLowerCase()} of skill ${n}.`)
    lines.push('', '#+begin_src typescript')
    if (s === 0) lines.push(n > 0 ? `import {step4_${n - 1}} from './skill-${n - 1}.ts'` : 'const step4_base = (input: string): string => input', 'export const LIMIT = 10')
    lines.push(`export function step${s}_${n}(input: string): string {`)
    for (let k = 0; k < 16; k++) lines.push(`  const v${k}: number = input.length + ${k} * LIMIT`)
    lines.push(`  return ${s === 0 ? (n > 0 ? `step4_${n - 1}` : 'step4_base') : `step${s - 1}_${n}`}(input.slice(v15 % 3))`, '}', '#+end_src', '')
  })
  return `${lines.join('\n')}\n`
}

export function writeCorpus(size: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-check-bench-${size}-`))
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.mkdirSync(path.join(root, 'node_modules'))
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({compilerOptions: {target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true, strict: true, skipLibCheck: true, types: []}, include: ['generated']}))
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (let n = 0; n < size; n++) fs.writeFileSync(path.join(root, 'org', 'skills', `skill-${String(n).padStart(4, '0')}.org`), skillDocument(n))
  return root
}

function tsc(root: string): void {
  const result = spawnSync(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')], {stdio: 'inherit'})
  if (result.status !== 0) throw new Error(`tsc exited with ${result.status}`)
}

function tscVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(repo, 'node_modules/typescript/package.json'), 'utf8')).version
}

function time(run: () => unknown): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

function median<T>(values: T[], key: (value: T) => number): T {
  return [...values].sort((a, b) => key(a) - key(b))[Math.floor(values.length / 2)]!
}
