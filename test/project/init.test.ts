/**
 * `passepartout init`, run as a real process on real folders: the project it writes checks and passes its own
 * tests as written; it never writes over anything, adds to a folder of Org documents only what it lacks, and
 * refuses what it cannot do in one line with an exit status, nothing left half-written.
 */
import {spawnSync, type SpawnSyncOptions} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
const version = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).version

/** This process's environment without what vitest tells its own workers: `test` runs a vitest of its own. */
const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))

function passepartout(args: string[], cwd: string, options: SpawnSyncOptions = {}) {
  const result = spawnSync(
    cli,
    [...args, '--no-frames'].filter((arg) => !(args[0] === 'init' && arg === '--no-frames')),
    {
      cwd,
      encoding: 'utf8',
      env: {...environment, NO_COLOR: '1'},
      ...options,
    },
  )
  return {status: result.status, stdout: String(result.stdout), stderr: String(result.stderr)}
}

const temporary = () => fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-init-'))
/** Every file under DIR with what it holds, for a folder that must be left as it was. */
const contents = (dir: string) =>
  Object.fromEntries(
    (fs.readdirSync(dir, {recursive: true, encoding: 'utf8'}) as string[])
      .sort()
      .map((file) => [
        file,
        fs.statSync(path.join(dir, file)).isDirectory() ? '/' : fs.readFileSync(path.join(dir, file), 'utf8'),
      ]),
  )

const FILES = ['org/skills/hello.org', 'passepartout.json', '.env.example', '.gitignore', 'package.json', 'README.md']

describe('a new project', () => {
  const parent = temporary()
  const made = passepartout(['init', 'demo'], parent)
  const dir = path.join(parent, 'demo')

  it('is written whole, and says what and what next', () => {
    expect(made.stderr).toBe('')
    expect(made.stdout).toBe(
      `wrote a project in demo: ${FILES.join(', ')}\nnext: cd demo, then passepartout test (its tests), passepartout run (its core)\n`,
    )
    expect(made.status).toBe(0)
    expect(fs.readdirSync(parent)).toEqual(['demo'])
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))).toEqual({
      name: 'demo',
      private: true,
      type: 'module',
      scripts: {start: 'passepartout run', test: 'passepartout test'},
      dependencies: {passepartout: `^${version}`},
    })
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(10)
  })

  it('boots, its settings read without a problem, the shipped skills beside its own', () => {
    const {SHIPPED_SKILLS: _, ...shell} = environment
    const booted = passepartout(['skills'], dir, {env: {...shell, NO_COLOR: '1'}})
    expect(booted.stderr).toBe('')
    expect(booted.stdout).toMatch(/^hello +project +ready/m)
    expect(booted.stdout).toMatch(/^skills: 5 ready/m)
    expect(booted.status).toBe(0)
  })

  it('checks, and its example skill passes its tests as written', () => {
    const checked = passepartout(['check'], dir)
    expect(checked.stderr).toBe('')
    const tested = passepartout(['test'], dir)
    expect(tested.stdout).toMatch(/Tests +2 passed \(2\)/)
    expect(tested.status).toBe(0)
  })

  it('is not written again: a second init writes nothing and changes nothing', () => {
    const before = contents(dir)
    const again = passepartout(['init'], dir)
    expect(again).toMatchObject({status: 0, stdout: '. has every file of a project already: nothing was written\n'})
    expect(contents(dir)).toEqual(before)
  })
})

