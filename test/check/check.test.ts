/**
 * `passepartout check` on real projects on disk: TypeScript problems at the
 * Org line they came from (plain blocks, noweb expansions, `:comments link`
 * targets), hand-written files at their own place, source maps a stack trace
 * follows back to the Org file, skills held to their capabilities, and a
 * warm re-check after one change.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {ProjectSession} from '../../tools/session/project-session.ts'
import {DEFAULT_COMPILER_OPTIONS} from '../../tools/check/checker.ts'
import {NativeChecker, parseOutput} from '../../tools/check/native-checker.ts'
import {sourceMapPath, sourceMapsFolder} from '../../tools/tangle/source-map.ts'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {listOrgFiles, userStateFolder} from '../../tools/project.ts'
import {checkerStarted, checkersGone, checkersOf} from '../support/checker-processes.ts'

const repo = path.resolve(import.meta.dirname, '../..')

/**
 * A project with node_modules/ (for the maps), a tsconfig, and FILES; a tsconfig that sees Node's types when NODE says
 * so, for code that imports Node's modules: a program with them took a check about a second more of CPU, the most a
 * warm checker spent on most of these projects.
 */
function project(files: Record<string, string>, {node = false} = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-check-'))
  const types = node ? {types: ['node'], typeRoots: [path.join(repo, 'node_modules/@types')]} : {types: []}
  const tsconfig = {compilerOptions: {...DEFAULT_COMPILER_OPTIONS, ...types}}
  const all = {'package.json': '{}', 'node_modules/.keep': '', 'tsconfig.json': JSON.stringify(tsconfig), ...files}
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const org = (...lines: string[]) => `${lines.join('\n')}\n`

/** The sessions the tests checked with: their warm type checkers' processes end after each test. */
const sessions: ProjectSession[] = []
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close()
})

/** Check the project's org/ folder; the messages as printed, relative to the project. */
async function check(dir: string, session = new ProjectSession({project: dir})) {
  sessions.push(session)
  const report = await session.check(listOrgFiles(path.join(dir, 'org')))
  return {report, messages: report.diagnostics.map((message) => formatDiagnostic(message, dir)), session}
}

/**
 * Projects whose cases read one check and write nothing after it, each a folder of one project checked once (a check
 * of a project each cost the warm checker a process and Node's types each): the messages of a case are those of its
 * folder, printed from there as they were from a project of its own.
 */
const TOGETHER: Record<string, Record<string, string>> = {
  plain: {
    'org/a.org': org(
      '#+TITLE: A',
      '* Code',
      '#+begin_src typescript :tangle ../generated/a.ts :mkdirp yes',
      'export const n: number = "one"',
      '#+end_src',
    ),
  },
  tangler: {
    'org/bad.org': org('#+begin_src typescript :tangle missing/x.ts', 'x', '#+end_src'),
    'org/good.org': org('#+begin_src typescript :tangle good.ts', 'export const good = 1', '#+end_src'),
  },
  noweb: {
    'org/a.org': org(
      '* Pieces',
      '#+NAME: checks',
      '#+begin_src typescript',
      'const fine = 1',
      'const bad: string = fine',
      '#+end_src',
      '* File',
      '#+begin_src typescript :tangle a.ts :noweb yes',
      'export function f() {',
      '  <<checks>>',
      '  return bad',
      '}',
      '#+end_src',
    ),
  },
  link: {
    'org/a.org': org(
      '* One',
      '#+begin_src typescript :tangle a.ts :comments link',
      'export const one = 1',
      '#+end_src',
      '* Two',
      '#+begin_src typescript :tangle a.ts :comments link',
      'export const two: boolean = one',
      '#+end_src',
    ),
  },
  utf16: {
    'org/a.org': org(
      '#+begin_src typescript :tangle a.ts',
      'const s = "é😀"; export const n: number = s',
      'export const p: Promise<{x: string}> = Promise.resolve({x: 1})',
      '#+end_src',
    ),
  },
  'hand-written': {
    'tools/helper.ts': 'export const helper: number = "nope"\n',
    'org/a.org': org(
      '#+begin_src typescript :tangle a.ts',
      "import {helper} from '../tools/helper.ts'",
      'export const twice = helper * 2',
      '#+end_src',
    ),
  },
}

