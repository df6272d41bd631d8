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
import {initProject} from '../../tools/cli/init-command.ts'
import {formatDetails, formatDiagnostic} from '../../tools/diagnostics.ts'

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
/** Every file under DIR with what it holds (a link: where it points), for a folder that must be left as it was. */
const contents = (dir: string) =>
  Object.fromEntries(
    (fs.readdirSync(dir, {recursive: true, encoding: 'utf8'}) as string[]).sort().map((file) => {
      const stat = fs.lstatSync(path.join(dir, file))
      if (stat.isSymbolicLink()) return [file, `-> ${fs.readlinkSync(path.join(dir, file))}`]
      return [file, stat.isDirectory() ? '/' : fs.readFileSync(path.join(dir, file), 'utf8')]
    }),
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

  it('named by a link to a folder is the folder it names: the project is written there, the link kept', () => {
    const cwd = temporary()
    fs.mkdirSync(path.join(cwd, 'real'))
    fs.symlinkSync('real', path.join(cwd, 'link'))
    expect(passepartout(['init', 'link'], cwd).status).toBe(0)
    expect(fs.lstatSync(path.join(cwd, 'link')).isSymbolicLink()).toBe(true)
    expect(fs.readdirSync(path.join(cwd, 'real')).sort()).toEqual([
      '.env.example',
      '.gitignore',
      'README.md',
      'org',
      'package.json',
      'passepartout.json',
    ])
  })

  it('that has a link where a file goes, even a link to nothing, keeps it: init writes over nothing', () => {
    const dir = temporary()
    fs.writeFileSync(path.join(dir, 'notes.org'), '#+TITLE: Notes\n')
    fs.symlinkSync('nowhere', path.join(dir, 'README.md'))
    const result = passepartout(['init'], dir)
    expect(result.stdout.split('\n')[1]).toBe('kept what it had: README.md')
    expect(fs.readlinkSync(path.join(dir, 'README.md'))).toBe('nowhere')
    expect(fs.existsSync(path.join(dir, 'nowhere'))).toBe(false)
  })

  it('that holds nothing but .git is empty: it gets every file', () => {
    const dir = temporary()
    fs.mkdirSync(path.join(dir, '.git'))
    expect(passepartout(['init'], dir).status).toBe(0)
    expect(FILES.every((file) => fs.existsSync(path.join(dir, file)))).toBe(true)
  })
})

/** Whether strace can stop a process here at a system call of its choosing: a kill at the Nth rename. */
const straced = spawnSync('strace', ['-o', '/dev/null', 'true']).status === 0

/** `passepartout ARGS` in CWD, killed (SIGKILL) as it enters its Nth rename, as a power cut would stop it. */
function killedAtRename(n: number, args: string[], cwd: string) {
  const renames = 'rename,renameat,renameat2'
  const inject = ['-e', `trace=${renames}`, '-e', `inject=${renames}:signal=SIGKILL:when=${n}`]
  return spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', ...inject, cli, ...args], {cwd, env: environment})
}

/** What a killed init left that no later one cleared: its folders of staged files. */
const staged = (dir: string) => fs.readdirSync(dir).filter((entry) => entry.startsWith('.passepartout-init-'))

describe.skipIf(!straced)('an init killed as it writes', () => {
  it.each([1, 2, 4])('into an empty folder at its rename %i leaves what the next init makes whole', (n) => {
    const dir = temporary()
    expect(killedAtRename(n, ['init'], dir).signal).toBe('SIGKILL')
    const again = passepartout(['init'], dir)
    expect(again.status).toBe(0)
    expect(FILES.filter((file) => !fs.existsSync(path.join(dir, file)))).toEqual([])
    expect(staged(dir)).toEqual([])
  })

  it('into a new folder leaves nothing the next init does not clear', () => {
    const parent = temporary()
    expect(killedAtRename(1, ['init', 'demo'], parent).signal).toBe('SIGKILL')
    expect(passepartout(['init', 'demo'], parent).status).toBe(0)
    expect(fs.readdirSync(parent)).toEqual(['demo'])
  })
})

/** A folder a process of another user may not write: this one's, when it runs as root. */
const asAnother = process.getuid?.() === 0 ? {uid: 65534, gid: 65534} : undefined

/** Whether a mount namespace of its own can be made here, with a read-only file system in it. */
const readOnlyDisks = spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0

