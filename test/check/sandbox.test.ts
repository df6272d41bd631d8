/**
 * The sandbox rules on TypeScript sources: each rule caught in every form a
 * skill could write it, and let through when the capability is granted, when
 * a string, a comment or a property merely names it, when a local name
 * shadows the global, and when an import is for types only.
 */
import {ts} from 'ts-morph'
import {describe, expect, it} from 'vitest'
import {type Capability, parseCapabilities} from '../../tools/check/capabilities.ts'
import {findSandboxViolations, violationMessage} from '../../tools/check/sandbox.ts'
import {mayViolate} from '../../tools/check/suspects.ts'

/**
 * `rule what @line` for each violation of CODE without GRANTED. Every code
 * with a violation must also pass the textual pre-filter that spares the
 * parse of files that cannot hold one.
 */
function violations(code: string, granted: Capability[] = []): string[] {
  const source = ts.createSourceFile('skill.ts', code, ts.ScriptTarget.Latest, true)
  const found = findSandboxViolations(source, new Set(granted))
  if (findSandboxViolations(source, new Set()).length > 0) expect(mayViolate(code), `the pre-filter lets through: ${code}`).toBe(true)
  return found.map((violation) => `${violation.ruleId} ${violation.what} @${source.getLineAndCharacterOfPosition(violation.start).line + 1}`)
}

describe('restricted modules', () => {
  it.each([
    ["import {exec} from 'child_process'"],
    ["import cp from 'node:child_process'"],
    ["import * as cp from 'child_process'"],
    ["import {exec as run} from 'node:child_process'"],
    ["import 'child_process'"],
    ["export {exec} from 'child_process'"],
    ["export * from 'node:child_process'"],
    ["import cp = require('child_process')"],
    ["const cp = require('child_process')"],
    ['const cp = require(`child_process`)'],
    ["const {exec} = await import('node:child_process')"],
    ["const cp = module.require('child_process')"],
    ["import {createRequire} from 'node:module'\nconst cp = createRequire(import.meta.url)('child_process')"],
    ["import {createRequire} from 'module'\nconst req = createRequire(import.meta.url)\nconst cp = req('child_process')"],
    ["import * as m from 'node:module'\nconst req = m.createRequire(import.meta.url)\nreq('child_process')"],
    ["const {createRequire} = require('module')\nconst again = createRequire(__filename)\nagain('child_process')"],
  ])('catches %s', (code) => {
    expect(violations(code)).toEqual([`sandbox/restricted-import child_process @${code.split('\n').length}`])
  })

  it('names the capability each module needs', () => {
    const code = ["import 'worker_threads'", "import 'cluster'", "import 'node:vm'", "import 'inspector/promises'", "import 'node:http'", "import 'dns/promises'"].join('\n')
    expect(violations(code)).toEqual([
      'sandbox/restricted-import worker_threads @1',
      'sandbox/restricted-import cluster @2',
      'sandbox/restricted-import vm @3',
      'sandbox/restricted-import inspector @4',
      'sandbox/network http @5',
      'sandbox/network dns @6',
    ])
    expect(violations(code, ['threads', 'eval', 'native', 'net'])).toEqual([])
  })

  it('lets a granted capability through', () => {
    expect(violations("import {execSync} from 'node:child_process'\nexecSync('ls')", ['shell'])).toEqual([])
  })

  it('lets type-only imports through: they run nothing', () => {
    expect(violations("import type {ChildProcess} from 'child_process'\nimport {type Worker} from 'worker_threads'\nexport type {Socket} from 'node:net'")).toEqual([])
  })

  it('does not mistake strings, comments and property names for imports', () => {
    const code = [
      "// import {exec} from 'child_process'",
      "const note = \"require('child_process')\"",
      'const template = `import("node:child_process")`',
      'const table = {child_process: 1, fetch: 2, eval: 3}',
      'table.fetch + table.eval',
      '/* eval(code); fetch(url) */',
    ].join('\n')
    expect(violations(code)).toEqual([])
  })
})

describe('dynamic code', () => {
  it('catches eval, indirect eval and globalThis.eval', () => {
    expect(violations('eval("1")\nconst e = eval\nglobalThis.eval("2")')).toEqual(['sandbox/dynamic-code eval @1', 'sandbox/dynamic-code eval @2', 'sandbox/dynamic-code eval @3'])
  })

  it('catches new Function and Function()', () => {
    expect(violations('const f = new Function("return 1")\nconst g = Function("return 2")\nconst h = new globalThis.Function("")')).toEqual([
      'sandbox/dynamic-code new Function @1',
      'sandbox/dynamic-code Function() @2',
      'sandbox/dynamic-code new Function @3',
    ])
  })

  it('catches import() and require() of a computed name', () => {
    expect(violations("const name = 'child' + '_process'\nawait import(name)\nrequire(`${name}`)")).toEqual(['sandbox/dynamic-code import() of a computed name @2', 'sandbox/dynamic-code require() of a computed name @3'])
  })

  it('lets a local eval, Function checks and literal imports through', () => {
    expect(violations("function run(eval: (s: string) => void) { eval('x') }\nconst isFn = (x: unknown) => x instanceof Function\nawait import('node:path')")).toEqual([])
    expect(violations('eval("1")', ['eval'])).toEqual([])
  })
})