/** The projects of TOGETHER checked as one, by the checker WARM-ONLY names: each one's messages, from its folder. */
async function checkTogether(warmOnly: boolean) {
  const files = Object.entries(TOGETHER).flatMap(([name, project]) =>
    Object.entries(project).map(([file, text]) => [`cases/${name}/${file}`, text]),
  )
  const dir = project(Object.fromEntries(files))
  const session = new ProjectSession({project: dir, warmOnly})
  sessions.push(session)
  const report = await session.check(listOrgFiles(path.join(dir, 'cases')))
  const messagesOf = (name: string) => {
    const folder = path.join(dir, 'cases', name)
    const inFolder = report.diagnostics.filter((message) => message.file?.startsWith(`${folder}${path.sep}`))
    return inFolder.map((message) => formatDiagnostic(message, folder))
  }
  return {report, messagesOf}
}

// The native compiler and ts-morph must report the same problems at the same places.
describe.each([
  ['native', false],
  ['warm', true],
] as const)('type errors at the Org line (%s checker)', (checker, warmOnly) => {
  let together: Awaited<ReturnType<typeof checkTogether>>
  beforeAll(async () => {
    together = await checkTogether(warmOnly)
  })
  const messagesOf = (name: string) => {
    expect(together.report.checker).toBe(checker)
    return together.messagesOf(name)
  }

  it('maps an error in a plain block to its Org line and column', () => {
    expect(messagesOf('plain')).toEqual([
      "org/a.org:4:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
    ])
  })

  it('maps a line that came from a noweb expansion to the line inside the referenced block', () => {
    expect(messagesOf('noweb')).toEqual([
      "org/a.org:5:7: error TS2322: Type 'number' is not assignable to type 'string'. [ts]",
    ])
  })

  it('maps errors through the comments of a :comments link target, and glue lines to the nearest block line', () => {
    expect(messagesOf('link')).toEqual([
      "org/a.org:7:14: error TS2322: Type 'number' is not assignable to type 'boolean'. [ts]",
    ])
  })

  it('counts columns in UTF-16 code units and keeps the details of a chained message', () => {
    expect(messagesOf('utf16')).toEqual([
      "org/a.org:2:31: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
      "org/a.org:3:14: error TS2322: Type 'Promise<{ x: number; }>' is not assignable to type 'Promise<{ x: string; }>'.\n  Type '{ x: number; }' is not assignable to type '{ x: string; }'.\n    Types of property 'x' are incompatible.\n      Type 'number' is not assignable to type 'string'. [ts]",
    ])
  })

  it('reports a problem in a hand-written file at that file', () => {
    expect(messagesOf('hand-written')).toEqual([
      "tools/helper.ts:1:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
    ])
  })

  it("reports the tangler's own errors and checks the rest", () => {
    expect(messagesOf('tangler')).toEqual([
      expect.stringMatching(/^org\/bad\.org:1:1: error: .*\[tangle\/missing-directory\]$/),
    ])
  })

  it('reports nothing of one folder at another: every message of the check is of one of them', () => {
    const all = Object.keys(TOGETHER).flatMap((name) => together.messagesOf(name))
    expect(all).toHaveLength(together.report.diagnostics.length)
  })

  it('checks the one file each folder writes, none of the file a tangler error kept from being written', () => {
    expect(together.report.checkedFiles).toBe(Object.keys(TOGETHER).length)
  })
})

