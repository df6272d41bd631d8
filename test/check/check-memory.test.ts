/**
 * The check's memory (tools/check/check-memory.ts) on real projects, with the
 * real compiler: a check with nothing changed gives the last clean answer, and
 * each input the answer depends on, changed once, makes the next check run the
 * compiler and answer as a check with no memory does. Most changes are chosen
 * to turn the answer from clean to an error, so that an input the memory
 * missed shows as a wrong answer, not only as a flag.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {RACY_MS} from '../../tools/check/file-records.ts'
import {type NativeCompiler, nativeCompiler} from '../../tools/check/native-checker.ts'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {listOrgFiles} from '../../tools/project.ts'
import {type CheckerOptions, ProjectChecker} from '../../tools/session/project-checker.ts'
import {tangle} from '../../tools/tangle/tangle.ts'
import {olderThan} from '../support/file-age.ts'

const repo = path.resolve(import.meta.dirname, '../..')
const installed = nativeCompiler()!
// The declarations read are not checked themselves (skipLibCheck, as in every project here): the memory must follow
// them all the same, and checking Node's and the DOM's declarations cost each compiler run a second of CPU.
const BASE_CONFIG = {target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, skipLibCheck: true}
const tsconfig = (options: object = {}) => JSON.stringify({compilerOptions: {...BASE_CONFIG, noEmit: true, ...options}})

const org = (...lines: string[]) => `${lines.join('\n')}\n`
const block = (target: string, ...code: string[]) => [`#+begin_src typescript :tangle ${target} :mkdirp yes`, ...code, '#+end_src']

/** A project with node_modules/ (where the memory lives) and FILES, every one older than the racy tick. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-memory-'))
  const all = {'package.json': '{}', 'node_modules/.package-lock.json': '{"packages": {}}', 'tsconfig.json': tsconfig(), ...files}
  for (const [file, text] of Object.entries(all)) write(dir, file, text)
  for (const file of Object.keys(all)) await olderThan(path.join(dir, file), RACY_MS)
  return dir
}

function write(dir: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
  fs.writeFileSync(path.join(dir, file), text)
}

/**
 * One check of DIR's org/ folder in a new checker, as a new `passepartout check` process makes one; for the
 * tool build 'build-1' unless OPTIONS say otherwise (`tool: undefined`: nothing remembered).
 */
async function check(dir: string, options: Partial<CheckerOptions> = {}) {
  const files = listOrgFiles(path.join(dir, 'org'))
  const checker = new ProjectChecker({project: dir, allowOutside: [], warmOnly: false, writtenBefore: () => undefined, tool: 'build-1', ...options})
  const report = await checker.check(files, () => tangle({files, sourceMaps: 'write'}))
  return {remembered: report.remembered, messages: report.diagnostics.map((message) => formatDiagnostic(message, dir))}
}

/** A check that may answer from memory, and the answer of a full one, which it must equal. */
async function checkAgainstFull(dir: string, options: Partial<CheckerOptions> = {}) {
  const result = await check(dir, options)
  expect(result.messages).toEqual((await check(dir, {...options, tool: undefined})).messages)
  return result
}

/** Check DIR until its answer is remembered (the first check remembers; the second answers from memory). */
async function remembered(dir: string, options: Partial<CheckerOptions> = {}): Promise<string[]> {
  expect((await check(dir, options)).remembered).toBe(false)
  const again = await check(dir, options)
  expect(again.remembered).toBe(true)
  return again.messages
}

const memoryFile = (dir: string) => path.join(dir, 'node_modules/.cache/passepartout/check.json')

describe('a check with nothing changed', () => {
  it("gives the last clean answer, its warnings with it, and runs no compiler to find it", async () => {
    const dir = await project({
      'org/skills/runner.org': org(
        '#+TITLE: Runner',
        '#+CAPABILITIES: shell teleport',
        '* Code',
        ...block('../../generated/skills/runner.ts', "import {execSync} from 'node:child_process'", "export const run = () => execSync('ls')"),
      ),
      'tsconfig.json': tsconfig({types: ['node'], typeRoots: [path.join(repo, 'node_modules/@types')]}),
    })
    const warning = expect.stringMatching(/^org\/skills\/runner\.org:2:1: warning: 'teleport' is not a capability/)
    expect(await remembered(dir)).toEqual([warning])
    const again = await checkAgainstFull(dir)
    expect(again).toEqual({remembered: true, messages: [warning]})
  })

  it('keeps no answer with an error in it', async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = "one"'))})
    expect((await check(dir)).messages).toEqual([expect.stringMatching(/^org\/a\.org:2:14: error TS2322/)])
    expect(fs.existsSync(memoryFile(dir))).toBe(false)
    expect((await check(dir)).remembered).toBe(false)
  })

  it('answers from memory when only the prose of a document changed', async () => {
    const dir = await project({'org/a.org': org('* Code', ...block('../generated/a.ts', 'export const n: number = 1'))})
    await remembered(dir)
    write(dir, 'org/a.org', org('Prose first.', '', '* Code', ...block('../generated/a.ts', 'export const n: number = 1')))
    expect(await checkAgainstFull(dir)).toEqual({remembered: true, messages: []})
  })
})

