/**
 * The sandbox rules on TypeScript sources: each rule caught in every form a
 * skill could write it, and let through when the capability is granted, when
 * a string, a comment or a property merely names it, when a local name
 * shadows the global, and when code does not run (types, `declare`).
 *
 * Each case is data: the code and the violations it must give, as
 * `rule@line` (the rule id without `sandbox/`, the 1-based line).
 */
import {Project} from 'ts-morph'
import {describe, expect, it} from 'vitest'
import {type Capability, parseCapabilities} from '../../tools/check/capabilities.ts'
import {findSandboxViolations, parse, violationMessage} from '../../tools/check/sandbox.ts'
import {mayViolate} from '../../tools/check/suspects.ts'

const project = new Project({useInMemoryFileSystem: true})

/**
 * `rule@line` for each violation of CODE without GRANTED. Code with a
 * violation must also pass the textual pre-filter that spares the parse of
 * files that cannot hold one.
 */
function violations(code: string, granted: Capability[] = []): string[] {
  const source = project.createSourceFile('skill.ts', code, {overwrite: true})
  if (findSandboxViolations(source, new Set()).length > 0) expect(mayViolate(code), `the pre-filter lets through: ${code}`).toBe(true)
  return findSandboxViolations(source, new Set(granted)).map((violation) => `${violation.ruleId.slice('sandbox/'.length)}@${source.getLineAndColumnAtPos(violation.start).line}`)
}

const lines = (...code: string[]) => code.join('\n')

/** Every way to load child_process, each caught on its last line. */
const LOADS_CHILD_PROCESS = [
  "import cp from 'child_process'",
  "import {exec as run} from 'node:child_process'",
  "import * as cp from 'child_process'",
  "import 'child_process'",
  "import {} from 'child_process'",
  "export {exec} from 'child_process'",
  "export * from 'node:child_process'",
  "export * as cp from 'child_process'",
  "import cp = require('child_process')",
  "export import cp = require('child_process')",
  "require('child_process')",
  'const cp = require("child_process")',
  'const cp = require(`child_process`)',
  "const cp = await import('child_process')",
  'const {exec} = await import("node:child_process")',
  "import('node:child_process').then((cp) => cp.exec('ls'))",
  "const cp = module.require('child_process')",
  "const cp = process.mainModule?.require('child_process')",
  "const cp = process.getBuiltinModule('node:child_process')",
  lines('const load = require', "load('child_process')"),
  lines("import {createRequire} from 'node:module'", "const cp = createRequire(import.meta.url)('child_process')"),
  lines("import {createRequire} from 'module'", 'const req = createRequire(import.meta.url)', "req('child_process')"),
  lines("import * as m from 'node:module'", 'const req = m.createRequire(import.meta.url)', "req('child_process')"),
  lines("const {createRequire} = require('module')", 'const again = createRequire(__filename)', "again('child_process')"),
]