describe('the native compiler', () => {
  it('reads problems and their chained details from tsc --pretty false', () => {
    const output =
      "gen/a.ts(4,7): error TS2322: Type 'A' is not assignable to type 'B'.\n  Details here.\nerror TS5083: Cannot read file 'x'.\n"
    expect(parseOutput(output, '/p')).toEqual([
      {
        file: '/p/gen/a.ts',
        line: 4,
        column: 7,
        code: 'TS2322',
        message: "Type 'A' is not assignable to type 'B'.\n  Details here.",
        severity: 'error',
      },
      {file: undefined, line: 0, column: 0, code: 'TS5083', message: "Cannot read file 'x'.", severity: 'error'},
    ])
  })

  it('maps an error to its Org line when node_modules is a link to a folder elsewhere', async () => {
    const dir = project({
      'org/a.org': org(
        '#+begin_src typescript :tangle ../generated/a.ts :mkdirp yes',
        'export const n: number = "one"',
        '#+end_src',
      ),
    })
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-modules-'))
    fs.rmSync(path.join(dir, 'node_modules'), {recursive: true})
    fs.symlinkSync(elsewhere, path.join(dir, 'node_modules'))
    const result = spawnSync(path.join(repo, 'bin/passepartout'), ['check', '--no-frames'], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect(result.stderr).toBe("org/a.org:2:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]\n")
    expect(result.status).toBe(1)
  })

  it('fails with what the compiler said when it cannot run', async () => {
    const dir = project({
      'a.ts': 'export const a = 1\n',
      'broken-tsc.mjs': 'console.error("no compiler here")\nprocess.exit(3)\n',
    })
    const compiler = {command: process.execPath, args: [path.join(dir, 'broken-tsc.mjs')], version: '7'}
    const broken = new NativeChecker(compiler, undefined, path.join(dir, 'work'))
    await expect(broken.checkProgram([path.join(dir, 'a.ts')])).rejects.toThrow(/status 3: no compiler here/)
  })
})

describe('source maps', () => {
  it("lets a stack trace thrown at run time in a skill's code point at the Org line", async () => {
    const dir = project({
      'org/skills/thrower.org': org(
        '* Thrower',
        '#+begin_src typescript :tangle ../../generated/skills/thrower.ts :mkdirp yes :comments link',
        'export function boom(n: number): never {',
        '  throw new Error(`boom ${n}`)',
        '}',
        '#+end_src',
      ),
    })
    await check(dir)
    const generated = path.join(dir, 'generated/skills/thrower.ts')
    const map = fs.readFileSync(sourceMapPath(sourceMapsFolder(dir), dir, generated)!, 'utf8')
    expect(JSON.parse(map).sourcesContent).toBeUndefined()
    expect(fs.readFileSync(generated, 'utf8')).not.toContain('sourceMappingURL')
    // What a loader does: transpile with the Org map as the input map, then run with source maps on.
    const input = `${fs.readFileSync(generated, 'utf8')}//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}\n`
    const output = esbuild.transformSync(input, {
      loader: 'ts',
      format: 'esm',
      sourcemap: 'inline',
      sourcefile: generated,
    })
    fs.writeFileSync(path.join(dir, 'thrower.mjs'), output.code)
    fs.writeFileSync(path.join(dir, 'run.mjs'), "import {boom} from './thrower.mjs'\nboom(1)\n")
    const run = spawnSync(process.execPath, ['--enable-source-maps', path.join(dir, 'run.mjs')], {encoding: 'utf8'})
    // The written maps are by line: the Org line, at the start of the run of code it came from.
    expect(run.stderr).toContain(`at boom (${path.join(dir, 'org/skills/thrower.org')}:4:1)`)
  })

  it("are written for the code of every document of the project, a test file's by token, none for other files", async () => {
    const dir = project({
      'org/plain.org': org(
        '#+begin_src typescript :tangle ../generated/plain.ts :mkdirp yes',
        'export const x = 1',
        '#+end_src',
        '#+begin_src text :tangle ../generated/plain.txt',
        'words',
        '#+end_src',
      ),
      'org/skills/s.org': org(
        '#+begin_src typescript :tangle ../../generated/skills/s.ts :mkdirp yes',
        'export const x = 1',
        '#+end_src',
        '#+begin_src typescript :tangle ../../generated/skills/s.test.ts',
        'export const y = 1',
        '#+end_src',
      ),
    })
    await check(dir)
    const maps = path.join(dir, 'node_modules/.cache/passepartout/maps')
    expect(sourceMapsFolder(dir)).toBe(maps)
    const written = fs
      .readdirSync(maps, {recursive: true})
      .map(String)
      .filter((name) => name.endsWith('.map'))
    expect(written.sort()).toEqual(
      ['generated/plain.ts.map', 'generated/skills/s.test.ts.map', 'generated/skills/s.ts.map'].map(path.normalize),
    )
    const mappings = (file: string) => JSON.parse(fs.readFileSync(path.join(maps, file), 'utf8')).mappings
    // `export const y = 1`: by token, a mapping at each of its five tokens; by line, one at its start.
    expect(mappings('generated/skills/s.test.ts.map').split(',')).toHaveLength(5)
    expect(mappings('generated/skills/s.ts.map').split(',')).toHaveLength(1)
  })

  it('are not made by a plain tangle, which keeps those there right; a check after it writes them', async () => {
    const text = (above: string) =>
      org(above, '#+begin_src typescript :tangle ../generated/plain.ts :mkdirp yes', 'export const x = 1', '#+end_src')
    const dir = project({'org/plain.org': text('')})
    const document = path.join(dir, 'org/plain.org')
    // Written long enough ago for the tangle cache to trust its stamp (cache.ts).
    const settle = () => fs.utimesSync(document, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    settle()
    const map = sourceMapPath(sourceMapsFolder(dir), dir, path.join(dir, 'generated/plain.ts'))!
    await new ProjectSession({project: dir}).tangle([document])
    expect(fs.existsSync(path.join(dir, 'generated/plain.ts'))).toBe(true)
    expect(fs.existsSync(map)).toBe(false)
    // The check finds the document in the tangle cache, which says its map was not written: it is planned again.
    await check(dir)
    const mappings = () => JSON.parse(fs.readFileSync(map, 'utf8')).mappings
    expect(mappings()).toBe('AAEA')
    // A tangle that plans the document again rewrites the map that is there: the block moved two lines down.
    fs.writeFileSync(document, text('Three lines\nabove\nit.'))
    settle()
    await new ProjectSession({project: dir}).tangle([document])
    expect(mappings()).toBe('AAIA')
  })

  it("are kept in the user's cache for a project without node_modules/", async () => {
    const dir = project({
      'org/skills/s.org': org(
        '#+begin_src typescript :tangle ../../generated/skills/s.ts :mkdirp yes',
        'export const x = 1',
        '#+end_src',
      ),
    })
    fs.rmSync(path.join(dir, 'node_modules'), {recursive: true})
    await check(dir)
    const maps = sourceMapsFolder(dir)
    expect(maps.startsWith(userStateFolder())).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(maps, 'generated/skills/s.ts.map'), 'utf8')).sources).toEqual([
      path.join(dir, 'org/skills/s.org'),
    ])
    fs.rmSync(maps, {recursive: true})
  })
})

