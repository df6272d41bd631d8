/**
 * The package as a person installs it: this repository packed once (what `make pack` runs; its sources as an earlier
 * run packed them, that run's tarball: test/support/package-tarball.ts), the tarball installed with npm, afresh each
 * run, into a prefix of its own under a HOME of its own, and the installed `passepartout` run on folders
 * outside this repository: a plain folder of Org documents; a project `init` made, as issue 31's "Done when" has
 * it (a skill of its own written beside the example, then `check`, `test`, `npm test`, and one core run, watching,
 * whose tool a `send` calls through the shipped gates, and which reloads the skill when its document is saved); a
 * project `init` made with a second installation of its own. The installation is mounted read-only for every
 * command where this machine lets a test do so (a mount namespace of its own), and a last test holds that no
 * command wrote a byte into it.
 *
 * npm takes the dependencies from the npm registry through a cache of this repository's own
 * (node_modules/.cache/passepartout/npm, kept between runs, read first: `--prefer-offline`); the first run on a
 * machine downloads them. The tarball's size, the installs' times and the wall time of init, check and test in
 * a project are printed.
 */
import {type ChildProcessWithoutNullStreams, spawn, spawnSync, type SpawnSyncReturns} from 'node:child_process'
import {once} from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {EXIT_MS, type ModelAnswer, modelServer, type ModelServer, within} from '../../generated/core/fixtures.ts'
import {packOfSources} from '../support/package-tarball.ts'

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
  // What `make pack` runs once it has tangled and checked, into a folder named from where it ran (an earlier run's
  // pack of the same sources, test/support/package-tarball.ts), copied to where npm then runs.
  const packed = packOfSources(env)
  expect(packed.stderr).toBe('')
  expect(packed.status).toBe(0)
  // The tarball as it says it, which is how npm install is given it.
  const said = /^packed (\S+): \d+\.\d MB \(\d+ files, \d+\.\d MB unpacked\)$/m.exec(packed.stdout)?.[1]
  expect(said).toBe(`./pack/passepartout-${version}.tgz`)
  const tarball = path.join(temporary, said!)
  fs.mkdirSync(path.dirname(tarball))
  fs.copyFileSync(path.join(packed.folder, said!), tarball)
  const install = timed(() => npm(['install', '--global', '--prefix', prefix, said!], temporary))
  expect(install.result.status, install.result.stderr).toBe(0)
  installation = path.join(prefix, 'lib', 'node_modules', 'passepartout')
  installed = snapshot(installation)
  readOnly = mountsReadOnly(installation)
  const megabytes = (fs.statSync(tarball).size / 1e6).toFixed(1)
  console.log(
    `package: ${megabytes} MB tarball (${packed.seconds ? `packed in ${packed.seconds} s` : 'an earlier run packed its sources'});` +
      ` npm install --global: ${install.seconds} s;` +
      ` the installation is ${readOnly ? '' : 'not '}mounted read-only for the commands`,
  )
}, INSTALLS_MS)

afterAll(() => {
  if (temporary) fs.rmSync(temporary, {recursive: true, force: true})
})

/** What WORK gave, and how long it took: in ms, and in seconds to a tenth, as a figure to print. */
function timed<T>(work: () => T): {result: T; ms: number; seconds: string} {
  const started = performance.now()
  const result = work()
  const ms = performance.now() - started
  return {result, ms, seconds: (ms / 1000).toFixed(1)}
}

/**
 * The environment of npm and of the installed commands: a HOME of their own (no user's .npmrc, no user's caches),
 * the installation's bin/ first on PATH, and none of the npm_* variables that an `npm test` above this run sets.
 */
