/**
 * What each document wrote, remembered across runs: orphans said and pruned,
 * edits said before they are replaced. Run as real commands on real folders.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {hashOf, WrittenFiles} from '../../tools/tangle/written.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-written-'))
  for (const [file, text] of Object.entries({'package.json': '{}', 'node_modules/.keep': '', ...files})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const run = (dir: string, ...args: string[]) => spawnSync(cli, ['tangle', '--no-frames', ...args], {cwd: dir, encoding: 'utf8'})
/** `file:line rule` for each message: the rule and the place, not the wording. */
/** Each diagnostic's place and rule; its note and help lines (indented) left out. */
const said = (stderr: string) => stderr.trimEnd().split('\n').filter((line) => line !== '' && !line.startsWith('  ')).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)
const doc = (target: string, body = 'export const x = 1') => `* Code\n#+begin_src typescript :tangle ${target} :mkdirp yes\n${body}\n#+end_src\n`
const write = (dir: string, file: string, text: string) => fs.writeFileSync(path.join(dir, file), text)
const exists = (dir: string, file: string) => fs.existsSync(path.join(dir, file))

describe('files a document no longer writes', () => {
  it('are said at the document, then removed by --prune when they hold what was written', () => {
    const dir = project({'org/doc.org': doc('../generated/old.ts')})
    expect(run(dir).status).toBe(0)
    write(dir, 'org/doc.org', doc('../generated/new.ts'))
    const renamed = run(dir)
    expect(renamed.status).toBe(0)
    expect(said(renamed.stderr)).toEqual(['org/doc.org tangle/orphaned-target'])
    expect(exists(dir, 'generated/old.ts')).toBe(true)
    // Said again on the next run, the cache notwithstanding, until it is gone.
    expect(said(run(dir).stderr)).toEqual(['org/doc.org tangle/orphaned-target'])
    const dry = run(dir, '--prune', '--dry-run')
    expect(dry.stdout).toContain('would remove generated/old.ts (org/doc.org no longer writes it)')
    expect(exists(dir, 'generated/old.ts')).toBe(true)
    const pruned = run(dir, '--prune')
    expect(pruned.status).toBe(0)
    expect(pruned.stderr).toBe('')
    expect(pruned.stdout).toContain('removed generated/old.ts (org/doc.org no longer writes it)')
    expect(exists(dir, 'generated/old.ts')).toBe(false)
    expect(exists(dir, 'generated/new.ts')).toBe(true)
    expect(run(dir).stderr).toBe('')
  })

  it('keeps an orphan edited since it was written, and says so', () => {
    const dir = project({'org/doc.org': doc('../generated/old.ts')})
    run(dir)
    write(dir, 'generated/old.ts', 'my own work\n')
    write(dir, 'org/doc.org', doc('../generated/new.ts'))
    const result = run(dir, '--prune')
    expect(said(result.stderr)).toEqual(['org/doc.org tangle/orphaned-target'])
    expect(fs.readFileSync(path.join(dir, 'generated/old.ts'), 'utf8')).toBe('my own work\n')
  })

  it('counts the files of a deleted document, and not a file another document writes now', () => {
    const dir = project({'org/gone.org': doc('../generated/gone.ts'), 'org/a.org': doc('../generated/moved.ts'), 'org/b.org': doc('../generated/b.ts')})
    run(dir)
    fs.rmSync(path.join(dir, 'org/gone.org'))
    write(dir, 'org/a.org', doc('../generated/a.ts'))
    write(dir, 'org/b.org', `${doc('../generated/b.ts')}${doc('../generated/moved.ts', 'export const moved = 1')}`)
    const result = run(dir)
    expect(said(result.stderr)).toEqual(['generated/gone.ts tangle/orphaned-target'])
    expect(run(dir, '--prune').stdout).toContain('removed generated/gone.ts (org/gone.org no longer writes it)')
    expect(fs.readFileSync(path.join(dir, 'generated/moved.ts'), 'utf8')).toBe('export const moved = 1\n')
  })
})

