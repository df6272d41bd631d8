/**
 * `make bench`: tangling speed, measured side by side in one run.
 *
 * For corpora of 100 and 1000 generated skill documents (about 200 lines, 5
 * headlines, 5 twenty-line TypeScript blocks and DEPENDS_ON lines each; half
 * of them name their target in heading property drawers, half in a
 * `#+PROPERTY:` line): passepartout as a command, fresh and with nothing
 * changed (inside an npm project, and outside any, where the cache lives in
 * the user's cache folder), and in process (also planned only, a dry run that
 * makes no file: the rest of its time is making the files); a 30-line naive line scanner (the
 * floor: it only copies block bodies) as a command and in process; Emacs's
 * org-babel-tangle-file in one batch process (once, when emacs is installed).
 * Each round runs every contender once, one after the other, so that the
 * shared machine's slow and fast moments fall on all of them; the figures are
 * medians over the rounds, and the ratios are ratios of those medians; each
 * goal's ratio is given round by round too (a round's figure over the naive
 * command's of the same round, the anchor), to show how far it swings. Before
 * timing anything, the naive scanner's output is checked to be passepartout's,
 * byte for byte. Beside each time, the CPU time it took (this process's and
 * its children's, threads included): on a machine others share, the wall
 * times swing with their load, the CPU times much less. Then the reader alone on a 5 MB document. Prints figures and
 * ratios; asserts nothing (the machines are shared).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {readOrg} from '../tools/org/parse.ts'
import {listOrgFiles} from '../tools/project.ts'
import {tangle} from '../tools/tangle/tangle.ts'
import {naiveTangle} from './naive-scanner.mjs'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const ROUNDS = 5

/** What the goals are measured against: the naive scanner as a command, in the same rounds. */
const ANCHOR = 'naive command'
/**
 * The goals of issue 32, each a figure of this run over the anchor's: a fresh tangle within 1.5 times the naive
 * scanner, one that finds nothing changed within 0.4 times (it reads no document, but starts Node and the CLI).
 */
const GOALS: [label: string, key: string, goal: number][] = [
  ['fresh command', 'command', 1.5],
  ['nothing changed', 'unchanged', 0.4],
]

export async function main(args: string[]): Promise<number> {
  const sizes = args.length > 0 ? args.map(Number) : [100, 1000]
  const emacs = spawnSync('emacs', ['--version'], {stdio: 'ignore'}).status === 0
  console.log(`passepartout tangle benchmark: medians of ${ROUNDS} interleaved rounds; node ${process.version}; ${os.cpus().length} CPUs${emacs ? '' : '; emacs not installed, its column is skipped'}\n`)
  for (const size of sizes) await benchCorpus(size, emacs)
  await benchReader()
  return 0
}

