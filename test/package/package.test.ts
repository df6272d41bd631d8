/**
 * The package as a person installs it: this repository packed once (what `make pack` runs), the tarball installed
 * with npm into a prefix of its own under a HOME of its own, and the installed `passepartout` run on folders
 * outside this repository: a plain folder of Org documents, a project with skills of its own, a project with a
 * second installation of its own. The installation is mounted read-only for every command where this machine lets
 * a test do so (a mount namespace of its own), and a last test holds that no command wrote a byte into it.
 *
 * npm takes the dependencies from the npm registry through a cache of this repository's own
 * (node_modules/.cache/passepartout/npm, kept between runs, read first: `--prefer-offline`); the first run on a
 * machine downloads them. The tarball's size and the installs' times are printed.
 */
import {type ChildProcessWithoutNullStreams, spawn, spawnSync, type SpawnSyncReturns} from 'node:child_process'
import {once} from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const repo = path.resolve(import.meta.dirname, '..', '..')
const version = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {version: string}).version
const npmCache = path.join(repo, 'node_modules', '.cache', 'passepartout', 'npm')

let temporary: string
let prefix: string
let installation: string
let env: NodeJS.ProcessEnv
/** The installation's files as they were once installed: path → size and time of the last change. */
let installed: Map<string, string>
/** Whether each command runs with the installation mounted read-only (a mount namespace: `unshare -m`). */
let readOnly: boolean

/** An install's time limit: npm downloads the dependencies on a machine's first run (12 s here), and unpacks 190 MB. */
const INSTALLS_MS = 600_000

beforeAll(() => {
  temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-package-')))
  prefix = path.join(temporary, 'prefix')
  env = npmEnvironment(temporary)
  // What `make pack` runs once it has tangled and checked, here into a folder named from where npm then runs.
  const pack = [path.join(repo, 'bin/launch.mjs'), 'tools/pack/main.ts', 'pack']
  const packed = timed(() => spawnSync(process.execPath, pack, {cwd: temporary, encoding: 'utf8', env}))
  expect(packed.result.stderr).toBe('')
  expect(packed.result.status).toBe(0)
  // The tarball as it says it, which is how npm install is given it.
  const said = /^packed (\S+): \d+\.\d MB \(\d+ files, \d+\.\d MB unpacked\)$/m.exec(packed.result.stdout)?.[1]
  expect(said).toBe(`./pack/passepartout-${version}.tgz`)
  const tarball = path.join(temporary, said!)
  const install = timed(() => npm(['install', '--global', '--prefix', prefix, said!], temporary))
  expect(install.result.status, install.result.stderr).toBe(0)
  installation = path.join(prefix, 'lib', 'node_modules', 'passepartout')
  installed = snapshot(installation)
  readOnly = mountsReadOnly(installation)
  const megabytes = (fs.statSync(tarball).size / 1e6).toFixed(1)
  console.log(
    `package: ${megabytes} MB tarball (packed in ${packed.seconds} s); npm install --global: ${install.seconds} s;` +
      ` the installation is ${readOnly ? '' : 'not '}mounted read-only for the commands`,
  )
}, INSTALLS_MS)

afterAll(() => {
  if (temporary) fs.rmSync(temporary, {recursive: true, force: true})
})

/** A second's tenth, as a figure to print. */
function timed<T>(work: () => T): {result: T; seconds: string} {
  const started = performance.now()
  const result = work()
  return {result, seconds: ((performance.now() - started) / 1000).toFixed(1)}
}

/**
 * The environment of npm and of the installed commands: a HOME of their own (no user's .npmrc, no user's caches),
 * the installation's bin/ first on PATH, and none of the npm_* variables that an `npm test` above this run sets.
 */