describe('restricted modules', () => {
  // Some of these ways need `process` or the 'module' module, which need `native` of their own.
  it.each(LOADS_CHILD_PROCESS)('catches %s', (code) => {
    expect(violations(code, ['native'])).toEqual([`restricted-import@${code.split('\n').length}`])
    expect(violations(code, ['shell', 'native'])).toEqual([])
  })

  it.each<[string, Capability, string]>([
    ["import 'worker_threads'", 'threads', 'restricted-import'],
    ["import {fork} from 'node:cluster'", 'threads', 'restricted-import'],
    ["import vm from 'node:vm'", 'native', 'restricted-import'],
    ["import 'inspector/promises'", 'native', 'restricted-import'],
    ["import {run} from 'node:test'", 'native', 'restricted-import'],
    ["import Module from 'node:module'", 'native', 'restricted-import'],
    ["import {start} from 'repl'", 'native', 'restricted-import'],
    ["import os from 'os'", 'native', 'restricted-import'],
    ["import {createHash} from 'node:crypto'", 'native', 'restricted-import'],
    ...['net', 'node:http', 'https', 'http2', 'dgram', 'tls', 'dns/promises', '_http_client', 'node:_tls_wrap'].map((name): [string, Capability, string] => [`import '${name}'`, 'net', 'network']),
  ])('%s needs %s', (code, capability, rule) => {
    expect(violations(code)).toEqual([`${rule}@1`])
    expect(violations(code, [capability])).toEqual([])
  })

  it('lets the free modules of Node and packages of the same names through', () => {
    const code = lines("import path from 'node:path'", "import {fileURLToPath} from 'url'", "import {format} from 'node:util'", "import {readFileSync} from 'fs'", "import 'test'", "import 'os-utils'")
    expect(violations(code)).toEqual([])
  })

  it('reads a specifier spelled with escapes, which no text search would see', () => {
    expect(violations("import {execSync} from '\\x63hild_\\x70rocess'")).toEqual(['restricted-import@1'])
    expect(violations("const cp = require('child_\\\nprocess')")).toEqual(['restricted-import@1'])
  })

  it('lets type-only imports and exports through: they run nothing', () => {
    const code = lines(
      "import type {ChildProcess} from 'child_process'",
      "import {type Worker} from 'worker_threads'",
      "export type {Socket} from 'node:net'",
      "export {type Server} from 'node:http'",
      "type Spawn = typeof import('child_process').spawn",
      "let child: import('node:child_process').ChildProcess",
      "declare module 'child_process' { export function exec(command: string): void }",
    )
    expect(violations(code)).toEqual([])
  })

  it('does not mistake strings, comments and property names for imports', () => {
    const code = lines(
      "// import {exec} from 'child_process'",
      "const note = \"require('child_process')\"",
      'const template = `import("node:child_process")`',
      '/** @see {import("child_process")} */',
      'const table = {child_process: 1, vm: 2}',
      'const cell = table.child_process + table["vm"]',
      "import 'constructor'",
      "require('./child_process.ts')",
    )
    expect(violations(code)).toEqual([])
  })
})

describe('dynamic code', () => {
  it.each([
    ['eval("1")', ['dynamic-code@1']],
    ['const run = eval', ['dynamic-code@1']],
    ["(0, eval)('1')", ['dynamic-code@1']],
    ['globalThis.eval("1")', ['dynamic-code@1']],
    ["window['eval']('1')", ['dynamic-code@1']],
    ['const f = new Function("return 1")', ['dynamic-code@1']],
    ['const f = Function("return 1")', ['dynamic-code@1']],
    ['const f = new globalThis.Function("")', ['dynamic-code@1']],
    [lines('const Make = Function', 'Make("return 1")'), ['dynamic-code@2']],
    ['Function`return 1`', ['dynamic-code@1']],
    ['Reflect.apply(Function, null, ["return 1"])', ['dynamic-code@1']],
    [lines("const name = 'child' + '_process'", 'await import(name)'), ['dynamic-code@2']],
    ['require(`${settings.module}`)', ['dynamic-code@1']],
    ['process.getBuiltinModule(process.argv[2]!)', ['dynamic-code@1', 'native-access@1']],
    [lines("import {createRequire} from 'node:module'", 'const req = createRequire(import.meta.url)', 'req(settings.module)'), ['restricted-import@1', 'dynamic-code@3']],
    ['const loaders = [require]', ['dynamic-code@1']],
    ['import run = globalThis.eval', ['dynamic-code@1']],
    [lines("const Module = require('node:module')", "new Module()._compile('1', 'x.js')"), ['restricted-import@1', 'dynamic-code@2']],
    [lines("import {Module} from 'node:module'", "Module.wrap('1')"), ['dynamic-code@1', 'restricted-import@1']],
  ] as const)('catches %s', (code, expected) => {
    expect(violations(code)).toEqual(expected)
    expect(violations(code, ['eval', 'native'])).toEqual([])
  })

  it('lets a local eval, Function checks and literal imports through', () => {
    const code = lines(
      "function run(eval: (code: string) => void) { eval('x') }",
      'const isFunction = (x: unknown) => x instanceof Function',
      "const path = await import('node:path')",
      "const req = require.resolve('node:path')",
      "if (typeof eval === 'function' && typeof require !== 'undefined') {}",
    )
    expect(violations(code)).toEqual([])
  })
})