async function benchCorpus(size: number, emacs: boolean): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-bench-${size}-`))
  const files = writeCorpus(root, size)
  // The same documents outside any project (a folder with no package.json above it), writing beside themselves.
  const loose = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-bench-loose-${size}-`))
  for (const file of files) fs.writeFileSync(path.join(loose, path.basename(file)), fs.readFileSync(file, 'utf8').replaceAll('../out/', 'out/'))
  for (const file of fs.readdirSync(loose)) fs.utimesSync(path.join(loose, file), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0)
  const out = path.join(root, 'out')
  const clean = () => fs.rmSync(out, {recursive: true, force: true})
  const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-bench-cache-'))
  const env = {...process.env, XDG_CACHE_HOME: cacheHome}

  checkNaiveAgrees(root, files)

  const series = new Map<string, number[]>()
  const cpuSeries = new Map<string, number[]>()
  const measure = async (label: string, run: () => unknown) => {
    const start = performance.now()
    const cpuStart = cpuMs()
    await run()
    const ms = performance.now() - start
    series.set(label, [...(series.get(label) ?? []), ms])
    cpuSeries.set(label, [...(cpuSeries.get(label) ?? []), cpuMs() - cpuStart])
  }
  for (let round = 0; round < ROUNDS; round++) {
    clean()
    await measure('naive command', () => naiveCommand(files))
    clean()
    fs.rmSync(path.join(root, 'node_modules', '.cache'), {recursive: true, force: true})
    await measure('command', () => cli(['tangle'], path.join(root, 'org'), env))
    await measure('unchanged', () => cli(['tangle'], path.join(root, 'org'), env))
    await measure('unchanged --no-cache', () => cli(['tangle', '--no-cache'], path.join(root, 'org'), env))
    cli(['tangle', '.'], loose, env)
    await measure('unchanged outside a project', () => cli(['tangle', '.'], loose, env))
    clean()
    await measure('naive in process', () => naiveTangle(files))
    clean()
    await measure('in process', () => tangle({files: listOrgFiles(path.join(root, 'org'))}))
    clean()
    await measure('in process, planned only', () => tangle({files: listOrgFiles(path.join(root, 'org')), dryRun: true}))
  }
  let emacsMs: number | undefined
  if (emacs) {
    clean()
    const start = performance.now()
    emacsTangle(files)
    emacsMs = performance.now() - start
  }
  const at = (label: string) => median(series.get(label)!)
  const cpuAt = (label: string) => median(cpuSeries.get(label)!)
  console.log(`${size} documents (${(bytes / 1e6).toFixed(1)} MB, ${size * 5} blocks into ${size} files; naive scanner output checked identical)`)
  const rows: [string, string][] = [
    ['passepartout tangle (command), fresh', 'command'],
    ['passepartout tangle, nothing changed', 'unchanged'],
    ['  the same outside an npm project', 'unchanged outside a project'],
    ['  the same with --no-cache', 'unchanged --no-cache'],
    ['naive line scanner, as a command (floor)', 'naive command'],
    ['passepartout, in process', 'in process'],
    ['  the same planned only (a dry run: no file made)', 'in process, planned only'],
    ['naive line scanner, in process', 'naive in process'],
  ]
  for (const [label, key] of rows) {
    const ms = at(key)
    const rate = ((size / ms) * 1000).toFixed(0).padStart(7)
    console.log(`  ${label.padEnd(50)} ${ms.toFixed(0).padStart(7)} ms  ${rate} documents/s   CPU ${cpuAt(key).toFixed(0).padStart(6)} ms`)
  }
  const emacsLabel = 'Emacs org-babel-tangle-file (one batch, once)'
  if (emacsMs !== undefined) console.log(`  ${emacsLabel.padEnd(50)} ${emacsMs.toFixed(0).padStart(7)} ms`)
  for (const [label, key, goal] of GOALS) {
    const against = (figure: (key: string) => number, unit: string) =>
      `${figure(key).toFixed(0)} against ${figure(ANCHOR).toFixed(0)} ms ${unit}: ${(figure(key) / figure(ANCHOR)).toFixed(2)}x`
    const rounds = series.get(key)!.map((ms, round) => (ms / series.get(ANCHOR)![round]!).toFixed(2))
    console.log(`  ${label} / naive command (the anchor, this run): ${against(at, 'of wall time')}, ${against(cpuAt, 'of CPU')}; round by round ${rounds.join('/')}    (goal at 1000: within ${goal}x)`)
  }
  const naive = at(ANCHOR)
  console.log(`  the same outside an npm project / naive command: ${(at('unchanged outside a project') / naive).toFixed(2)}x`)
  console.log(`  in process / naive in process: ${(at('in process') / at('naive in process')).toFixed(2)}x, CPU ${(cpuAt('in process') / cpuAt('naive in process')).toFixed(2)}x; planned only: CPU ${(cpuAt('in process, planned only') / cpuAt('naive in process')).toFixed(2)}x (what is left of a fresh command's CPU is its start: loading the command, and the planner's code run cold)`)
  if (emacsMs !== undefined) console.log(`  Emacs / fresh command: ${(emacsMs / at('command')).toFixed(1)}x`)
  console.log(`  rounds (ms): ${[...series].map(([label, values]) => `${label} ${values.map((v) => v.toFixed(0)).join('/')}`).join('; ')}\n`)
  for (const folder of [root, loose, cacheHome]) fs.rmSync(folder, {recursive: true, force: true})
}

/** The naive scanner must write what passepartout writes, or it is no floor. */
function checkNaiveAgrees(root: string, files: string[]): void {
  const out = path.join(root, 'out')
  naiveTangle(files)
  const naive = new Map(fs.readdirSync(out).map((name) => [name, fs.readFileSync(path.join(out, name), 'utf8')]))
  fs.rmSync(out, {recursive: true, force: true})
  cli(['tangle', '--no-cache'], path.join(root, 'org'), process.env)
  const ours = new Map(fs.readdirSync(out).map((name) => [name, fs.readFileSync(path.join(out, name), 'utf8')]))
  fs.rmSync(out, {recursive: true, force: true})
  const differing = [...new Set([...naive.keys(), ...ours.keys()])].filter((name) => naive.get(name) !== ours.get(name))
  if (naive.size !== files.length || differing.length > 0) {
    throw new Error(`the naive scanner wrote ${naive.size} files for ${files.length} documents, ${differing.length} of them not as passepartout does (first: ${differing[0]})`)
  }
}

async function benchReader(): Promise<void> {
  const pieces: string[] = []
  let length = 0
  for (let k = 0; length < 5 * 1024 * 1024; k++) {
    const text = skillDocument(k)
    pieces.push(text)
    length += text.length
  }
  const text = pieces.join('')
  const megabytes = Buffer.byteLength(text) / 1e6
  const reader: number[] = []
  const floor: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    reader.push(time(() => readOrg(text)))
    floor.push(time(() => text.split('\n').filter((line) => line.startsWith('#+begin_src')).length))
  }
  console.log(`reader on one ${megabytes.toFixed(1)} MB document`)
  console.log(`  passepartout reader (readOrg)             ${median(reader).toFixed(0).padStart(7)} ms  ${(megabytes / (median(reader) / 1000)).toFixed(0).padStart(7)} MB/s    (goal: at least 100 MB/s)`)
  console.log(`  line split and match (floor)              ${median(floor).toFixed(0).padStart(7)} ms  ${(megabytes / (median(floor) / 1000)).toFixed(0).padStart(7)} MB/s`)
}