function npmEnvironment(folder: string): NodeJS.ProcessEnv {
  const home = path.join(folder, 'home')
  fs.mkdirSync(home)
  const kept = Object.entries(process.env).filter(([name]) => !npmOrOurs.test(name))
  return {
    ...Object.fromEntries(kept),
    HOME: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
    PATH: `${path.join(folder, 'prefix', 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
  }
}

/**
 * The variables of this run that a person's shell does not have: npm's, and those that choose what a core runs
 * (this repository's tests set SHIPPED_SKILLS empty; a person's core boots the shipped skills).
 */
const npmOrOurs = /^(npm_|PASSEPARTOUT_|OPENAI_|SHIPPED_SKILLS$|MANDATORY_SKILLS$|DEBUG$)/i

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']
  return spawnSync('npm', [...args, ...flags], {cwd, env, encoding: 'utf8'})
}

/** The installed `passepartout` (the global one, from PATH) run with ARGS in CWD. */
function passepartout(args: string[], cwd: string): SpawnSyncReturns<string> {
  const [program, ...rest] = commandLine(args)
  return spawnSync(program!, rest, {cwd, env, encoding: 'utf8'})
}

/**
 * The installed `passepartout` run with ARGS in CWD, this process answering meanwhile (a model server of the test
 * is in it): its exit status and what it printed, or a failure when it has not ended within MS.
 */
async function passepartoutMeanwhile(args: string[], cwd: string, ms: number) {
  const child = passepartoutProcess(args, cwd)
  let [stdout, stderr] = ['', '']
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdin.end()
  try {
    const [status] = (await within(
      once(child, 'close'),
      ms,
      () => `passepartout ${args.join(' ')}: ${stdout}${stderr}`,
    )) as [number | null]
    return {status, stdout, stderr}
  } finally {
    child.kill('SIGKILL')
  }
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

/**
 * A project `init` made, with an installation of its own (the tarball installed in it by npm), made once for the
 * tests that need it.
 */
function localProject(): string {
  if (localMade) return localMade
  const project = path.join(temporary, 'local')
  expect(passepartout(['init', 'local'], temporary)).toMatchObject({status: 0, stderr: ''})
  const install = timed(() => npm(['install', path.join(temporary, 'pack', `passepartout-${version}.tgz`)], project))
  expect(install.result.status, install.result.stderr).toBe(0)
  console.log(`package: npm install in a project: ${install.seconds} s`)
  localMade = project
  return project
}

/** How long a wait for a core's line has: its boot, a reload. */
const DEADLINE_MS = 60_000

interface PackageManifest {
  scripts: Record<string, string>
  dependencies: Record<string, string>
}

/** Every file under FOLDER, relative to it, sorted. */
const listed = (folder: string) =>
  fs
    .readdirSync(folder, {recursive: true, encoding: 'utf8'})
    .filter((file) => fs.statSync(path.join(folder, file)).isFile())
    .sort()

/** The test files a vitest run's OUTPUT says it ran, sorted. */
const testFiles = (output: string) =>
  [...stripVTControlCharacters(output).matchAll(/^ [✓×❯] (\S+\.test\.ts) /gm)].map((match) => match[1]).sort()

/**
 * A skill of the project's own, with a tool that counts the words of a text and says them followed by UNIT, and
 * its Test Suite. A saved change of UNIT is a change the next call of the tool shows.
 */
const tallyDocument = (unit: string) =>
  [
    '#+TITLE: Tally: the words of a text, counted',
    '* Implementation',
    block(
      '../../generated/skills/tally.ts :mkdirp yes',
      [
        "import {defineSkill, defineTool} from 'passepartout'",
        "import {z} from 'zod'",
        '',
        `export const tally = (text: string): string => \`\${text.split(/\\s+/).filter(Boolean).length} ${unit}\``,
        '',
        "defineSkill({name: 'tally', trigger: () => false})",
        '',
        'defineTool({',
        "  name: 'tally-words',",
        "  description: 'Counts the words of a text.',",
        "  params: z.object({text: z.string().min(1).describe('the text')}),",
        '  run: ({text}) => tally(text),',
        '})',
      ].join('\n'),
    ),
    '* Test Suite',
    block(
      '../../generated/skills/tally.test.ts :mkdirp yes',
      [
        "import {bootSkills} from 'passepartout/testing'",
        "import {expect, it} from 'vitest'",
        '',
        'const skills = await bootSkills()',
        '',
        "it('counts the words of a text', async () => {",
        `  expect(await skills.tool('tally-words', {text: 'one two  three'})).toEqual({ok: true, output: '3 ${unit}'})`,
        '})',
        '',
        "it('refuses an empty text', async () => {",
        "  expect((await skills.tool('tally-words', {text: ''})).ok).toBe(false)",
        '})',
      ].join('\n'),
    ),
  ].join('\n')