describe('native access', () => {
  it.each([
    ["process.binding('fs')", ['native-access@1']],
    ["process['dlopen'](module, 'x.node')", ['native-access@1']],
    ["globalThis.process._linkedBinding('x')", ['native-access@1']],
    ['const {binding} = process', ['native-access@1']],
    [lines("import proc from 'node:process'", "proc.binding('fs')"), ['restricted-import@1', 'native-access@2']],
    ["import {dlopen} from 'process'", ['native-access@1', 'restricted-import@1']],
    ["process.report.writeReport('/tmp/x')", ['native-access@1']],
    ['process.exit(0)', ['native-access@1']],
    ["process.kill(1, 'SIGKILL')", ['native-access@1']],
    ['const home = process.env.HOME', ['native-access@1']],
    ['const {env} = process', ['native-access@1']],
    [lines('const p = process', "p['binding']('fs')"), ['native-access@2']],
    ['inspect(process)', ['native-access@1']],
  ] as const)('catches %s', (code, expected) => {
    expect(violations(code)).toEqual(expected)
    expect(violations(code, ['native'])).toEqual([])
  })

  it('lets a test for process and a local process through', () => {
    const code = lines("if (typeof process !== 'undefined') {}", 'function f(process: {binding: () => void}) { process.binding() }')
    expect(violations(code)).toEqual([])
  })
})

describe('file writes', () => {
  it.each([
    [lines("import fs from 'node:fs'", "fs.writeFileSync('x', 'y')"), 2],
    [lines("import * as files from 'fs'", "files.rmSync('x')"), 2],
    ["import {writeFile} from 'node:fs/promises'", 1],
    ["import {writeFileSync as put} from 'fs'", 1],
    [lines("import {promises} from 'fs'", "await promises.appendFile('x', 'y')"), 2],
    [lines("import fs from 'fs'", "await fs.promises.mkdir('x')"), 2],
    [lines("import fsp from 'node:fs/promises'", "await fsp.rename('a', 'b')"), 2],
    [lines("import fs = require('fs')", "fs.symlinkSync('a', 'b')"), 2],
    [lines("const fs = require('fs')", "fs.renameSync('a', 'b')"), 2],
    ["const {writeFileSync: put} = require('node:fs')", 1],
    ["const {promises: {rm}} = require('fs')", 1],
    [lines("const fs = await import('node:fs')", "fs['unlinkSync']('x')"), 2],
    [lines("import fs from 'fs'", 'const same = fs', "same.createWriteStream('x')"), 3],
    [lines("import fs from 'fs'", 'const p = fs.promises', "await p.rm('x')"), 3],
    [lines("import fs from 'fs'", 'const {...all} = fs', "all.chmodSync('x', 0o600)"), 3],
    ["require('fs').writeFileSync('x', 'y')", 1],
    ["process.getBuiltinModule('fs').cpSync('a', 'b')", 1],
    [lines("import fs from 'fs'", 'const write = fs.writeFileSync', "write('x', 'y')"), 2],
    [lines("import fs from 'fs'", "fs.writeFileSync.call(null, 'x', 'y')"), 2],
    [lines("import {openSync} from 'fs'", "openSync('x', 'w')"), 2],
    [lines("import fs from 'fs'", "const flags = 'r'", "fs.openSync('x', flags)"), 3],
    [lines("import fs from 'fs'", "await fs.promises.open('x', 'a')"), 2],
    [lines("import fs from 'fs'", "fs.openSync('x', fs.constants.O_RDWR)"), 2],
    [lines("import {open} from 'fs'", 'const opens = [open]'), 2],
    [lines("import fs from 'fs'", 'save(fs)'), 2],
    [lines("import fs from 'fs'", "const name = 'writeFileSync'", "fs[name]('x', 'y')"), 3],
    [lines("import fs from 'fs'", 'export default fs'), 2],
    [lines("import * as fs from 'fs'", 'export {fs}'), 2],
    [lines("import fs from 'fs'", 'export const files = fs'), 2],
    [lines("import fs from 'node:fs'", "fs.readFileSync('/etc/hosts', {flag: 'w'})"), 2],
    [lines("import {readFile} from 'node:fs/promises'", "await readFile('x', {encoding: 'utf8', flag: 'a+'})"), 2],
    [lines("import fs from 'fs'", "fs.createReadStream('x', {flags: 'r+'})"), 2],
    [lines("import fs from 'fs'", 'const options = {flag: "w"}', "fs.readFileSync('x', options)"), 3],
    [lines("import fs from 'fs'", "fs.readFile('x', {...options}, () => {})"), 2],
    ["export * from 'node:fs'", 1],
    ["export {writeFile} from 'node:fs/promises'", 1],
    ["import('fs').then((fs) => fs.writeFileSync('x', 'y'))", 1],
  ] as const)('catches %s', (code, line) => {
    expect(violations(code)).toEqual([`fs-write@${line}`])
    expect(violations(code, ['fs'])).toEqual([])
  })

  it('lets reads, read-only opens and unrelated functions called writeFile through', () => {
    const code = lines(
      "import fs from 'node:fs'",
      "import {readFile} from 'node:fs/promises'",
      "fs.readFileSync('x', 'utf8')",
      "fs.readFileSync('x', {encoding: 'utf8', flag: 'r'})",
      "fs.createReadStream('x', {start: 0})",
      "await readFile('x')",
      "fs.openSync('x')",
      "fs.openSync('x', 'r')",
      "fs.openSync('x', 0)",
      "fs.open('x', (error, fd) => {})",
      "const {existsSync, statSync} = fs",
      'function writeFile(name: string) { return name }',
      "writeFile('x')",
      "const store = {writeFile: (x: string) => x, fs: 1}",
      "store.writeFile('y')",
      "function save(fs: {writeFileSync(name: string): void}) { fs.writeFileSync('x') }",
    )
    expect(violations(code)).toEqual([])
  })
})