describe('sandbox rules for skills', () => {
  const skill = (capabilities: string) =>
    org(
      '#+TITLE: Runner',
      capabilities,
      '* Code',
      '#+begin_src typescript :tangle runner.ts',
      "import {execSync} from 'node:child_process'",
      "export const run = () => execSync('ls')",
      '#+end_src',
    )

  /**
   * The cases that read one check, each a folder of one project checked once (a check each cost a compiler run with
   * Node's types, and a checker process to judge a skill's code): the messages of each, printed from the project.
   */
  const FOLDERS = {
    refused: skill(''),
    granted: skill('#+CAPABILITIES: shell teleport'),
    invalid: skill('#+CAPABILITIES: shell read:\n#+CAPABILITIES: read:.passepartout'),
  }
  let messages: string[]
  beforeAll(async () => {
    const skills = Object.entries(FOLDERS).map(([name, text]) => [`org/skills/${name}/runner.org`, text])
    messages = (await check(project({...Object.fromEntries(skills), 'org/core/runner.org': skill('')}, {node: true})))
      .messages
  })
  const messagesOf = (folder: string) => messages.filter((message) => message.startsWith(`${folder}/`))

  it('refuses a skill that uses child_process without the shell capability, at the Org line', () => {
    expect(messagesOf('org/skills/refused')).toEqual([
      expect.stringMatching(
        /^org\/skills\/refused\/runner\.org:5:\d+: error: skill 'runner' uses child_process without the 'shell' capability \[sandbox\/restricted-import\]$/,
      ),
    ])
  })

  it('lets it run with #+CAPABILITIES: shell, and warns about names that grant nothing', () => {
    expect(messagesOf('org/skills/granted')).toEqual([
      expect.stringMatching(
        /^org\/skills\/granted\/runner\.org:2:1: warning: 'teleport' is not a capability.*\[sandbox\/unknown-capability\]$/,
      ),
    ])
  })

  it('refuses a capability written so that it grants nothing, at its line', () => {
    expect(messagesOf('org/skills/invalid')).toEqual([
      expect.stringMatching(
        /^org\/skills\/invalid\/runner\.org:2:1: error: 'read:' grants nothing: read: names no folder.*\[sandbox\/invalid-grant\]$/,
      ),
      expect.stringMatching(
        /^org\/skills\/invalid\/runner\.org:3:1: error: 'read:\.passepartout' grants nothing: no skill reads the project's state.*\[sandbox\/invalid-grant\]$/,
      ),
    ])
  })

  it('does not hold core documents to the rules', () => {
    expect(messagesOf('org/core')).toEqual([])
  })

  it('reports nothing of one folder at another: every message of the check is of one of them', () => {
    const all = Object.keys(FOLDERS).flatMap((name) => messagesOf(`org/skills/${name}`))
    expect(all.sort()).toEqual([...messages].sort())
  })

  // TypeScript's parser, which the rules read a skill's code with, is loaded in the checker's process, not in the one
  // that asked: a core that judged its skills as it booted does not hold it for as long as it runs, nor for the ten
  // minutes a warm program stays: holding none, the process leaves seconds after its last question.
  it("judges a skill's code in the type checker's process, which leaves seconds after when it holds no program", async () => {
    const dir = project({'org/skills/runner.org': skill('')}, {node: true})
    const {messages} = await check(dir, new ProjectSession({project: dir, checkerIdleMs: 600_000}))
    expect(messages).toEqual([expect.stringMatching(/\[sandbox\/restricted-import\]$/)])
    expect(checkersOf(dir)).toHaveLength(1)
    expect(await checkersGone(dir)).toBe(true)
  })
})