function npmEnvironment(folder: string): NodeJS.ProcessEnv {
  const home = path.join(folder, 'home')
  fs.mkdirSync(home)
  const kept = Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_'))
  return {
    ...Object.fromEntries(kept),
    HOME: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
    PATH: `${path.join(folder, 'prefix', 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
    PASSEPARTOUT_HOME: undefined,
  }
}

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']
  return spawnSync('npm', [...args, ...flags], {cwd, env, encoding: 'utf8'})
}

/** The installed `passepartout` (the global one, from PATH) run with ARGS in CWD. */
function passepartout(args: string[], cwd: string): SpawnSyncReturns<string> {
  const [program, ...rest] = commandLine(args)
  return spawnSync(program!, rest, {cwd, env, encoding: 'utf8'})
}

/** The installed `passepartout` started with ARGS in CWD (what PATH finds), as a process of its own. */
function passepartoutProcess(args: string[], cwd: string): ChildProcessWithoutNullStreams {
  const [program, ...rest] = commandLine(args)
  return spawn(program!, rest, {cwd, env})
}

/** The command line of the installed `passepartout` on ARGS: in a mount namespace holding the installation read-only, where one can. */
function commandLine(args: string[]): string[] {
  const command = path.join(prefix, 'bin', 'passepartout')
  if (!readOnly) return [command, ...args]
  const script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
  return ['unshare', '-m', 'sh', '-c', script, 'sh', installation, command, ...args]
}

/** Resolves once CONDITION holds; rejects after MS with what WHY says. */
async function until(condition: () => boolean, ms: number, why: () => string): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(why())
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Whether a mount namespace of this process's own can hold FOLDER read-only (root in a container may, a user
 * may not): a write under it is then refused by the kernel, also to root.
 */
function mountsReadOnly(folder: string): boolean {
  const script = 'mount --bind -o ro "$1" "$1" && ! touch "$1/.written" 2>/dev/null'
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', folder], {encoding: 'utf8'})
  return probe.status === 0 && !fs.existsSync(path.join(folder, '.written'))
}

/** Every file and folder under FOLDER (links not followed), with its size and the time it last changed. */
function snapshot(folder: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of fs.readdirSync(folder, {recursive: true, withFileTypes: true})) {
    const file = path.join(entry.parentPath, entry.name)
    const stat = fs.lstatSync(file)
    found.set(path.relative(folder, file), `${stat.size} ${stat.mtimeMs} ${stat.ctimeMs}`)
  }
  return found
}

/** FILES (relative path → text) written under FOLDER, made first. */
function writeFiles(folder: string, files: Record<string, string>): string {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), {recursive: true})
    fs.writeFileSync(path.join(folder, file), text)
  }
  return folder
}

let localMade: string | undefined

/** A project with an installation of its own (the tarball installed in it by npm), made once for the tests that need it. */
function localProject(): string {
  if (localMade) return localMade
  const project = writeFiles(path.join(temporary, 'local'), {
    'package.json': JSON.stringify({name: 'local', private: true}),
  })
  const install = timed(() => npm(['install', path.join(temporary, 'pack', `passepartout-${version}.tgz`)], project))
  expect(install.result.status, install.result.stderr).toBe(0)
  console.log(`package: npm install in a project: ${install.seconds} s`)
  localMade = project
  return project
}

const block = (target: string, code: string) => `#+begin_src typescript :tangle ${target}\n${code}\n#+end_src\n`

describe('the installed package', () => {
  it('says its version and which installation answers', () => {
    const result = passepartout(['--version'], temporary)
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe(`passepartout ${version} from ${installation}\n`)
  })

  it('holds what runs, built, and none of the sources or tests it was built from', () => {
    const files = [...installed.keys()].filter((file) => !file.startsWith(`node_modules${path.sep}`))
    for (const absent of ['org/core', 'tools', 'test', 'bench', 'generated/core'])
      expect(fs.existsSync(path.join(installation, absent)), absent).toBe(false)
    expect(files.filter((file) => /\.test\.ts$|-tests\.el$/.test(file))).toEqual([])
    for (const present of ['dist/tools__cli__main/main.mjs', 'types/passepartout.d.ts', 'types/testing.d.ts'])
      expect(files, present).toContain(present)
    for (const skill of ['policy', 'bouncer', 'shell-guard', 'scribe']) {
      expect(files).toContain(`org/skills/${skill}.org`)
      expect(files).toContain(`generated/skills/${skill}.ts`)
    }
    expect(files).toContain('generated/emacs/passepartout.el')
  })

  it('tangles and checks a plain folder of Org documents, outside any project', () => {
    const notes = writeFiles(path.join(temporary, 'notes'), {
      'lib.org': `* Twice\n${block('lib.ts', 'export const twice = (n: number): number => n * 2')}`,
      'use.org': `* Use\n${block('use.ts', "import {twice} from './lib.ts'\n\nexport const four: number = twice(2)")}`,
    })
    const tangled = passepartout(['tangle', '.'], notes)
    expect(tangled.stderr).toBe('')
    expect(tangled.status).toBe(0)
    expect(fs.readFileSync(path.join(notes, 'lib.ts'), 'utf8')).toBe(
      'export const twice = (n: number): number => n * 2\n',
    )
    expect(passepartout(['check', '.'], notes)).toMatchObject({status: 0, stderr: ''})
    // The type check is a real one: a wrong type is found at its Org line.
    fs.writeFileSync(path.join(notes, 'wrong.org'), `* Wrong\n${block('wrong.ts', "export const n: number = 'two'")}`)
    const wrong = passepartout(['check', '.'], notes)
    expect(wrong.status).toBe(1)
    expect(wrong.stderr).toMatch(/^wrong\.org:3:14: error TS2322: /m)
  })

  it('runs a core once in a project of its own, on the shipped skills and one of the project', () => {
    const project = writeFiles(path.join(temporary, 'project'), {
      'package.json': JSON.stringify({name: 'project', private: true}),
      'org/skills/greet.org': [
        '#+TITLE: Greet: a skill of this project',
        '* Implementation',
        block(
          '../../generated/skills/greet.ts :mkdirp yes',
          "import {defineSkill} from 'passepartout'\n\n" +
            "defineSkill({name: 'greet', trigger: ({signal}) => /hello/.test(signal.text ?? ''), prompt: () => 'Greet back.'})",
        ),
      ].join('\n'),
    })
    // The shipped skills are copied in, and `passepartout` (`npm link passepartout`) and the vitest their tests
    // import are the installation's linked in, until a project gets all three from the installation it runs on.
    for (const skill of ['policy', 'bouncer'])
      fs.copyFileSync(
        path.join(installation, 'org/skills', `${skill}.org`),
        path.join(project, 'org/skills', `${skill}.org`),
      )
    fs.mkdirSync(path.join(project, 'node_modules'))
    fs.symlinkSync(installation, path.join(project, 'node_modules', 'passepartout'))
    fs.symlinkSync(path.join(installation, 'node_modules', 'vitest'), path.join(project, 'node_modules', 'vitest'))
    const result = passepartout(['run', '--once'], project)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`passepartout ${version}: the core of ${project} runs`)
    expect(result.stdout).toContain('skills: 3 ready')
    expect(result.stdout).toContain('mandatory skills: policy, bouncer ready')
  })

  it(
    "hands over to a project's own installation, which then answers",
    () => {
      const project = localProject()
      const local = path.join(project, 'node_modules', 'passepartout')
      const inner = fs.mkdirSync(path.join(project, 'org', 'notes'), {recursive: true})!
      for (const cwd of [project, inner])
        expect(passepartout(['--version'], cwd).stdout).toBe(`passepartout ${version} from ${local}\n`)
      // What it answers is all passed on: the exit status of a usage error as well.
      expect(passepartout(['help', 'no-such-command'], project)).toMatchObject({status: 2, stdout: ''})
      // The global one answers in a project that has none of its own.
      const other = writeFiles(path.join(temporary, 'other'), {'package.json': '{}'})
      expect(passepartout(['--version'], other).stdout).toBe(`passepartout ${version} from ${installation}\n`)
    },
    INSTALLS_MS,
  )

  it(
    "passes a service manager's stop on to the project's installation: its core stops as asked",
    async () => {
      const project = localProject()
      fs.mkdirSync(path.join(project, 'org/skills'), {recursive: true})
      for (const skill of ['policy', 'bouncer'])
        fs.copyFileSync(
          path.join(installation, 'org/skills', `${skill}.org`),
          path.join(project, 'org/skills', `${skill}.org`),
        )
      const run = passepartoutProcess(['run', '--no-watch'], project)
      let output = ''
      for (const stream of [run.stdout, run.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const ended = once(run, 'exit')
      try {
        await until(
          () => output.includes('talk to it:'),
          60_000,
          () => `the core did not start: ${output}`,
        )
      } finally {
        // To the global one alone, as systemd's stop is sent: the local one's core is what must stop.
        run.kill('SIGTERM')
      }
      expect(await ended).toEqual([0, null])
      expect(output).toContain(`the core of ${project} runs`)
      expect(output).toContain('the core stopped')
    },
    INSTALLS_MS,
  )

  it(
    "gives a project's tests passepartout/testing: its runtime, built, as Node resolves the package's exports",
    () => {
      const project = localProject()
      const script =
        "const {bootSkills, signal} = await import('passepartout/testing'); console.log(typeof bootSkills, typeof signal)"
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: project,
        env,
        encoding: 'utf8',
      })
      expect(result.stderr).toBe('')
      expect(result.stdout).toBe('function function\n')
    },
    INSTALLS_MS,
  )

  it('wrote nothing into the installation', () => {
    expect(snapshot(installation)).toEqual(installed)
  })
})