describe('network', () => {
  it.each([
    ["await fetch('https://example.com')", 1],
    ["new WebSocket('ws://x')", 1],
    ['const request = new XMLHttpRequest()', 1],
    ["const events = new EventSource('/events')", 1],
    ['const get = globalThis.fetch', 1],
    ['const client = {fetch}', 1],
    ["class Feed extends EventSource {}", 1],
  ])('catches %s', (code, line) => {
    expect(violations(code)).toEqual([`network@${line}`])
    expect(violations(code, ['net'])).toEqual([])
  })

  it('lets a local fetch, a property called fetch and a test for fetch through', () => {
    const code = lines(
      'const fetch = (url: string) => url',
      'fetch("x")',
      "import {WebSocket} from './socket.ts'",
      "new WebSocket('x')",
      "client.fetch('x')",
      "if (typeof EventSource === 'undefined') {}",
    )
    expect(violations(code)).toEqual([])
  })
})

describe('names resolve by scope', () => {
  it.each([
    ['a parameter elsewhere does not hide the global', lines('function f(eval: unknown) {}', "eval('1')"), ['dynamic-code@2']],
    ['a block-scoped name does not leave its block', lines('{ const fetch = 1 }', "fetch('x')"), ['network@2']],
    ['a catch variable does not leave its clause', lines('try {} catch (fetch) {}', "fetch('x')"), ['network@2']],
    ['var is hoisted to its function', lines('function f() {', '  { var fetch = (x: string) => x }', "  fetch('x')", '}'), []],
    ['a declared global runs nothing', lines('declare const process: {binding(name: string): void}', "process.binding('fs')"), ['native-access@2']],
    ['a type-only import declares no value', lines("import type {fetch} from './types.ts'", "fetch('x')"), ['network@2']],
    ['an inner alias does not replace an outer one', lines("const fs = require('fs')", "function f() { const fs = require('path') }", "fs.writeFileSync('x', 'y')"), ['fs-write@3']],
    ['an alias declared later is still followed', lines("function f() { files.writeFileSync('x', 'y') }", "const files = require('fs')"), ['fs-write@1']],
    ["a function expression's name is its own", "const f = function fetch() { return fetch }", []],
    ['a class or enum hides the global', lines('class fetch {}', 'enum process { binding }', 'new fetch()', 'process.binding'), []],
    ['a namespace without code hides nothing: it is not emitted', lines('namespace fetch {}', "fetch('http://x')"), ['network@2']],
    ['a namespace of types hides nothing', lines('namespace eval { export type T = 1 }', "eval('1')"), ['dynamic-code@2']],
    ['a const enum hides nothing: it is inlined', lines('const enum fetch { A }', "fetch('x')"), ['network@2']],
    ['a namespace with code hides the global', lines('namespace fetch { export const x = 1 }', "fetch.x"), []],
  ] as const)('%s', (_, code, expected) => {
    expect(violations(code)).toEqual(expected)
  })
})