describe('bad input: one line, an exit status, nothing written', () => {
  const long = (bytes: number) => 'n'.repeat(bytes)
  /** A working folder of what the refusals name: notes, a link to nothing, Org documents whose org/ is a link. */
  const refusing = () => {
    const cwd = temporary()
    fs.mkdirSync(path.join(cwd, 'full'))
    fs.writeFileSync(path.join(cwd, 'full/notes.txt'), 'mine\n')
    fs.symlinkSync(path.join(cwd, 'nowhere'), path.join(cwd, 'dangling'))
    fs.mkdirSync(path.join(cwd, 'linked'))
    fs.mkdirSync(path.join(cwd, 'elsewhere'))
    fs.writeFileSync(path.join(cwd, 'linked/notes.org'), '#+TITLE: Notes\n')
    fs.symlinkSync('../elsewhere', path.join(cwd, 'linked/org'))
    return cwd
  }
  const REFUSED: [string, string, RegExp][] = [
    [
      'a folder that is not empty and holds no Org document',
      'full',
      /^full: error: no project was written: the folder is not empty \(notes\.txt\) and holds no Org document; name a new folder, or an empty one \[init\/refused\]$/,
    ],
    ['a file', 'full/notes.txt', /^full\/notes\.txt: error: .*this is a file, not a folder \[init\/refused\]$/],
    [
      'a path through a file',
      'full/notes.txt/demo',
      /^full\/notes\.txt\/demo: error: no project was written: .*full\/notes\.txt, which would hold it, is a file, not a folder \[init\/refused\]$/,
    ],
    [
      'a link to nothing',
      'dangling',
      /^dangling: error: no project was written: this is a link to .*nowhere, which does not exist \[init\/refused\]$/,
    ],
    [
      'a folder of Org documents whose org/ is a link elsewhere',
      'linked',
      /^linked: error: no project was written: org is a link \(to \.\.\/elsewhere\); init writes nothing through a link \[init\/refused\]$/,
    ],
    ['an empty name', '', /^\/.*: error: no project was written: an empty name names no folder \[init\/refused\]$/],
    [
      'a name of blanks',
      '  ',
      /^\/.*: error: no project was written: "  " is blanks alone, which name no folder one can see \[init\/refused\]$/,
    ],
    [
      'a name with a line break',
      'a\nb',
      /^\/.*: error: no project was written: "a\\nb" holds a control character.*\[init\/refused\]$/,
    ],
    [
      'a name of 256 bytes',
      long(256),
      /: error: no project was written: a name of the path is 256 bytes long; the file system takes 255 \[init\/refused\]$/,
    ],
    [
      'a folder whose folder does not exist',
      'missing/demo',
      /^missing\/demo: error: no project was written: the folder .*missing that would hold it does not exist \[init\/refused\]$/,
    ],
  ]

  // What the command prints of a refusal is what initProject says, as printDiagnostics prints it: the table asks
  // initProject; the first row and the parser's refusal (exit status 2) run as the command.
  it.each(REFUSED)('%s', (_, name, line) => {
    const cwd = refusing()
    const before = contents(cwd)
    const result = initProject(name, path.resolve(cwd, name))
    const refused = 'refused' in result ? result.refused : undefined
    const printed = refused ? [formatDiagnostic(refused, cwd), ...formatDetails(refused)] : []
    expect(printed[0]).toMatch(line)
    expect(printed).toHaveLength(1)
    expect(contents(cwd)).toEqual(before)
  })

  it.each([
    [...REFUSED[0]!, 1] as const,
    ['two folders', ['one', 'two'], /^passepartout init: one folder is expected, not 2$/, 2] as const,
  ])('%s, said by the command', (_, name, line, status) => {
    const cwd = refusing()
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

  it.skipIf(!asAnother).each([
    [
      'it may not read',
      'locked',
      /^locked: error: no project was written: EACCES: permission denied, scandir .*\[io\/read\]\n$/,
    ],
    [
      'it may not enter',
      'locked/demo',
      /^locked\/demo: error: no project was written: EACCES: permission denied, .*\[io\/read\]\n$/,
    ],
  ])('a folder %s', (_, name, line) => {
    const cwd = temporary()
    fs.chmodSync(cwd, 0o755)
    fs.mkdirSync(path.join(cwd, 'locked'), {mode: 0o700})
    const result = passepartout(['init', name], cwd, asAnother)
    expect(result.stderr).toMatch(line)
    expect(result.status).toBe(1)
    expect(fs.readdirSync(path.join(cwd, 'locked'))).toEqual([])
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