describe('a target edited since it was tangled', () => {
  it('is said at its block before it is replaced, once', () => {
    const dir = project({'org/doc.org': doc('../generated/x.ts')})
    run(dir)
    write(dir, 'generated/x.ts', 'export const x = 42 // fixed by hand\n')
    write(dir, 'org/doc.org', doc('../generated/x.ts', 'export const x = 2'))
    const result = run(dir)
    expect(result.status).toBe(0)
    expect(said(result.stderr)).toEqual(['org/doc.org:2:1 tangle/overwrites-edit'])
    expect(result.stderr).toContain('help: passepartout detangle brings such an edit back into its document first')
    expect(fs.readFileSync(path.join(dir, 'generated/x.ts'), 'utf8')).toBe('export const x = 2\n')
    expect(run(dir).stderr).toBe('')
  })

  it('is not said when only its times changed, or when it already holds what the tangle writes', () => {
    const dir = project({'org/doc.org': doc('../generated/x.ts')})
    run(dir)
    const later = new Date(Date.now() + 5000)
    fs.utimesSync(path.join(dir, 'generated/x.ts'), later, later)
    write(dir, 'org/doc.org', doc('../generated/x.ts', 'export const x = 2'))
    expect(run(dir).stderr).toBe('')
    write(dir, 'generated/x.ts', 'export const x = 3\n')
    write(dir, 'org/doc.org', doc('../generated/x.ts', 'export const x = 3'))
    expect(run(dir).stderr).toBe('')
  })
})

describe('the record, kept by two sessions at once (a watch, and a tangle in another terminal)', () => {
  /** A folder with FILES written, and two sessions over its record, opened before either wrote. */
  const twoSessions = (...files: string[]) => {
    const dir = project(Object.fromEntries(files.map((file) => [file, `${file}\n`])))
    const entry = (file: string) => ({path: path.join(dir, file), hash: hashOf(`${file}\n`)})
    return {dir, entry, watch: WrittenFiles.open(dir), terminal: WrittenFiles.open(dir)}
  }
  const documentsOf = (dir: string) =>
    ['a.org', 'b.org'].filter((document) => WrittenFiles.open(dir).targetsOf(path.join(dir, document)).length > 0)

  it("writes only the documents it changed, over the other's", () => {
    const {dir, entry, watch, terminal} = twoSessions('a.ts', 'b.ts')
    terminal.record(path.join(dir, 'a.org'), [entry('a.ts')])
    terminal.save()
    watch.record(path.join(dir, 'b.org'), [entry('b.ts')])
    watch.save()
    expect(documentsOf(dir)).toEqual(['a.org', 'b.org'])
  })

  it('takes what the other recorded at its next run, its own changes kept', () => {
    const {dir, entry, watch, terminal} = twoSessions('a.ts', 'b.ts')
    watch.record(path.join(dir, 'b.org'), [entry('b.ts')])
    terminal.record(path.join(dir, 'a.org'), [entry('a.ts')])
    terminal.save()
    expect(watch.documentOf(path.join(dir, 'a.ts'))).toBeUndefined()
    watch.refresh()
    expect(watch.documentOf(path.join(dir, 'a.ts'))).toBe(path.join(dir, 'a.org'))
    expect(watch.documentOf(path.join(dir, 'b.ts'))).toBe(path.join(dir, 'b.org'))
    // A file the other wrote, and recorded, is no edit.
    expect(watch.edited(path.join(dir, 'a.org'), path.join(dir, 'a.ts'))).toBe(false)
  })

  it('keeps a document the other forgot forgotten, and one it forgot itself', () => {
    const {dir, entry, watch: seed} = twoSessions('a.ts', 'b.ts')
    seed.record(path.join(dir, 'a.org'), [entry('a.ts')])
    seed.record(path.join(dir, 'b.org'), [entry('b.ts')])
    seed.save()
    const [watch, terminal] = [WrittenFiles.open(dir), WrittenFiles.open(dir)]
    terminal.forget(path.join(dir, 'a.org'))
    terminal.save()
    watch.forget(path.join(dir, 'b.org'))
    watch.save()
    expect(documentsOf(dir)).toEqual([])
  })
})
