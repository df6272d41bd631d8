/**
 * The reader of a project's files (tools/project-file.ts): a regular file of at most the bytes asked is read; a named
 * pipe, a link to an endless device, a folder, a file past the bound are refused at once with why; a missing file is
 * said missing. And two commands that read such a file by name end promptly, saying so at the file.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {unreadableConfiguration} from '../tools/check/compiler-inputs.ts'
import {installedPackage} from '../tools/installation.ts'
import {readProjectFile} from '../tools/project-file.ts'
import {tempProject} from './support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '..', 'bin', 'passepartout')

/** The bound of the table's rows, in bytes. */
const BOUND = 16

/** [what FILE is, how it is made, what reading it at BOUND gives]. */
const rows: [string, (file: string) => void, ReturnType<typeof readProjectFile>][] = [
  ['a regular file', (file) => fs.writeFileSync(file, 'a'), {ok: true, bytes: Buffer.from('a')}],
  ['an empty file', (file) => fs.writeFileSync(file, ''), {ok: true, bytes: Buffer.alloc(0)}],
  [
    'a file at the bound',
    (file) => fs.writeFileSync(file, 'a'.repeat(BOUND)),
    {ok: true, bytes: Buffer.from('a'.repeat(BOUND))},
  ],
  [
    'a file one byte past the bound',
    (file) => fs.writeFileSync(file, 'a'.repeat(BOUND + 1)),
    {ok: false, missing: false, why: `it holds more than ${BOUND} bytes`},
  ],
  [
    'a link to a regular file',
    (file) => {
      fs.writeFileSync(`${file}.real`, 'linked')
      fs.symlinkSync(`${file}.real`, file)
    },
    {ok: true, bytes: Buffer.from('linked')},
  ],
  [
    'a named pipe no one writes',
    (file) => expect(spawnSync('mkfifo', [file]).status).toBe(0),
    {ok: false, missing: false, why: 'it is not a regular file'},
  ],
  [
    'a link to an endless device',
    (file) => fs.symlinkSync('/dev/zero', file),
    {ok: false, missing: false, why: 'it is not a regular file'},
  ],
  ['a folder', (file) => fs.mkdirSync(file), {ok: false, missing: false, why: 'it is not a regular file'}],
  ['nothing', () => {}, {ok: false, missing: true, why: expect.stringMatching(/^ENOENT/)}],
  [
    'a link to nothing',
    (file) => fs.symlinkSync(`${file}.gone`, file),
    {ok: false, missing: true, why: expect.stringMatching(/^ENOENT/)},
  ],
]

describe('readProjectFile', () => {
  it.each(rows)('reads %s as a project file may be read, at once', (_what, make, expected) => {
    const file = path.join(tempProject({}), 'settings.json')
    make(file)
    expect(readProjectFile(file, BOUND)).toEqual(expected)
  })

  // A file that holds more than its size said when it was opened (as a file that grows while it is read): /proc's
  // files say 0 and hold lines. All of it is read, to the bound and not past it.
  it('reads on past the size a file said, to the bound', () => {
    const status = fs.readFileSync('/proc/self/status')
    expect([fs.statSync('/proc/self/status').size, status.length > 100]).toEqual([0, true])
    const read = readProjectFile('/proc/self/status', 64 * 1024)
    expect(read.ok && read.bytes.toString('utf8').split('\n')[0]).toBe(status.toString('utf8').split('\n')[0])
    expect(readProjectFile('/proc/self/status', 100)).toEqual({
      ok: false,
      missing: false,
      why: 'it holds more than 100 bytes',
    })
  })
})

/** Runs the command ARGS in DIR with its own deadline: a command that waits forever is cut there, and says nothing. */
const passepartout = (args: string[], dir: string) =>
  spawnSync(cli, [...args, '--no-frames'], {
    cwd: dir,
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
    timeout: 10_000,
  })