/** The Org document of the module NAME, which takes the type TYPE of the built-in MODULE. */
const usingNode = (name: string, module: string, type: string) =>
  org(
    `#+begin_src typescript :tangle ${name}.ts`,
    `import type {${type}} from '${module}'`,
    `export const ${name} = (value: ${type} | undefined): boolean => value === undefined`,
    '#+end_src',
  )

/** The Org document of one block that tangles to TARGET, holding LINES. */
const writing = (target: string, ...lines: string[]) =>
  org(`#+begin_src typescript :tangle ${target}`, ...lines, '#+end_src')
const typeError = "org/user.org:3:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]"
const printed = (report: {diagnostics: Parameters<typeof formatDiagnostic>[0][]}, dir: string) =>
  report.diagnostics.map((message) => formatDiagnostic(message, dir))

/**
 * The re-checks of one warm program: each case a folder of one project checked and warmed up once, by the first
 * test that asks (a program each cost a checker's process and its build, 1.3 s of CPU, most of the tests' time).
 * A re-check reaches the saved documents' files and their importers, which are all in the case's folder: each test
 * saves only there and reads what the re-check printed from there, as from a project of its own, in any order.
 * The folder `deferred` holds the session's deferred documents (its org/core); the project sees Node's types, which
 * the case `edits` imports (a program of its own, with those types, cost its test a second of CPU more).
 */
