/**
 * A tangle killed (SIGKILL) at any moment of its writes leaves every document whole once the next run has
 * read the journal: each document's two files are both of the old version or both of the new, and no
 * temporary file or second name is left.
 */
import {type ChildProcess, spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
const DOCUMENTS = 300

/** Document N of VERSION: two files in OUT, the folder of the first made when missing. */
function document(n: number, version: number, out = 'out'): string {
  const body = (name: string) => `export const ${name}${n} = ${version}\n${'// padding\n'.repeat(40)}`
  return `* A\n#+begin_src typescript :tangle ../${out}/a-${n}.ts :mkdirp yes\n${body('a')}#+end_src\n* B\n#+begin_src typescript :tangle ../${out}/b-${n}.ts\n${body('b')}#+end_src\n`
}

function writeVersion(dir: string, version: number, out = 'out'): void {
  for (let n = 0; n < DOCUMENTS; n++) fs.writeFileSync(path.join(dir, 'org', `doc-${n}.org`), document(n, version, out))
}

/** A project of DOCUMENTS documents (none written yet) and one more, unrelated.org, whose run recovers the others'. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-killed-'))
  fs.writeFileSync(path.join(dir, 'package.json'), '{}')
  fs.mkdirSync(path.join(dir, 'node_modules'))
  fs.mkdirSync(path.join(dir, 'org'))
  fs.writeFileSync(path.join(dir, 'unrelated.org'), '#+begin_src typescript :tangle unrelated.ts\nx\n#+end_src\n')
  return dir
}

/** Runs a tangle in DIR and kills it once its journal has changed COUNT times; true when it was killed before it finished. */
async function killedTangle(dir: string, count: number): Promise<boolean> {
  const journal = path.join(dir, 'node_modules/.cache/passepartout/journal')
  fs.mkdirSync(journal, {recursive: true})
  const child = spawn(cli, ['tangle', '--no-cache'], {cwd: dir, stdio: 'ignore'})
  const exited = new Promise((resolve) => child.on('exit', resolve))
  await journalChanges(journal, count, child)
  child.kill('SIGKILL')
  await exited
  const journals = fs.readdirSync(journal, {withFileTypes: true}).filter((entry) => entry.isFile())
  // Another document's run reads the journal first.
  const recovery = spawnSync(cli, ['tangle', '--no-cache', 'unrelated.org'], {cwd: dir, encoding: 'utf8'})
  expect(recovery.status, recovery.stderr).toBe(0)
  return journals.length > 0
}

const versionOf = (file: string) => /= (\d+)\n/.exec(fs.readFileSync(file, 'utf8'))?.[1]

/** How long a run may take to reach the point it is killed at, on a loaded machine. */
const WAIT_MS = 30_000

/**
 * Resolves once the journals in FOLDER have changed COUNT times (a run's journal made, a line appended to it),
 * or once CHILD has ended (it finished first); rejects after WAIT_MS, saying what it waited for.
 */
function journalChanges(folder: string, count: number, child: ChildProcess): Promise<void> {
  let seen = 0
  const watcher = fs.watch(folder)
  let timer: NodeJS.Timeout | undefined
  return new Promise<void>((resolve, reject) => {
    watcher.on('change', () => ++seen >= count && resolve())
    child.on('exit', () => resolve())
    const late = () => reject(new Error(`${count} changes of the tangle's journal: ${seen} within ${WAIT_MS} ms`))
    timer = setTimeout(late, WAIT_MS)
  }).finally(() => {
    clearTimeout(timer)
    watcher.close()
  })
}

describe('a tangle killed in the middle of its writes', () => {
  it('leaves each document wholly old or wholly new once the next run has recovered', async () => {
    const dir = project()
    writeVersion(dir, 1)
    expect(spawnSync(cli, ['tangle', '--no-cache'], {cwd: dir}).status).toBe(0)
    let interrupted = 0
    for (let round = 2; round <= 7; round++) {
      writeVersion(dir, round)
      // Somewhere in its writes, however long its start-up takes: the journal has a line per document staged, one
      // when the renames begin, one per document settled (the watch may see several appends as one change).
      if (await killedTangle(dir, 1 + 50 * (round - 2))) interrupted++
      const out = path.join(dir, 'out')
      const names = fs.existsSync(out) ? fs.readdirSync(out) : []
      expect(names.filter((name) => name.startsWith('.')), `round ${round}`).toEqual([])
      for (let n = 0; n < DOCUMENTS; n++) {
        expect(versionOf(path.join(out, `a-${n}.ts`)), `document ${n}, round ${round}`).toBe(versionOf(path.join(out, `b-${n}.ts`)))
      }
    }
    // The kills must have landed while files were being written, or this test tests nothing.
    expect(interrupted).toBeGreaterThan(0)
  }, 120_000)

  it('makes a folder that did not exist appear whole, or not at all, once the next run has recovered', async () => {
    const dir = project()
    let interrupted = 0
    for (let round = 1; round <= 6; round++) {
      // A folder of its own each round: one that does not exist yet, which the run makes.
      const out = `fresh-${round}`
      writeVersion(dir, round, out)
      if (await killedTangle(dir, 1 + 60 * (round - 1))) interrupted++
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('.')), `round ${round}`).toEqual([])
      if (!fs.existsSync(path.join(dir, out))) continue
      expect(fs.readdirSync(path.join(dir, out)).length, `round ${round}`).toBe(2 * DOCUMENTS)
      for (let n = 0; n < DOCUMENTS; n++) {
        expect(versionOf(path.join(dir, out, `a-${n}.ts`)), `document ${n}, round ${round}`).toBe(String(round))
        expect(versionOf(path.join(dir, out, `b-${n}.ts`)), `document ${n}, round ${round}`).toBe(String(round))
      }
    }
    expect(interrupted).toBeGreaterThan(0)
  }, 120_000)
})