describe('a folder that is not a project yet', () => {
  it('that holds Org documents gets only what it lacks, and is told what it kept', () => {
    const dir = temporary()
    fs.mkdirSync(path.join(dir, 'org/skills'), {recursive: true})
    fs.writeFileSync(path.join(dir, 'org/skills/mine.org'), '#+TITLE: Mine\n')
    fs.writeFileSync(path.join(dir, 'README.md'), 'my notes\n')
    const result = passepartout(['init'], dir)
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      'wrote to . what a project lacked: passepartout.json, .env.example, .gitignore, package.json',
      'kept what it had: org/skills/hello.org, README.md',
    ])
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('my notes\n')
    expect(fs.readdirSync(path.join(dir, 'org/skills'))).toEqual(['mine.org'])
    expect(fs.readdirSync(dir).filter((entry) => entry.includes('init'))).toEqual([])
  })

  it('that holds nothing but .git is empty: it gets every file', () => {
    const dir = temporary()
    fs.mkdirSync(path.join(dir, '.git'))
    expect(passepartout(['init'], dir).status).toBe(0)
    expect(FILES.every((file) => fs.existsSync(path.join(dir, file)))).toBe(true)
  })
})

/** A folder a process of another user may not write: this one's, when it runs as root. */
const asAnother = process.getuid?.() === 0 ? {uid: 65534, gid: 65534} : undefined

/** Whether a mount namespace of its own can be made here, with a read-only file system in it. */
const readOnlyDisks = spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0

describe('bad input: one line, an exit status, nothing written', () => {
  const long = (bytes: number) => 'n'.repeat(bytes)
  it.each([
    [
      'a folder that is not empty and holds no Org document',
      'full',
      /^full: error: no project was written: the folder is not empty \(notes\.txt\) and holds no Org document; name a new folder, or an empty one \[init\/refused\]$/,
      1,
    ],
    ['a file', 'full/notes.txt', /^full\/notes\.txt: error: .*this is a file, not a folder \[init\/refused\]$/, 1],
    ['an empty name', '', /^\/.*: error: no project was written: an empty name names no folder \[init\/refused\]$/, 1],
    [
      'a name with a line break',
      'a\nb',
      /^\/.*: error: no project was written: "a\\nb" holds a control character.*\[init\/refused\]$/,
      1,
    ],
    [
      'a name of 256 bytes',
      long(256),
      /: error: no project was written: a name of the path is 256 bytes long; the file system takes 255 \[init\/refused\]$/,
      1,
    ],
    [
      'a folder whose folder does not exist',
      'missing/demo',
      /^missing\/demo: error: no project was written: the folder .*missing that would hold it does not exist \[init\/refused\]$/,
      1,
    ],
    ['two folders', ['one', 'two'], /^passepartout init: one folder is expected, not 2$/, 2],
  ])('%s', (_, name, line, status) => {
    const cwd = temporary()
    fs.mkdirSync(path.join(cwd, 'full'))
    fs.writeFileSync(path.join(cwd, 'full/notes.txt'), 'mine\n')
    const before = contents(cwd)
    const result = passepartout(['init', ...[name].flat()], cwd)
    expect(result.stderr.split('\n')[0]).toMatch(line)
    if (status === 1) expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.status).toBe(status)
    expect(contents(cwd)).toEqual(before)
  })

  it('a name of 255 bytes, as long as a name may be, is a folder', () => {
    const cwd = temporary()
    expect(passepartout(['init', long(255)], cwd).status).toBe(0)
    expect(fs.readdirSync(cwd)).toEqual([long(255)])
  })

  it.skipIf(!asAnother)('a folder it may not write', () => {
    const cwd = temporary()
    fs.chmodSync(cwd, 0o755)
    const result = passepartout(['init', 'demo'], cwd, asAnother)
    expect(result.stderr).toMatch(
      /^demo: error: no project was written: EACCES: permission denied, mkdir .*\[io\/write\]\n$/,
    )
    expect(result.status).toBe(1)
    expect(fs.readdirSync(cwd)).toEqual([])
  })

  it.skipIf(!readOnlyDisks)('a read-only disk', () => {
    const disk = temporary()
    const script = `mount -t tmpfs -o ro tmpfs "$1" && cd "$1" && exec "$2" init demo`
    const result = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', disk, cli], {
      encoding: 'utf8',
      env: environment,
    })
    expect(result.stderr).toMatch(
      /^demo: error: no project was written: EROFS: read-only file system, mkdir .*\[io\/write\]\n$/,
    )
    expect(result.status).toBe(1)
  })
})