const WARM: Record<string, Record<string, string>> = {
  changed: {
    'org/base.org': writing('base.ts', 'export const base: number = 1'),
    'org/user.org': writing('user.ts', "import {base} from './base.ts'", 'export const doubled: number = base * 2'),
    'org/other.org': writing('other.ts', 'export const other = 1'),
  },
  importing: {'org/user.org': writing('user.ts', 'export const total: number = 1')},
  // `./extra` is extra.ts while there is one, else extra/index.ts.
  moved: {
    'org/extra.org': writing('extra.ts', 'export const extra = 1'),
    'org/folder.org': writing('extra/index.ts :mkdirp yes', 'export const extra = 2'),
    'org/user.org': writing('user.ts', "import {extra} from './extra'", 'export const total: number = extra'),
  },
  later: {
    'org/user.org': writing('user.ts', "import {later} from './later.ts'", 'export const total: number = later'),
  },
  // org/core/user.org is a deferred document importing a file of one that is not.
  deferred: {
    'org/base.org': writing('base.ts', 'export const base = 1'),
    'org/core/user.org': writing('../user.ts', "import {base} from './base.ts'", 'export const total: number = base'),
  },
  edits: {'org/first.org': usingNode('first', 'node:os', 'CpuInfo')},
}
let warm: Promise<{session: ProjectSession; root: string; messages: string[]}> | undefined
afterAll(async () => (await warm)?.session.close())

/** The folder of the case NAME in the warm project, its session, and what the whole check said of it. */
async function warmCase(name: keyof typeof WARM) {
  warm ??= (async () => {
    const files = Object.entries(WARM).flatMap(([name, files]) =>
      Object.entries(files).map(([file, text]) => [`cases/${name}/${file}`, text]),
    )
    const root = project(Object.fromEntries(files), {node: true})
    const deferred = path.join(root, 'cases/deferred/org/core')
    const session = new ProjectSession({project: root, deferred})
    const report = await session.check(listOrgFiles(path.join(root, 'cases')))
    await session.warmUp()
    return {session, root, messages: report.diagnostics.map((message) => formatDiagnostic(message, root))}
  })()
  const {session, root, messages} = await warm
  const dir = path.join(root, 'cases', name)
  const prefix = `cases/${name}/`
  const own = messages.filter((message) => message.startsWith(prefix)).map((message) => message.slice(prefix.length))
  return {session, dir, messages: own}
}

