/**
 * `make bench`: tangling speed, measured side by side in one run (median of 3).
 *
 * For corpora of 100 and 1000 generated skill documents (about 200 lines,
 * 5 headlines with property drawers, 5 twenty-line TypeScript blocks and
 * DEPENDS_ON lines each): passepartout in-process and as a command; a
 * 30-line naive line scanner (the floor: it only copies block bodies); Emacs's
 * org-babel-tangle-file in one batch process, when emacs is installed; a
 * re-tangle with nothing changed, with and without the cache. Then the reader alone on a 5 MB document.
 * Prints figures and ratios; asserts nothing (the machines are shared).
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
const RUNS = 3

export async function main(args: string[]): Promise<number> {
  const sizes = args.length > 0 ? args.map(Number) : [100, 1000]
  const emacs = spawnSync('emacs', ['--version'], {stdio: 'ignore'}).status === 0
  console.log(`passepartout tangle benchmark: median of ${RUNS} runs; node ${process.version}; ${os.cpus().length} CPUs${emacs ? '' : '; emacs not installed, its column is skipped'}\n`)
  for (const size of sizes) await benchCorpus(size, emacs)
  await benchReader()
  return 0
}

async function benchCorpus(size: number, emacs: boolean): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-bench-${size}-`))
  const files = writeCorpus(root, size)
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0)
  const out = path.join(root, 'out')
  const fresh = (run: () => unknown) => median(() => {
    fs.rmSync(out, {recursive: true, force: true})
    return time(run)
  })
  const inProcess = await median(async () => {
    fs.rmSync(out, {recursive: true, force: true})
    const start = performance.now()
    await tangle({files: listOrgFiles(path.join(root, 'org'))})
    return performance.now() - start
  })
  const command = await fresh(() => cli(['tangle'], path.join(root, 'org')))
  const unchanged = await median(() => time(() => cli(['tangle'], path.join(root, 'org'))))
  const unchangedUncached = await median(() => time(() => cli(['tangle', '--no-cache'], path.join(root, 'org'))))
  const naive = await fresh(() => naiveTangle(files))
  const naiveProcess = await fresh(() => naiveCommand(files))
  const emacsMs = emacs ? await fresh(() => emacsTangle(files)) : undefined
  console.log(`${size} documents (${(bytes / 1e6).toFixed(1)} MB, ${size * 5} blocks into ${size} files)`)
  const rows: [string, number | undefined][] = [
    ['passepartout, in process', inProcess],
    ['passepartout tangle (command)', command],
    ['passepartout tangle, nothing changed', unchanged],
    ['  the same with --no-cache', unchangedUncached],
    ['naive line scanner, in process (floor)', naive],
    ['naive line scanner, as a command (floor)', naiveProcess],
    ['Emacs org-babel-tangle-file (one batch)', emacsMs],
  ]
  for (const [label, ms] of rows) {
    if (ms === undefined) continue
    console.log(`  ${label.padEnd(42)} ${ms.toFixed(0).padStart(7)} ms  ${((size / ms) * 1000).toFixed(0).padStart(7)} documents/s`)
  }
  console.log(`  command / naive scanner command: ${(command / naiveProcess).toFixed(2)}x    (goal: within 2x)`)
  console.log(`  in process / naive scanner in process: ${(inProcess / naive).toFixed(2)}x`)
  if (emacsMs !== undefined) console.log(`  Emacs / command: ${(emacsMs / command).toFixed(1)}x faster    (goal: at least 60x at 1000 documents)`)
  console.log(`  nothing changed: ${unchanged.toFixed(0)} ms    (goal: under 300 ms)\n`)
  fs.rmSync(root, {recursive: true, force: true})
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
  const reader = await median(() => time(() => readOrg(text)))
  const floor = await median(() => time(() => text.split('\n').filter((line) => line.startsWith('#+begin_src')).length))
  console.log(`reader on one ${megabytes.toFixed(1)} MB document`)
  console.log(`  passepartout reader (readOrg)             ${reader.toFixed(0).padStart(7)} ms  ${(megabytes / (reader / 1000)).toFixed(0).padStart(7)} MB/s    (goal: at least 50 MB/s)`)
  console.log(`  line split and match (floor)              ${floor.toFixed(0).padStart(7)} ms  ${(megabytes / (floor / 1000)).toFixed(0).padStart(7)} MB/s`)
}

/** A skill document: about 200 lines, 5 headlines with drawers, 5 blocks of 20 lines. */
export function skillDocument(n: number): string {
  const lines = [`#+TITLE: Skill ${n}`, `#+DEPENDS_ON: skill-${Math.max(0, n - 1)} id:core-${n % 7}`, '#+DEPENDS_ON: policy', '']
  const sections = ['Intent', 'Contract', 'Implementation', 'Gate', 'Test Suite']
  sections.forEach((section, s) => {
    lines.push(`* ${section}`, ':PROPERTIES:', `:ID: skill-${n}-${s}`, `:header-args:typescript: :tangle ../out/skill-${n}.ts :mkdirp yes`, ':END:')
    for (let p = 0; p < 10; p++) lines.push(`Prose line ${p} about ${section.toLowerCase()} of skill ${n}, explaining why the code below exists.`)
    lines.push('', '#+begin_src typescript')
    for (let k = 0; k < 20; k++) lines.push(k === 0 ? `export function step${s}_${n}(input: string): string {` : k === 19 ? '}' : `  const v${k} = input.length + ${k} // ${section}`)
    lines.push('#+end_src', '')
  })
  return `${lines.join('\n')}\n`
}

function writeCorpus(root: string, size: number): string[] {
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

function cli(args: string[], cwd: string): void {
  const result = spawnSync(path.join(repo, 'bin/passepartout'), args, {cwd, stdio: ['ignore', 'ignore', 'inherit']})
  if (result.status !== 0) throw new Error(`passepartout ${args.join(' ')} exited with ${result.status} (${result.signal ?? result.error?.message})`)
}

function time(run: () => unknown): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

async function median(measure: () => number | Promise<number>): Promise<number> {
  const values: number[] = []
  for (let run = 0; run < RUNS; run++) values.push(await measure())
  values.sort((a, b) => a - b)
  return values[Math.floor(values.length / 2)]!
}
