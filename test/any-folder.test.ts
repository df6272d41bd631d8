/**
 * The toolchain on any folder of Org documents, with no package.json, no passepartout.json and no set-up (a
 * literate library, someone's dotfiles), run as a real process on real folders: `tangle`, `check`, `deps`,
 * `fmt` and `watch` work from the folder (named by nothing) and from above it; `check` takes the folder's
 * tsconfig.json; what they remember goes to the user's cache folder, never into the folder beyond its targets,
 * nor into the temporary folder other users share; a folder on a read-only disk is still read and checked.
 */
import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../bin/passepartout')

/** The folders a run's user has: HOME, its cache folder, and a temporary folder of the test's own (TMPDIR). */
function userFolders() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-user-')))
  const folders = {home: path.join(base, 'home'), cache: path.join(base, 'cache'), tmp: path.join(base, 'tmp')}
  for (const folder of Object.values(folders)) fs.mkdirSync(folder)
  return folders
}

type User = ReturnType<typeof userFolders>

function run(args: string[], cwd: string, user: User) {
  const env = {...process.env, HOME: user.home, XDG_CACHE_HOME: user.cache, TMPDIR: user.tmp}
  const result = spawnSync(cli, [...args, '--no-frames'], {cwd, encoding: 'utf8', env})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

/** FILES (relative path → text) written under DIR, folders made as needed; DIR. */
function write(dir: string, files: Record<string, string>): string {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

/** A new folder under a parent of its own (neither holds a package.json, a .git or a passepartout.json). */
function looseFolder(files: Record<string, string>): {parent: string; dir: string} {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-loose-')))
  return {parent, dir: write(path.join(parent, 'lib'), files)}
}

const listed = (dir: string) =>
  (fs.readdirSync(dir, {recursive: true}) as string[])
    .filter((file) => !fs.statSync(path.join(dir, file)).isDirectory())
    .sort()

const block = (target: string, body: string) =>
  `#+begin_src typescript :tangle ${target} :mkdirp yes\n${body}\n#+end_src\n`

/** A literate library: its documents in docs/, nested, writing its code into src/ beside them. */
const LIBRARY = {
  'docs/app.org': `#+TITLE: App\n#+DEPENDS_ON: base\n${block('../src/app.ts', "import {add} from './base.ts'\n\nexport const three: number = add(1, 2)")}`,
  'docs/sub/base.org': `#+TITLE: Base\n${block('../../src/base.ts', 'export function add(a: number, b: number): number {\n  return a + b\n}')}`,
}

describe('a folder of Org documents with no set-up', () => {
  const user = userFolders()
  const {parent, dir} = looseFolder(LIBRARY)
  /** What each command prints, run from the folder with nothing named, then from its parent naming it. */
  const where = [
    {from: 'the folder', cwd: dir, args: [] as string[], prefix: ''},
    {from: 'above it', cwd: parent, args: ['lib'], prefix: 'lib/'},
  ]

  it.each(where)('tangles every document under it, from $from, into the folders they name', ({cwd, args}) => {
    const result = run(['tangle', ...args], cwd, user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^tangled 2 blocks from 2 documents into 2 files \(\d unchanged\) in \d+ ms\n$/)
    expect(result.status).toBe(0)
    expect(fs.readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toContain('add(1, 2)')
  })

  it.each(where)('checks them from $from, with the default compiler options', ({cwd, args}) => {
    const result = run(['check', ...args], cwd, user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^checked 2 TypeScript files: 0 errors, 0 warnings in \d+ ms$/m)
    expect(result.status).toBe(0)
  })

  it.each(where)('gives their load order from $from', ({cwd, args, prefix}) => {
    const result = run(['deps', ...args], cwd, user)
    expect(result.stdout).toBe(`${prefix}docs/sub/base.org\n${prefix}docs/app.org\n`)
    expect(result.status).toBe(0)
  })

  it.each([
    {from: 'the folder: its documents, not the code they write', cwd: dir, args: [] as string[], files: 2},
    {from: 'above it: the folder named, code and all', cwd: parent, args: ['lib'], files: 4},
  ])('formats from $from', ({cwd, args, files}) => {
    const result = run(['fmt', '--check', ...args], cwd, user)
    expect(result.stdout).toMatch(new RegExp(`^would reformat 0 of ${files} files \\(0 of 2 blocks\\) in \\d+ ms\n$`))
    expect(result.status).toBe(0)
  })

  it("leaves in the folder only what its documents write, and its memory in the user's cache folder", () => {
    expect(listed(dir)).toEqual(['docs/app.org', 'docs/sub/base.org', 'src/app.ts', 'src/base.ts'])
    expect(listed(parent)).toEqual(listed(dir).map((file) => path.join('lib', file)))
    expect(fs.readdirSync(path.join(user.cache, 'passepartout')).length).toBeGreaterThan(0)
    // Nothing in the temporary folder, which other users share.
    expect(listed(user.tmp)).toEqual([])
  })

  it('refuses, as before, a target outside the folder the command works on', () => {
    const {dir: outside} = looseFolder({'docs/out.org': block('../../elsewhere.ts', 'export const x = 1')})
    const result = run(['tangle'], outside, user)
    expect(result.stderr).toMatch(/^docs\/out\.org:1:1: error: .* outside .*\/lib \[tangle\/outside-root\]$/m)
    expect(result.status).toBe(1)
    // A document named alone is held to its own folder.
    expect(run(['tangle', 'docs/out.org'], outside, user).stderr).toMatch(
      /outside .*\/lib\/docs \[tangle\/outside-root\]$/m,
    )
  })
})

describe("a folder of literate dotfiles that import Node's modules", () => {
  const user = userFolders()
  const {dir} = looseFolder({
    'shell.org': `* Shell\n${block('shell.ts', "import fs from 'node:fs'\n\nexport const rc: boolean = fs.existsSync('.bashrc')")}`,
  })

  it("is checked with the installation's Node types, as a project without a tsconfig.json is", () => {
    const result = run(['check'], dir, user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^checked 1 TypeScript file: 0 errors/m)
    expect(result.status).toBe(0)
  })
})

describe("a folder's own tsconfig.json", () => {
  const user = userFolders()
  const config = {
    compilerOptions: {
      strict: false,
      noUnusedLocals: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      allowImportingTsExtensions: true,
      noEmit: true,
    },
  }
  const {parent, dir} = looseFolder({
    'tsconfig.json': JSON.stringify(config),
    'sum.org': `* Sum\n${block('sum.ts', 'export function add(a, b) {\n  const unused = 1\n  return a + b\n}')}`,
    'parts/twice.org': block('twice.ts', 'export function twice(x) {\n  return x * 2\n}'),
  })

  it.each([
    {from: 'the folder', cwd: dir, args: [] as string[], shown: 'sum.org'},
    {from: 'above it', cwd: parent, args: ['lib'], shown: 'lib/sum.org'},
    {from: 'above it, a document named', cwd: parent, args: ['lib/sum.org'], shown: 'lib/sum.org'},
  ])('checks with its options, from $from', ({cwd, args, shown}) => {
    const result = run(['check', ...args], cwd, user)
    // Not strict (no TS7006 for the untyped parameters), and unused locals are errors: its options, not the defaults.
    expect(result.stderr).toBe(`${shown}:4:9: error TS6133: 'unused' is declared but its value is never read. [ts]\n`)
    expect(result.status).toBe(1)
  })

  it('is the nearest above a folder under it', () => {
    // twice's untyped parameter is no error under its options.
    const result = run(['check'], path.join(dir, 'parts'), user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^checked 1 TypeScript file: 0 errors/m)
    expect(result.status).toBe(0)
  })
})

describe("someone's dotfiles in a git repository", () => {
  const user = userFolders()
  const repository = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-dotfiles-')))
  spawnSync('git', ['init', '-q', repository])
  write(repository, {
    'shell.org': "#+begin_src sh :tangle ~/.bashrc\nalias ll='ls -l'\n#+end_src\n",
    'emacs/init.org':
      '#+PROPERTY: header-args :tangle ~/.emacs.d/init.el :mkdirp yes\n#+begin_src emacs-lisp\n(setq inhibit-startup-screen t)\n#+end_src\n',
  })

  it('tangles every document of the repository, from a folder of it, where it is allowed to write', () => {
    const result = run(['tangle', '--allow-outside=~'], path.join(repository, 'emacs'), user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^tangled 2 blocks from 2 documents into 2 files/)
    expect(fs.readFileSync(path.join(user.home, '.bashrc'), 'utf8')).toBe("alias ll='ls -l'\n")
    expect(fs.readFileSync(path.join(user.home, '.emacs.d/init.el'), 'utf8')).toBe('(setq inhibit-startup-screen t)\n')
    expect(run(['deps'], repository, user).stdout).toBe('emacs/init.org\nshell.org\n')
  })
})

describe('the temporary folder other users share', () => {
  it("holds no journal of this user's runs, and one left there by another is not acted on", () => {
    const user = userFolders()
    const {dir} = looseFolder({'a.org': block('a.ts', 'export const a = 1')})
    const precious = write(dir, {'precious.txt': 'mine\n'}) && path.join(dir, 'precious.txt')
    // What another user could leave in a shared /tmp: a journal of a run "killed while renaming" its file over ours.
    const planted = path.join(user.tmp, 'planted')
    fs.writeFileSync(planted, 'theirs\n')
    const journal = [
      {pid: 2 ** 22 + 1},
      {stage: {document: path.join(dir, 'a.org'), entries: [{target: precious, temporary: planted, backup: null}]}},
      {renaming: true},
    ]
    write(user.tmp, {'passepartout-journal/1-0.jsonl': `${journal.map((line) => JSON.stringify(line)).join('\n')}\n`})
    const result = run(['tangle'], dir, user)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(fs.readFileSync(precious, 'utf8')).toBe('mine\n')
    expect(listed(user.tmp)).toEqual(['passepartout-journal/1-0.jsonl', 'planted'])
  })
})

/**
 * DIR made read-only for the processes this test starts: a read-only bind mount of it when the test runs as
 * root (whom permissions do not stop), its write permissions taken away otherwise. Undone after the file.
 */
const undo: (() => void)[] = []
afterAll(() => undo.splice(0).forEach((step) => step()))
function readOnly(dir: string): void {
  if (process.getuid?.() === 0) {
    for (const args of [
      ['--bind', dir, dir],
      ['-o', 'remount,ro,bind', dir],
    ]) {
      const mounted = spawnSync('mount', args, {encoding: 'utf8'})
      if (mounted.status !== 0) throw new Error(`mount ${args.join(' ')}: ${mounted.stderr}`)
    }
    undo.push(() => spawnSync('umount', [dir]))
  } else {
    spawnSync('chmod', ['-R', 'a-w', dir])
    undo.push(() => spawnSync('chmod', ['-R', 'u+w', dir]))
  }
}

describe('a folder on a read-only disk', () => {
  it('is tangled (nothing changed), checked, ordered and format-checked', () => {
    const user = userFolders()
    const {dir} = looseFolder(LIBRARY)
    expect(run(['tangle'], dir, user).status).toBe(0)
    readOnly(dir)
    expect(() => fs.writeFileSync(path.join(dir, 'x'), '')).toThrow()
    for (const command of [['tangle'], ['check'], ['deps'], ['fmt', '--check']]) {
      const result = run(command, dir, user)
      expect(result.stderr, command.join(' ')).toBe('')
      expect(result.status, command.join(' ')).toBe(0)
    }
  })

  it("is checked when it is an npm project whose cache cannot be written, the compiler's files kept elsewhere", () => {
    const user = userFolders()
    // Node's types, as its tsconfig.json names them: found from the project, where the compiler's files are not.
    const config = {compilerOptions: {types: ['node'], strict: true, module: 'ESNext', moduleResolution: 'Bundler'}}
    const code = 'export const home: string | undefined = process.env.HOME'
    const {dir} = looseFolder({
      'package.json': '{}',
      'tsconfig.json': JSON.stringify(config),
      'org/home.org': block('home.ts', code),
    })
    fs.mkdirSync(path.join(dir, 'node_modules/@types'), {recursive: true})
    fs.symlinkSync(
      path.resolve(import.meta.dirname, '../node_modules/@types/node'),
      path.join(dir, 'node_modules/@types/node'),
    )
    // Tangled, not checked: no clean answer is remembered (check-memory.ts), so the compiler runs after.
    expect(run(['tangle'], dir, user).status).toBe(0)
    readOnly(dir)
    const result = run(['check'], dir, user)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^checked 1 TypeScript file: 0 errors, 0 warnings/m)
    expect(result.status).toBe(0)
  })
})

describe('watch', () => {
  it.each([
    {from: 'the folder, named by nothing', inParent: false, args: [] as string[], shown: '.'},
    {from: 'above it', inParent: true, args: ['lib'], shown: 'lib'},
  ])('watches from $from, and tangles and checks each save', async ({inParent, args, shown}) => {
    const user = userFolders()
    const {parent, dir} = looseFolder(LIBRARY)
    const env = {...process.env, HOME: user.home, XDG_CACHE_HOME: user.cache, TMPDIR: user.tmp}
    // Without the warm-up of its checker (seconds of CPU): the first save builds the program as it comes.
    const child = spawn(cli, ['watch', '--no-frames', ...args], {
      cwd: inParent ? parent : dir,
      env: {...env, PASSEPARTOUT_WARM_UP: '0'},
    })
    let said = ''
    let exited: number | null | undefined
    child.stdout.on('data', (data) => (said += data))
    child.stderr.on('data', (data) => (said += data))
    const exit = new Promise((resolve) => child.on('exit', (status) => resolve((exited = status))))
    const until = async (condition: () => boolean, what: string) => {
      for (let waited = 0; !condition(); waited += 20) {
        if (exited !== undefined) throw new Error(`watch exited (${exited}) before ${what}:\n${said}`)
        // A deadline for a machine loaded by other work; only a test that fails waits it out.
        if (waited > 60_000) throw new Error(`${what}: nothing within 60 s:\n${said}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    try {
      await until(() => said.includes(`watching ${shown} for changes`), 'its first check')
      expect(said).toMatch(/^checked 2 TypeScript files: 0 errors/m)
      const arrow = 'export const add = (a: number, b: number): number => a + b'
      write(dir, {'docs/sub/base.org': block('../../src/base.ts', arrow)})
      await until(() => fs.readFileSync(path.join(dir, 'src/base.ts'), 'utf8').includes('=>'), 'the save tangled')
      await until(() => /^checked \d TypeScript files?: 0 errors/m.test(said.split('changed\n')[1] ?? ''), 'its check')
    } finally {
      child.kill('SIGTERM')
      await exit
    }
  })
})