/** The last message of a chat completion's BODY. */
const lastMessage = (body: Record<string, unknown>) =>
  (body.messages as {role: string; content: string | null}[]).at(-1)!

/** A model that calls the tally tool on the words after the colon of a question, and says what the tool answered. */
const talliesWords = (body: Record<string, unknown>): ModelAnswer => {
  const last = lastMessage(body)
  if (last.role === 'tool') return `The tool said: ${last.content}`
  const text = /:\s*(.*?)\??$/.exec(last.content ?? '')?.[1] ?? ''
  return {toolCalls: [{name: 'tally-words', arguments: JSON.stringify({text})}]}
}

/** The project's .env: the model server at BASE first, the offline backend behind it. */
const dotenv = (base: string) =>
  `PASSEPARTOUT_BACKENDS=openai,offline\nOPENAI_BASE_URL=${base}\nPASSEPARTOUT_MODEL=scripted\n`

/** What send prints of a turn whose call of the tally tool on TEXT, through the shipped gates, gave OUTPUT. */
const answer = (text: string, output: string) => {
  const gates = '  gates: policy, bouncer, shell-guard passed'
  return `tool call tally-words {"text":"${text}"}: ran (${output})\n${gates}\nThe tool said: ${output}\n${gates}\n`
}

/** Each skill's name and origin, as a table of skills says them. */
const origins = (table: string) =>
  [...table.matchAll(/^(\S+)\s+(shipped|project)\s+ready\b/gm)].map(([, name, origin]) => `${name} ${origin}`).sort()

