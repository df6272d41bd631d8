/**
 * A folder a tangle makes is staged whole (tools/tangle/write.ts): its files written into a temporary folder beside
 * it, renamed into place once. What a killed run left of one is finished or removed by the next run's journal
 * (journal.ts), and a folder none of whose documents could be written is not made.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
const run = (args: string[], cwd: string) => spawnSync(cli, args, {cwd, encoding: 'utf8'})
const block = (target: string) => `* Code\n#+begin_src typescript :tangle ${target} :mkdirp yes\nconst x = 1\n#+end_src\n`
const journalFolderOf = (dir: string) => path.join(dir, 'node_modules/.cache/passepartout/journal')
/** The rule of each line of STDERR, with where it is said. */
const ruleLines = (stderr: string) =>
  stderr.trimEnd().split('\n').filter(Boolean).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'}).stdout)

/** A journal of a run of a process that has ended: its first line, then one line a step. */
function writeJournal(dir: string, steps: object[]): void {
  fs.mkdirSync(journalFolderOf(dir), {recursive: true})
  const text = [{pid: deadPid()}, ...steps].map((step) => JSON.stringify(step)).join('\n')
  fs.writeFileSync(path.join(journalFolderOf(dir), 'killed.jsonl'), `${text}\n`)
}

/** A project whose run was killed while it staged the folder out/ (two files of org/doc.org) as .out.1.0.tmp/. */
function killedWhileStagingOut() {
  const dir = tempProject({'node_modules/.keep': '', 'org/other.org': block('../other.ts')}, 'passepartout-staging-folder-')
  const staging = path.join(dir, '.out.1.0.tmp')
  fs.mkdirSync(path.join(staging, 'sub'), {recursive: true})
  fs.writeFileSync(path.join(staging, 'a.ts'), 'new a\n')
  fs.writeFileSync(path.join(staging, 'sub/b.ts'), 'new b\n')
  const entries = ['a.ts', 'sub/b.ts'].map((name) => ({
    target: path.join(dir, 'out', name),
    temporary: path.join(staging, name),
    backup: null,
  }))
  const steps = [{folder: {target: path.join(dir, 'out'), temporary: staging}}, {stage: {document: path.join(dir, 'org/doc.org'), entries}}]
  return {dir, steps}
}

describe('a folder the run makes', () => {
  it('is put in place whole by the next run when a killed run had begun renaming', () => {
    const {dir, steps} = killedWhileStagingOut()
    writeJournal(dir, [...steps, {renaming: true}])
    const result = run(['tangle', 'org/other.org'], dir)
    expect(result.status, result.stderr).toBe(0)
    expect(ruleLines(result.stderr)).toEqual(['org/doc.org io/recovered'])
    expect(result.stderr).toMatch(/its remaining files were put in place/)
    expect(fs.readFileSync(path.join(dir, 'out/a.ts'), 'utf8')).toBe('new a\n')
    expect(fs.readFileSync(path.join(dir, 'out/sub/b.ts'), 'utf8')).toBe('new b\n')
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([])
    expect(fs.readdirSync(journalFolderOf(dir))).toEqual([])
  })

  it('is removed, and not made, by the next run when a killed run was staging it', () => {
    const {dir, steps} = killedWhileStagingOut()
    writeJournal(dir, steps)
    const result = run(['tangle', 'org/other.org'], dir)
    expect(result.status, result.stderr).toBe(0)
    expect(ruleLines(result.stderr)).toEqual(['org/doc.org io/recovered'])
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false)
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([])
    expect(fs.readdirSync(journalFolderOf(dir))).toEqual([])
  })

  it('holds the files of the documents that could be written, and is not made when none could', () => {
    // Two documents writing one file are both refused; a third is written into the folder all the same.
    const shared = tempProject(
      {'node_modules/.keep': '', 'org/a.org': block('../out/x.ts'), 'org/b.org': block('../out/x.ts'), 'org/c.org': block('../out/sub/c.ts')},
      'passepartout-staging-folder-',
    )
    const result = run(['tangle', '--no-frames'], shared)
    expect(ruleLines(result.stderr)).toEqual(['org/a.org:2:1 tangle/target-conflict', 'org/b.org:2:1 tangle/target-conflict'])
    expect(fs.readdirSync(path.join(shared, 'out'))).toEqual(['sub'])
    expect(fs.readFileSync(path.join(shared, 'out/sub/c.ts'), 'utf8')).toBe('const x = 1\n')
    expect(fs.readdirSync(shared).filter((name) => name.startsWith('.'))).toEqual([])
    // With no third document, nothing is written, and no folder made.
    fs.rmSync(path.join(shared, 'org/c.org'))
    fs.rmSync(path.join(shared, 'out'), {recursive: true})
    expect(run(['tangle', '--no-frames'], shared).status).toBe(1)
    expect(fs.readdirSync(shared).filter((name) => name === 'out' || name.startsWith('.'))).toEqual([])
  })

  it('holds no folder, empty, that only refused documents wrote into', () => {
    const dir = tempProject(
      {'node_modules/.keep': '', 'org/a.org': block('../out/sub/x.ts'), 'org/b.org': block('../out/sub/x.ts'), 'org/c.org': block('../out/c.ts')},
      'passepartout-staging-folder-',
    )
    const result = run(['tangle', '--no-frames'], dir)
    expect(ruleLines(result.stderr)).toEqual(['org/a.org:2:1 tangle/target-conflict', 'org/b.org:2:1 tangle/target-conflict'])
    expect(fs.readdirSync(path.join(dir, 'out'))).toEqual(['c.ts'])
  })
})