describe('the API', () => {
  it('reads a tree parsed without ts-morph, as the check session does', () => {
    const source = parse('skill.ts', "import 'node:fs'\nimport {exec} from 'child_process'")
    expect(findSandboxViolations(source, new Set()).map((violation) => [violation.ruleId, violation.start])).toEqual([['sandbox/restricted-import', 36]])
  })

  it('sorts the violations by their place in the text', () => {
    expect(violations(lines("await fetch('x')", 'eval("1")', "import 'node:child_process'"))).toEqual(['network@1', 'dynamic-code@2', 'restricted-import@3'])
  })

  it('names the skill, what it uses and the capability it lacks', () => {
    const messages = (code: string) => findSandboxViolations(parse('skill.ts', code), new Set()).map((violation) => violationMessage('runner', violation).reason)
    expect(messages("import {exec} from 'child_process'")).toEqual(["skill 'runner' uses child_process without the 'shell' capability"])
    expect(messages("import fs from 'fs'\nfs.writeFileSync('x', 'y')")).toEqual(["skill 'runner' writes files (fs.writeFileSync) without the 'fs' capability"])
    expect(messages("eval('1')\nfetch('x')")).toEqual(["skill 'runner' uses eval without the 'eval' capability", "skill 'runner' uses the network (fetch) without the 'net' capability"])
  })

  const none = {granted: [], reads: [], unknown: [], invalid: []}
  it.each([
    ['Shell, fs  NET', {granted: ['shell', 'fs', 'net']}],
    ['threads,eval teleport Native', {granted: ['threads', 'eval', 'native'], unknown: ['teleport']}],
    ['', {}],
    ['read', {granted: ['read'], reads: ['.']}],
    ['READ:notes read:~/recipes,read:/srv/data read:notes', {granted: ['read'], reads: ['notes', '~/recipes', '/srv/data']}],
    ['read read:notes', {granted: ['read'], reads: ['.', 'notes']}],
    ['read:', {invalid: [{word: 'read:', why: 'read: names no folder (a bare read is the project)'}]}],
    ['fs:notes net', {granted: ['net'], invalid: [{word: 'fs:notes', why: "only read names what it reaches: 'fs' takes no folder"}]}],
    ['teleport:x', {unknown: ['teleport:x']}],
  ])('reads #+CAPABILITIES: %j', (value, grants) => {
    expect(parseCapabilities(value)).toEqual({...none, ...grants})
  })
})

describe('the pre-filter', () => {
  it('does not parse a file that names nothing the rules look for', () => {
    expect(mayViolate("import {step} from './other.ts'\nexport const twice = (n: number) => step(n) * 2\n")).toBe(false)
  })

  it('parses a file whose unicode escapes could spell a name', () => {
    expect(violations('\\u0065val("1")\nimport /* why */ (name)')).toEqual(['dynamic-code@1', 'dynamic-code@2'])
  })
})