/**
 * A skill document: about 200 lines, 5 headlines, 5 blocks of 20 lines. Odd ones name their target in a
 * `#+PROPERTY:` line, even ones in each heading's property drawer.
 */
export function skillDocument(n: number): string {
  const byKeyword = n % 2 === 1
  const lines = [`#+TITLE: Skill ${n}`, `#+DEPENDS_ON: skill-${Math.max(0, n - 1)} id:core-${n % 7}`, '#+DEPENDS_ON: policy']
  if (byKeyword) lines.push(`#+PROPERTY: header-args:typescript :tangle ../out/skill-${n}.ts :mkdirp yes`)
  lines.push('')
  const sections = ['Intent', 'Contract', 'Implementation', 'Gate', 'Test Suite']
  sections.forEach((section, s) => {
    lines.push(`* ${section}`, ':PROPERTIES:', `:ID: skill-${n}-${s}`)
    if (!byKeyword) lines.push(`:header-args:typescript: :tangle ../out/skill-${n}.ts :mkdirp yes`)
    lines.push(':END:')
    for (let p = 0; p < 10; p++) lines.push(`Prose line ${p} about ${section.toLowerCase()} of skill ${n}, explaining why the code below exists.`)
    lines.push('', '#+begin_src typescript')
    for (let k = 0; k < 20; k++) lines.push(k === 0 ? `export function step${s}_${n}(input: string): string {` : k === 19 ? '}' : `  const v${k} = input.length + ${k} // ${section}`)
    lines.push('#+end_src', '')
  })
  return `${lines.join('\n')}\n`
}

export function writeCorpus(root: string, size: number): string[] {
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  // The tangle cache lives in the project's node_modules/.cache.
  fs.mkdirSync(path.join(root, 'node_modules'))
  fs.mkdirSync(path.join(root, 'org'))
  const files: string[] = []
  for (let n = 0; n < size; n++) {
    const file = path.join(root, 'org', `skill-${String(n).padStart(4, '0')}.org`)
    fs.writeFileSync(file, skillDocument(n))
    files.push(file)
  }
  // Written long enough ago for the cache to trust their stamps (cache.ts: a file changed within the clock tick is not).
  const past = new Date(Date.now() - 60_000)
  for (const file of files) fs.utimesSync(file, past, past)
  return files
}

/** The same scanner in a fresh Node process, so that both commands pay the start-up. */
function naiveCommand(files: string[]): void {
  const list = path.join(os.tmpdir(), `passepartout-bench-files-${process.pid}.json`)
  fs.writeFileSync(list, JSON.stringify(files))
  const result = spawnSync(process.execPath, [path.join(repo, 'bench/naive-command.mjs'), list], {stdio: ['ignore', 'ignore', 'inherit']})
  if (result.status !== 0) throw new Error(`the naive scanner exited with ${result.status}`)
}

function emacsTangle(files: string[]): void {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'emacs-home-'))
  const list = path.join(home, 'files.txt')
  fs.writeFileSync(list, files.join('\n'))
  const elisp = `(progn (require 'org) (require 'ob-tangle)
    (unless (fboundp 'typescript-mode) (define-derived-mode typescript-mode js-mode "TypeScript"))
    (dolist (file (with-temp-buffer (insert-file-contents "${list}") (split-string (buffer-string) "\\n" t)))
      (org-babel-tangle-file file)))`
  const result = spawnSync('emacs', ['--batch', '-Q', '--eval', elisp], {env: {...process.env, HOME: home, LC_ALL: 'C.UTF-8'}, stdio: 'ignore'})
  if (result.status !== 0) throw new Error(`emacs failed with status ${result.status}`)
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(path.join(repo, 'bin/passepartout'), args, {cwd, env, stdio: ['ignore', 'ignore', 'inherit']})
  if (result.status !== 0) throw new Error(`passepartout ${args.join(' ')} exited with ${result.status} (${result.signal ?? result.error?.message})`)
}

/**
 * The CPU time this process has used, its threads included, and its children that ended (Linux's
 * /proc/self/stat; elsewhere this process's only), in ms.
 */
function cpuMs(): number {
  const own = process.cpuUsage()
  let children = 0
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    // cutime and cstime, fields 16 and 17 of the line (counted from 1, the first two being before ') '), in ticks.
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND
  } catch {
    // Not Linux: the children's time is not known.
  }
  return (own.user + own.system) / 1000 + children
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`): 100 on Linux's usual builds. */
const TICKS_PER_SECOND = 100

function time(run: () => unknown): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