describe('a command given a project file that is a named pipe', () => {
  it('skills ends, saying so at passepartout.json, as of a passepartout.json it refuses', () => {
    const dir = tempProject({
      'org/skills/.keep': '',
      'passepartout.json': '{"skills": 3}',
    })
    const refused = passepartout(['skills'], dir)
    fs.rmSync(path.join(dir, 'passepartout.json'))
    expect(spawnSync('mkfifo', [path.join(dir, 'passepartout.json')]).status).toBe(0)
    const skills = passepartout(['skills'], dir)
    expect(skills.signal, 'skills ended on its own').toBeNull()
    expect(skills.stderr).toMatch(
      /^passepartout\.json: error: passepartout\.json could not be read: it is not a regular file \[io\/read\]$/m,
    )
    expect(skills.status, 'the status of a passepartout.json refused').toBe(refused.status)
  })

  it.each([
    ['an Org document', 'org/pipe.org', /^org\/pipe\.org: error: .*it is not a regular file \[io\/read\]$/m],
    ['its package.json', 'package.json', /^package\.json: error: .*it is not a regular file \[io\/read\]$/m],
  ])('tangle ends, saying so at %s, and tangles the documents', (_what, pipe, said) => {
    const dir = tempProject({'org/notes.org': '#+begin_src text :tangle notes.txt\nhello\n#+end_src\n'})
    fs.rmSync(path.join(dir, pipe), {force: true})
    expect(spawnSync('mkfifo', [path.join(dir, pipe)]).status).toBe(0)
    const tangled = passepartout(['tangle'], dir)
    expect(tangled.signal, 'tangle ended on its own').toBeNull()
    expect(tangled.stderr).toMatch(said)
    expect(tangled.status).toBe(1)
    expect(fs.readFileSync(path.join(dir, 'org', 'notes.txt'), 'utf8')).toBe('hello\n')
  })

  it('check ends, saying the compiler cannot run for a tsconfig.json it cannot read', () => {
    const dir = tempProject({
      'org/notes.org': '#+begin_src typescript :tangle notes.ts\nexport const a = 1\n#+end_src\n',
    })
    expect(spawnSync('mkfifo', [path.join(dir, 'tsconfig.json')]).status).toBe(0)
    const checked = passepartout(['check'], dir)
    expect(checked.signal, 'check ended on its own').toBeNull()
    expect(checked.stderr).toMatch(
      /^tsconfig\.json: error: .*tsconfig\.json: it is not a regular file \[check\/compiler\]$/m,
    )
    expect(checked.status).toBe(1)
  })
  it('check ends, a target of a document being a named pipe, saying tangle cannot write there', () => {
    const dir = tempProject({
      'org/notes.org': '#+begin_src typescript :tangle notes.ts\nexport const a = 1\n#+end_src\n',
    })
    expect(passepartout(['check'], dir).status, 'a first check writes notes.ts').toBe(0)
    fs.rmSync(path.join(dir, 'org', 'notes.ts'))
    expect(spawnSync('mkfifo', [path.join(dir, 'org', 'notes.ts')]).status).toBe(0)
    const checked = passepartout(['check'], dir)
    expect(checked.signal, 'check ended on its own').toBeNull()
    expect(checked.stderr).toMatch(/^org\/notes\.org:1:1: error: .*is a named pipe, not a file.* \[io\/write\]$/m)
    expect(checked.status).toBe(1)
  })

  it('check ends and checks, its own state files being named pipes, as with none', () => {
    const dir = tempProject({
      'org/notes.org': '#+begin_src typescript :tangle notes.ts\nexport const a = 1\n#+end_src\n',
      'node_modules/.cache/passepartout/.keep': '',
    })
    for (const state of ['tangle', 'written', 'check'])
      expect(spawnSync('mkfifo', [path.join(dir, 'node_modules/.cache/passepartout', `${state}.json`)]).status).toBe(0)
    const checked = passepartout(['check'], dir)
    expect(checked.signal, 'check ended on its own').toBeNull()
    expect([checked.status, checked.stderr]).toEqual([0, ''])
    expect(checked.stdout).toMatch(/^checked 1 TypeScript file: 0 errors/m)
  })
})

describe('the configuration the compiler reads', () => {
  it.each([
    ['all regular files', {}, undefined],
    ['a package.json that is a named pipe', {pipe: 'package.json'}, /package\.json: it is not a regular file$/],
    ['a tsconfig.json that is a named pipe', {pipe: 'tsconfig.json'}, /tsconfig\.json: it is not a regular file$/],
    ['a configuration it extends that is a named pipe', {pipe: 'base.json'}, /base\.json: it is not a regular file$/],
  ])('with %s is said unreadable at once, or not at all', (_what, {pipe}: {pipe?: string}, said) => {
    const dir = tempProject({'tsconfig.json': '{"extends": "./base.json"}', 'base.json': '{}'})
    if (pipe) {
      fs.rmSync(path.join(dir, pipe))
      expect(spawnSync('mkfifo', [path.join(dir, pipe)]).status).toBe(0)
    }
    const why = unreadableConfiguration(dir, path.join(dir, 'tsconfig.json'))
    if (said) expect(why).toMatch(said)
    else expect(why).toBeUndefined()
  })

  it('finds no package in a folder whose package.json is a named pipe, at once', () => {
    const dir = tempProject({})
    fs.rmSync(path.join(dir, 'package.json'))
    expect(spawnSync('mkfifo', [path.join(dir, 'package.json')]).status).toBe(0)
    expect(installedPackage(path.join(dir, 'org'), 'zod')).toBeUndefined()
  })
})