describe('a warm re-check', () => {
  it('checks the changed document and the files that import it', async () => {
    const {session, dir, messages} = await warmCase('changed')
    expect(messages).toEqual([])
    fs.writeFileSync(
      path.join(dir, 'org/base.org'),
      org('#+begin_src typescript :tangle base.ts', "export const base: string = 'one'", '#+end_src'),
    )
    const after = await session.recheck([path.join(dir, 'org/base.org')])
    expect(after.checker).toBe('warm')
    expect(after.checkedFiles).toBe(2)
    expect(after.diagnostics.map((message) => formatDiagnostic(message, dir))).toEqual([
      "org/user.org:3:32: error TS2362: The left-hand side of an arithmetic operation must be of type 'any', 'number', 'bigint' or an enum type. [ts]",
    ])
    fs.writeFileSync(
      path.join(dir, 'org/base.org'),
      org('#+begin_src typescript :tangle base.ts', 'export const base: number = 2', '#+end_src'),
    )
    expect((await session.recheck([path.join(dir, 'org/base.org')])).diagnostics).toEqual([])
  })

  it('follows a document that starts importing a new one, and a document that stops writing a file', async () => {
    const {session, dir} = await warmCase('importing')
    fs.writeFileSync(
      path.join(dir, 'org/extra.org'),
      org('#+begin_src typescript :tangle extra.ts', "export const extra = 'text'", '#+end_src'),
    )
    fs.writeFileSync(
      path.join(dir, 'org/user.org'),
      org(
        '#+begin_src typescript :tangle user.ts',
        "import {extra} from './extra.ts'",
        'export const total: number = extra',
        '#+end_src',
      ),
    )
    const after = await session.recheck([path.join(dir, 'org/extra.org'), path.join(dir, 'org/user.org')])
    expect(after.diagnostics.map((message) => formatDiagnostic(message, dir))).toEqual([
      "org/user.org:3:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
    ])
    // A save that does not check leaves what its document wrote as it was; the other document's stays written.
    expect(after.keptOut).toEqual([path.join(dir, 'org/user.org')])
    expect(fs.readFileSync(path.join(dir, 'org/user.ts'), 'utf8')).toBe('export const total: number = 1\n')
    expect(fs.existsSync(path.join(dir, 'org/extra.ts'))).toBe(true)
    fs.writeFileSync(
      path.join(dir, 'org/user.org'),
      org(
        '#+begin_src typescript :tangle user.ts',
        "import {extra} from './extra.ts'",
        'export const total: string = extra',
        '#+end_src',
      ),
    )
    expect((await session.recheck([path.join(dir, 'org/user.org')])).diagnostics).toEqual([])
    fs.writeFileSync(
      path.join(dir, 'org/extra.org'),
      org('#+begin_src typescript :tangle extra2.ts', 'export const extra = 2', '#+end_src'),
    )
    fs.rmSync(path.join(dir, 'org/extra.ts'))
    const gone = await session.recheck([path.join(dir, 'org/extra.org')])
    expect(gone.diagnostics.map((message) => formatDiagnostic(message, dir))).toEqual([
      "org/user.org:2:21: error TS2307: Cannot find module './extra.ts' or its corresponding type declarations. [ts]",
    ])
  })

  it('follows an import to the file it leads to once the file it led to is gone', async () => {
    const {session, dir} = await warmCase('moved')
    fs.writeFileSync(path.join(dir, 'org/extra.org'), writing('extra-moved.ts', 'export const extra = 1'))
    fs.rmSync(path.join(dir, 'org/extra.ts'))
    expect((await session.recheck([path.join(dir, 'org/extra.org')])).diagnostics).toEqual([])
    const folder = writing('extra/index.ts :mkdirp yes', "export const extra = 'two'")
    fs.writeFileSync(path.join(dir, 'org/folder.org'), folder)
    expect(printed(await session.recheck([path.join(dir, 'org/folder.org')]), dir)).toEqual([typeError])
  })

  it('re-checks a document that imports a file no document wrote yet, once one writes it', async () => {
    const {session, dir, messages} = await warmCase('later')
    expect(messages).toEqual([
      "org/user.org:2:21: error TS2307: Cannot find module './later.ts' or its corresponding type declarations. [ts]",
    ])
    fs.writeFileSync(path.join(dir, 'org/later.org'), writing('later.ts', "export const later = 'text'"))
    expect(printed(await session.recheck([path.join(dir, 'org/later.org')]), dir)).toEqual([typeError])
  })

  it('takes the files of deferred documents only once one of them is re-checked, and checks it then', async () => {
    const {session, dir} = await warmCase('deferred')
    fs.writeFileSync(path.join(dir, 'org/base.org'), writing('base.ts', "export const base = 'one'"))
    // Its importer is not in the warm program: the re-check does not reach it.
    expect(printed(await session.recheck([path.join(dir, 'org/base.org')]), dir)).toEqual([])
    const user = path.join(dir, 'org/core/user.org')
    const error = "org/core/user.org:3:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]"
    expect(printed(await session.recheck([user]), dir)).toEqual([error])
    // Once in, it is re-checked with what it imports.
    fs.writeFileSync(path.join(dir, 'org/base.org'), writing('base.ts', 'export const base = 2'))
    expect(printed(await session.recheck([path.join(dir, 'org/base.org')]), dir)).toEqual([])
    fs.writeFileSync(path.join(dir, 'org/base.org'), writing('base.ts', "export const base = 'two'"))
    expect(printed(await session.recheck([path.join(dir, 'org/base.org')]), dir)).toEqual([error])
  })

  it('is built after two re-checks by the native compiler, for the next saves, in a process that leaves once idle', async () => {
    const dir = project({
      'org/base.org': writing('base.ts', 'export const base = 1'),
      'org/user.org': writing('user.ts', "import {base} from './base.ts'", 'export const total: number = base'),
    })
    const {messages, session} = await check(dir, new ProjectSession({project: dir, checkerIdleMs: 3000}))
    expect(messages).toEqual([])
    // A whole check is the native compiler's: no warm program yet.
    expect(checkersOf(dir)).toEqual([])
    // The first save is checked natively, and refused at its Org line: what its document wrote stays as it was.
    const user = path.join(dir, 'org/user.org')
    fs.writeFileSync(user, writing('user.ts', "import {base} from './base.ts'", "export const total: number = 'one'"))
    const first = await session.recheck([user])
    expect([first.checker, printed(first, dir), first.keptOut]).toEqual(['native', [typeError], [user]])
    expect(fs.readFileSync(path.join(dir, 'org/user.ts'), 'utf8')).toContain('total: number = base')
    // The second is too, and has the warm program built: the saves are native until it is ready, then warm.
    const fixed = writing('user.ts', "import {base} from './base.ts'", 'export const total: number = base')
    fs.writeFileSync(user, fixed)
    expect(await session.recheck([user])).toMatchObject({checker: 'native', diagnostics: []})
    // The build that save began is waited for (warmUp takes it as it is), not saved over again and again: each save
    // meanwhile was one more run of the native compiler beside the build, ten of them on a loaded machine.
    expect(await checkerStarted(dir)).toBe(true)
    await session.warmUp()
    fs.writeFileSync(user, fixed)
    expect(await session.recheck([user])).toMatchObject({checker: 'warm', diagnostics: []})
    expect(checkersOf(dir)).toHaveLength(1)
    // Once its process left, idle, the next save is the native compiler's again, with what it finds at the Org line.
    expect(await checkersGone(dir)).toBe(true)
    const base = path.join(dir, 'org/base.org')
    fs.writeFileSync(base, writing('base.ts', "export const base = 'two'"))
    const again = await session.recheck([base])
    expect([again.checker, printed(again, dir)]).toEqual(['native', [typeError]])
    await session.close()
    expect(checkersOf(dir)).toEqual([])
  })

  it('says, by the native compiler, what a save broke in a file that imports it, not the errors check said of others', async () => {
    const dir = project({
      'org/base.org': writing('base.ts', 'export const base = 1'),
      'org/user.org': writing('user.ts', "import {base} from './base.ts'", 'export const total: number = base'),
      'org/other.org': writing('other.ts', "export const other: number = 'one'"),
    })
    const {messages, session} = await check(dir)
    const otherError = "org/other.org:2:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]"
    expect(messages).toEqual([otherError])
    // A save of base that breaks nothing: other's error stands, said by check, not again.
    const base = path.join(dir, 'org/base.org')
    fs.writeFileSync(base, writing('base.ts', 'export const base = 2'))
    const kept = await session.recheck([base])
    expect([kept.checker, printed(kept, dir)]).toEqual(['native', []])
    // One that breaks user, which imports it: user's new error is said, and still not other's.
    fs.writeFileSync(base, writing('base.ts', "export const base = 'two'"))
    const broke = await session.recheck([base])
    expect([broke.checker, printed(broke, dir)]).toEqual(['native', [typeError]])
    await session.close()
  })
})