describe('native access', () => {
  it('catches process.binding, process.dlopen and their aliases', () => {
    const code = ["process.binding('fs')", "process['dlopen'](module, 'x.node')", 'globalThis.process._linkedBinding("x")', 'const {binding} = process', "import proc from 'node:process'\nproc.binding('fs')"].join('\n')
    expect(violations(code)).toEqual([
      'sandbox/native-access process.binding @1',
      'sandbox/native-access process.dlopen @2',
      'sandbox/native-access process._linkedBinding @3',
      'sandbox/native-access process.binding @4',
      'sandbox/native-access process.binding @6',
    ])
    expect(violations(code, ['native'])).toEqual([])
  })

  it('lets other process members and a local process through', () => {
    expect(violations('process.env.HOME\nprocess.cwd()\nfunction f(process: {binding: () => void}) { process.binding() }')).toEqual([])
  })
})

describe('file writes', () => {
  it.each([
    ["import fs from 'node:fs'\nfs.writeFileSync('x', 'y')", 'fs.writeFileSync'],
    ["import * as files from 'fs'\nfiles.rmSync('x')", 'fs.rmSync'],
    ["import {writeFile} from 'node:fs/promises'\nawait writeFile('x', 'y')", 'fs.writeFile'],
    ["import {promises} from 'fs'\nawait promises.appendFile('x', 'y')", 'fs.appendFile'],
    ["import fs from 'fs'\nawait fs.promises.mkdir('x')", 'fs.mkdir'],
    ["const fs = require('fs')\nfs.renameSync('a', 'b')", 'fs.renameSync'],
    ["const {writeFileSync: put} = require('node:fs')\nput('x', 'y')", 'fs.writeFileSync'],
    ["const fs = await import('node:fs')\nfs['unlinkSync']('x')", 'fs.unlinkSync'],
    ["import fs from 'fs'\nconst same = fs\nsame.createWriteStream('x')", 'fs.createWriteStream'],
    ["import fs from 'fs'\nconst p = fs.promises\nawait p.rm('x')", 'fs.rm'],
    ["import {openSync} from 'fs'\nopenSync('x', 'w')", 'fs.openSync'],
    ["import {openSync} from 'fs'\nconst flags = 'r'\nopenSync('x', flags)", 'fs.openSync'],
    ["require('fs').writeFileSync('x', 'y')", 'fs.writeFileSync'],
  ])('catches %s', (code, what) => {
    expect(violations(code)).toEqual([`sandbox/fs-write ${what} @${code.split('\n').length}`])
    expect(violations(code, ['fs'])).toEqual([])
  })

  it('lets reads, read-only opens and unrelated functions called writeFile through', () => {
    const code = [
      "import fs from 'node:fs'",
      "fs.readFileSync('x', 'utf8')",
      "fs.openSync('x')",
      "fs.openSync('x', 'r')",
      "fs.existsSync('x')",
      'function writeFile(name: string) { return name }',
      "writeFile('x')",
      "const store = {writeFile: (x: string) => x}\nstore.writeFile('y')",
    ].join('\n')
    expect(violations(code)).toEqual([])
  })
})

describe('network', () => {
  it('catches fetch, WebSocket, XMLHttpRequest and EventSource', () => {
    expect(violations("await fetch('https://example.com')\nnew WebSocket('ws://x')\nconst x = new XMLHttpRequest()\nconst f = globalThis.fetch\nconst {fetch: get} = {fetch}")).toEqual([
      'sandbox/network fetch @1',
      'sandbox/network WebSocket @2',
      'sandbox/network XMLHttpRequest @3',
      'sandbox/network fetch @4',
      'sandbox/network fetch @5',
    ])
  })

  it('lets a local fetch and a granted net through', () => {
    expect(violations('const fetch = (url: string) => url\nfetch("x")')).toEqual([])
    expect(violations("await fetch('x')\nimport https from 'node:https'", ['net'])).toEqual([])
  })
})

describe('the pre-filter', () => {
  it('does not parse a file that names nothing the rules look for', () => {
    expect(mayViolate("import {step} from './other.ts'\nexport const twice = (n: number) => step(n) * 2\n")).toBe(false)
  })

  it('parses a file whose unicode escapes could spell a name', () => {
    expect(violations('\\u0065val("1")\nimport /* why */ (name)')).toEqual(['sandbox/dynamic-code eval @1', 'sandbox/dynamic-code import() of a computed name @2'])
  })
})

describe('messages and capabilities', () => {
  it('names the skill, what it uses and the capability it lacks', () => {
    const source = ts.createSourceFile('skill.ts', "import {exec} from 'child_process'", ts.ScriptTarget.Latest, true)
    const [violation] = findSandboxViolations(source, new Set())
    expect(violationMessage('runner', violation!)).toBe("skill 'runner' uses child_process without the 'shell' capability")
  })

  it('reads #+CAPABILITIES: values in any case, separated by spaces or commas', () => {
    expect(parseCapabilities('Shell, fs  NET teleport')).toEqual({granted: ['shell', 'fs', 'net'], unknown: ['teleport']})
    expect(parseCapabilities('')).toEqual({granted: [], unknown: []})
  })
})