describe('a changed input makes the check run the compiler again', () => {
  it("a generated file's content", async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
    await remembered(dir)
    write(dir, 'org/a.org', org(...block('../generated/a.ts', 'export const n: number = "one"')))
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:2:14: error TS2322/)]})
  })

  it('a hand-written file a generated one imports', async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', "import {limit} from '../lib/limit.ts'", 'export const n: number = limit')),
      'lib/limit.ts': 'export const limit = 10\n',
    })
    await remembered(dir)
    write(dir, 'lib/limit.ts', "export const limit = 'ten'\n")
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:3:14: error TS2322/)]})
  })

  it('tsconfig.json', async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', 'export function same(x) {', '  return x', '}')),
      'tsconfig.json': tsconfig({strict: false}),
    })
    await remembered(dir)
    write(dir, 'tsconfig.json', tsconfig({strict: true}))
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:2:\d+: error TS7006/)]})
  })

  it('a configuration tsconfig.json extends', async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', 'export function same(x) {', '  return x', '}')),
      'config/base.json': JSON.stringify({compilerOptions: {strict: false}}),
      'tsconfig.json': JSON.stringify({extends: './config/base', compilerOptions: {...BASE_CONFIG, noEmit: true}}),
    })
    await remembered(dir)
    write(dir, 'config/base.json', JSON.stringify({compilerOptions: {strict: true}}))
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:2:\d+: error TS7006/)]})
  })

  it("the declarations of a dependency's types in node_modules", async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', 'export const n: number = marker')),
      'node_modules/@types/marker/index.d.ts': 'declare const marker: number\n',
      'tsconfig.json': tsconfig({types: ['marker']}),
    })
    await remembered(dir)
    write(dir, 'node_modules/@types/marker/index.d.ts', 'declare const marker: string\n')
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:2:14: error TS2322/)]})
  })

  it("a package that appears in node_modules, as the package manager's record of it says", async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', "import {count} from 'untyped'", 'export const n: number = count')),
      'node_modules/untyped/package.json': '{"name": "untyped", "main": "index.js"}',
      'node_modules/untyped/index.js': 'exports.count = 1\n',
      'tsconfig.json': tsconfig({strict: false}),
    })
    // A package without types is `any` outside strict mode; types for it, once installed, are read instead.
    await remembered(dir)
    write(dir, 'node_modules/@types/untyped/index.d.ts', 'export declare const count: string\n')
    write(dir, 'node_modules/.package-lock.json', '{"packages": {"node_modules/@types/untyped": {}}}')
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:3:14: error TS2322/)]})
  })

  it("the capabilities a skill is granted, when its code did not change", async () => {
    const skill = (capabilities: string) =>
      org(
        '#+TITLE: Runner',
        capabilities,
        ...block('../../generated/skills/runner.ts', "import {execSync} from 'node:child_process'", "export const run = () => execSync('ls')"),
      )
    const dir = await project({
      'org/skills/runner.org': skill('#+CAPABILITIES: shell'),
      'tsconfig.json': tsconfig({types: ['node'], typeRoots: [path.join(repo, 'node_modules/@types')]}),
    })
    await remembered(dir)
    write(dir, 'org/skills/runner.org', skill('#+CAPABILITIES: net'))
    const after = await checkAgainstFull(dir)
    expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/uses child_process without the 'shell' capability/)]})
  })

  it("the tool's build", async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
    await remembered(dir)
    expect(await checkAgainstFull(dir, {tool: 'build-2'})).toEqual({remembered: false, messages: []})
  })

  it("the typescript package's version", async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
    await remembered(dir)
    const next: NativeCompiler = {...installed, version: `${installed.version}-next`}
    expect(await checkAgainstFull(dir, {compiler: next})).toEqual({remembered: false, messages: []})
  })

  describe('with a copy of the compiler', () => {
    let compiler: NativeCompiler
    let libFolder: string
    beforeAll(() => {
      libFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-compiler-')), 'lib')
      fs.cpSync(path.dirname(installed.command), libFolder, {recursive: true})
      fs.appendFileSync(path.join(libFolder, 'lib.es5.d.ts'), '\ndeclare var libMarker: number\n')
      compiler = {command: path.join(libFolder, 'tsc'), args: [], version: installed.version}
    })

    it('its lib files', async () => {
      const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = libMarker'))})
      await remembered(dir, {compiler})
      const lib = path.join(libFolder, 'lib.es5.d.ts')
      fs.writeFileSync(lib, fs.readFileSync(lib, 'utf8').replace('declare var libMarker: number', 'declare var libMarker: string'))
      const after = await checkAgainstFull(dir, {compiler})
      expect(after).toEqual({remembered: false, messages: [expect.stringMatching(/^org\/a\.org:2:14: error TS2322/)]})
    })

    it('its program file', async () => {
      const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
      await remembered(dir, {compiler})
      fs.copyFileSync(compiler.command, `${compiler.command}.new`)
      fs.renameSync(`${compiler.command}.new`, compiler.command)
      expect(await checkAgainstFull(dir, {compiler})).toEqual({remembered: false, messages: []})
    })
  })
})