describe('a warm re-check of documents that come after edits', () => {
  const saves = [
    [1, 'node:readline', 'Interface'],
    [2, 'node:os', 'CpuInfo'],
    [3, 'node:readline', 'Interface'],
  ] as const

  // ts-morph kept a node of each import no file of the program answers (`node:os`) and looked at it again when a
  // file was added: once its file had been edited, that node belonged to a tree that no longer existed.
  it('takes a new document after an edit of one importing a built-in module, in one re-check or the next', async () => {
    const {session, dir} = await warmCase('edits')
    for (const [k, module, type] of saves) {
      const first = usingNode('first', 'node:os', k % 2 ? 'NetworkInterfaceInfo' : 'CpuInfo')
      fs.writeFileSync(path.join(dir, 'org/first.org'), first)
      fs.writeFileSync(path.join(dir, `org/new${k}.org`), usingNode(`new${k}`, module, type))
      const report = await session.recheck([path.join(dir, 'org/first.org'), path.join(dir, `org/new${k}.org`)])
      expect([report.checker, report.diagnostics]).toEqual(['warm', []])
      fs.writeFileSync(path.join(dir, `org/next${k}.org`), usingNode(`next${k}`, module, type))
      expect((await session.recheck([path.join(dir, `org/next${k}.org`)])).diagnostics).toEqual([])
    }
  })
})