const ORIGINS = [
  'bouncer shipped',
  'hello project',
  'policy shipped',
  'scribe shipped',
  'shell-guard shipped',
  'tally project',
]

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
    // What a shipped skill's tests read beside its document, for a copy of it in a project.
    expect(files).toContain('org/skills/shell-guard.cases.json')
  })

  it('exports only what it holds: a module it does not ship is said to be no export of it', () => {
    const {exports} = JSON.parse(fs.readFileSync(path.join(installation, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string | string[]>>
    }
    const targets = Object.values(exports).flatMap((conditions) => Object.values(conditions).flat())
    expect(targets.filter((target) => !fs.existsSync(path.join(installation, target)))).toEqual([])
    expect(Object.keys(exports)).toEqual(['.', './testing'])
    const script = "await import('passepartout/toolchain').catch((error) => console.log(error.code))"
    const project = localProject()
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env,
      encoding: 'utf8',
    })
    expect(result.stdout).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED\n')
  })

  it('tangles and checks a plain folder of Org documents, outside any project, with Node types', () => {
    const notes = writeFiles(path.join(temporary, 'notes'), {
      'lib.org': `* Twice\n${block('lib.ts', 'export const twice = (n: number): number => n * 2')}`,
      'use.org': `* Use\n${block('use.ts', "import {twice} from './lib.ts'\n\nexport const four: number = twice(2)")}`,
      // Someone's literate dotfiles import Node's modules: the installation's Node types are given.
      'shell.org': `* Shell\n${block('shell.ts', "import fs from 'node:fs'\n\nexport const rc = fs.existsSync('.bashrc')")}`,
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

  it("replaces a shipped skill by the project's copy, which checks and tests with the installation's packages", () => {
    // The issue's folder: copies of the shipped skills, shell-guard's tests taking properties from fast-check.
    expect(passepartout(['init', 'copies'], temporary)).toMatchObject({status: 0, stderr: ''})
    const project = path.join(temporary, 'copies')
    // A copy of shell-guard takes the cases its tests read beside it, as the package ships them.
    for (const file of ['policy.org', 'bouncer.org', 'shell-guard.org', 'shell-guard.cases.json'])
      fs.copyFileSync(path.join(installation, 'org/skills', file), path.join(project, 'org/skills', file))
    const check = passepartout(['check'], project)
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
    const test = passepartout(['test'], project)
    expect(test.status, test.stdout + test.stderr).toBe(0)
    expect(testFiles(test.stdout)).toEqual(
      ['bouncer', 'hello', 'policy', 'shell-guard'].map((name) => `generated/skills/${name}.test.ts`),
    )
    const ran = passepartout(['run', '--once'], project)
    expect(ran.status, ran.stderr).toBe(0)
    expect(ran.stderr).toBe('')
    expect(
      ran.stdout
        .split('\n')
        .filter((line) => line.includes(' replaces the shipped '))
        .sort(),
    ).toEqual(['bouncer', 'policy', 'shell-guard'].map((name) => `org/skills/${name}.org replaces the shipped ${name}`))
  })

  it("places a project's failing test at its Org line, the package's vitest mapping the tangled test to Org", () => {
    expect(passepartout(['init', 'failing'], temporary)).toMatchObject({status: 0, stderr: ''})
    const document = path.join(temporary, 'failing', 'org/skills/hello.org')
    const lines = fs
      .readFileSync(document, 'utf8')
      .replace("output: 'Hello, Ada!'", "output: 'Hello, Bob!'")
      .split('\n')
    fs.writeFileSync(document, lines.join('\n'))
    const test = passepartout(['test'], path.join(temporary, 'failing'))
    const printed = stripVTControlCharacters(test.stdout + test.stderr)
    const line = lines.findIndex((text) => text.includes("'Hello, Bob!'")) + 1
    expect(printed).toMatch(new RegExp(`❯ org/skills/hello\\.org:${line}:\\d+\\n`))
    expect(printed).not.toContain('generated/skills/hello.test.ts:')
    expect(test.status).toBe(1)
  })

  it('gives a project without a tsconfig.json the Node types this repository checks with', () => {
    const own = (folder: string) =>
      (
        JSON.parse(fs.readFileSync(path.join(folder, 'node_modules/@types/node/package.json'), 'utf8')) as {
          version: string
        }
      ).version
    expect(own(installation)).toBe(own(repo))
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

  describe("a project init made, as issue 31's Done when has it", () => {
    let project: string
    let server: ModelServer
    let core: ChildProcessWithoutNullStreams
    let output = ''
    /** The wall time of init, check and the project's tests, as a person starts a project. */
    const started: {init?: number; check?: number; test?: number} = {}

    beforeAll(async () => {
      server = await modelServer([talliesWords])
    })

    afterAll(async () => {
      if (core && core.exitCode === null && core.signalCode === null) {
        const ended = once(core, 'exit')
        core.kill('SIGINT')
        await within(ended, EXIT_MS, () => `the core did not stop: ${output}`).catch(() => core.kill('SIGKILL'))
      }
      await server?.close()
    })

    it('is written by init, which says what it wrote', () => {
      const init = timed(() => passepartout(['init', 'my-agent'], temporary))
      started.init = init.ms
      expect(init.result.stderr).toBe('')
      expect(init.result.stdout).toBe(
        'wrote a project in my-agent: org/skills/hello.org, passepartout.json, .env.example, .gitignore, package.json,' +
          ' README.md\nnext: cd my-agent, then passepartout test (its tests), passepartout run (its core)\n',
      )
      expect(init.result.status).toBe(0)
      project = path.join(temporary, 'my-agent')
      expect(listed(project)).toEqual(
        ['.env.example', '.gitignore', 'README.md', 'org/skills/hello.org', 'package.json', 'passepartout.json'].sort(),
      )
      const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as PackageManifest
      expect(manifest.scripts).toEqual({start: 'passepartout run', test: 'passepartout test'})
      // A skill of the project's own beside the example, with a tool and its tests.
      writeFiles(project, {'org/skills/tally.org': tallyDocument('words')})
    })

    it('checks, its imports found in the installation', () => {
      const check = timed(() => passepartout(['check'], project))
      started.check = check.ms
      expect(check.result.stderr).toBe('')
      expect(check.result.stdout).toMatch(/^checked \d+ TypeScript files: 0 errors, 0 warnings in \d+ ms$/m)
      expect(check.result.status).toBe(0)
    })

    it("runs its two skills' tests, and none of the installation's, with passepartout test and npm test", () => {
      const test = timed(() => passepartout(['test'], project))
      started.test = test.ms
      for (const result of [test.result, npm(['test'], project)]) {
        expect(result.status, result.stdout + result.stderr).toBe(0)
        expect(testFiles(result.stdout)).toEqual(['generated/skills/hello.test.ts', 'generated/skills/tally.test.ts'])
        const summary = stripVTControlCharacters(result.stdout)
        expect(summary).toMatch(/^\s+Test Files\s+2 passed \(2\)$/m)
        expect(summary).toMatch(/^\s+Tests\s+4 passed \(4\)$/m)
      }
      const seconds = (ms: number) => (ms / 1000).toFixed(1)
      const total = started.init! + started.check! + test.ms
      console.log(
        `package: init ${seconds(started.init!)} s + check ${seconds(started.check!)} s + test ${seconds(test.ms)} s` +
          ` = ${seconds(total)} s in a project of the installed package`,
      )
    })

    it('runs its core, whose tool a send calls through the shipped gates, and reloads its skill when saved', async () => {
      writeFiles(project, {'.env': dotenv(server.baseURL)})
      core = passepartoutProcess(['run'], project)
      for (const stream of [core.stdout, core.stderr])
        stream.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const said = (pattern: RegExp, what: string) =>
        until(
          () => pattern.test(output),
          DEADLINE_MS,
          () => `${what} was not said: ${output}`,
        )
      await said(/^talk to it: /m, 'talk to it')
      expect(output).toContain(`passepartout ${version}: the core of ${project} runs`)
      expect(output).toContain('skills: 6 ready')
      expect(output).toContain('mandatory skills: policy, bouncer ready')
      expect(output).toContain('watching org/')

      expect(await send('how many words in: one two three?')).toBe(answer('one two three', '3 words'))

      fs.writeFileSync(path.join(project, 'org/skills/tally.org'), tallyDocument('words counted'))
      await said(/^reloaded tally\b/m, 'reloaded tally')
      expect(await send('and how many in: one two?')).toBe(answer('one two', '2 words counted'))

      const skills = passepartout(['skills'], project)
      expect(skills.stderr).toBe('')
      expect(origins(skills.stdout)).toEqual(ORIGINS)
      const status = passepartout(['status'], project)
      expect(status.stderr).toBe('')
      expect(origins(status.stdout)).toEqual(ORIGINS)
    })

    /** `passepartout send TEXT` in the project: what it printed, the session's line left out. */
    async function send(text: string): Promise<string> {
      const result = await passepartoutMeanwhile(['send', text], project, DEADLINE_MS)
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      return result.stdout.replace(/\nsession \S+, turn \d+\n$/, '')
    }
  })

  it('wrote nothing into the installation', () => {
    expect(snapshot(installation)).toEqual(installed)
  })
})