describe('the memory file', () => {
  it('is not used when damaged or of another shape, and is written anew', async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
    await remembered(dir)
    const good = JSON.parse(fs.readFileSync(memoryFile(dir), 'utf8'))
    const damages = [{...good, inputs: 'none'}, {...good, roots: [{path: 7}]}, {...good, problems: [{line: 'one'}]}, {key: 7}, [], null]
    for (const damaged of ['{"key": "cut sho', ...damages.map((value) => JSON.stringify(value))]) {
      fs.writeFileSync(memoryFile(dir), damaged)
      expect(await check(dir)).toEqual({remembered: false, messages: []})
      expect((await check(dir)).remembered).toBe(true)
    }
  })

  it('keeps no answer when a file the compiler read changed while it ran', async () => {
    const dir = await project({
      'org/a.org': org(...block('../generated/a.ts', 'export const n: number = marker')),
      'node_modules/@types/marker/index.d.ts': 'declare const marker: number\n',
      'tsconfig.json': tsconfig({types: ['marker']}),
      // Runs the compiler after changing the declarations, the first time only.
      'slow-tsc.mjs': [
        "import {spawnSync} from 'node:child_process'",
        "import fs from 'node:fs'",
        'const [tsc, declarations, once, ...args] = process.argv.slice(2)',
        "if (!fs.existsSync(once)) { fs.writeFileSync(once, ''); fs.writeFileSync(declarations, fs.readFileSync(declarations)) }",
        "process.exitCode = spawnSync(tsc, args, {stdio: 'inherit'}).status",
      ].join('\n'),
    })
    const declarations = path.join(dir, 'node_modules/@types/marker/index.d.ts')
    const args = [path.join(dir, 'slow-tsc.mjs'), installed.command, declarations, path.join(dir, 'once')]
    const compiler = {command: process.execPath, args, version: installed.version}
    expect(await check(dir, {compiler})).toEqual({remembered: false, messages: []})
    await olderThan(declarations, RACY_MS)
    expect((await check(dir, {compiler})).remembered).toBe(false)
    expect((await check(dir, {compiler})).remembered).toBe(true)
  })
})

describe('passepartout check', () => {
  it('answers from memory the second time, and not with --no-cache', async () => {
    const dir = await project({'org/a.org': org(...block('../generated/a.ts', 'export const n: number = 1'))})
    const run = (...args: string[]) => {
      const env = {...process.env, DEBUG: 'passepartout:check'}
      const result = spawnSync(path.join(repo, 'bin/passepartout'), ['check', ...args], {cwd: dir, encoding: 'utf8', env})
      expect(result.status).toBe(0)
      return {stands: result.stderr.includes('the last clean answer stands'), out: result.stdout.replace(/\d+ ms/g, 'N ms')}
    }
    const first = run()
    expect(first.stands).toBe(false)
    expect(run()).toEqual({stands: true, out: first.out.replace('(0 unchanged)', '(1 unchanged)')})
    expect(run('--no-cache').stands).toBe(false)
  })
})
