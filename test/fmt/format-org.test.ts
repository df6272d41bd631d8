/**
 * The code blocks of Org documents formatted in place, on real files: what the
 * blocks tangle to afterwards is what Prettier makes of what they tangled to
 * before, and what lies around them is kept.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {block, fmt, prettierFormat, printed, project, tangled} from './support.ts'

describe('fmt on an Org document', () => {
  it('formats a block in place and keeps the prose, headlines and other blocks as they were', async () => {
    const before = [
      '#+TITLE: A   title kept   as it is',
      '* Intent   ',
      'Prose  with  double spaces;',
      block(':tangle a.ts', 'export const a = {b:1, c:"two"};', 'export function f(x:number){return x*2}'),
      '#+begin_src sh :tangle run.sh',
      'echo   "kept"',
      '#+end_src',
      '',
    ].join('\n')
    const dir = project({'doc.org': before})
    const expected = await prettierFormat(tangled(dir, 'doc.org')['a.ts']!)
    const {report, text} = await fmt(dir, 'doc.org')
    expect(report.files).toMatchObject([{changed: true, blocks: [{line: 4, status: 'changed', shape: 'program'}]}])
    expect(text).toBe(before.replace(/(?<=:tangle a\.ts\n)[^]*?(?=#\+end_src)/, expected))
    expect(tangled(dir, 'doc.org')).toMatchObject({'a.ts': expected, 'run.sh': 'echo   "kept"\n'})
  })

  it('keeps the noweb references of a block whose :noweb expands them, and formats the methods they name', async () => {
    const before = [
      '* Scanner',
      block(
        ':tangle scanner.ts :noweb yes',
        'export class Scanner {',
        '  private at=0',
        '',
        '  <<scanner-words>>',
        '',
        '  <<scanner-end>>',
        '}',
      ),
      '#+name: scanner-words',
      block(':tangle no', 'words(): string[] {', '  return ["a",\'b\']', '}', '', 'private  skip() { this.at++ }'),
      '#+name: scanner-end',
      block(':tangle no', 'get end(): boolean { return this.at>=10 }'),
      '',
    ].join('\n')
    const dir = project({'doc.org': before})
    const expected = await prettierFormat(tangled(dir, 'doc.org')['scanner.ts']!)
    const {report, text} = await fmt(dir, 'doc.org')
    expect(report.diagnostics).toEqual([])
    expect(report.files[0]!.blocks!.map((outcome) => outcome.shape)).toEqual(['program', 'class-body', 'class-body'])
    expect(text).toContain('  <<scanner-words>>\n\n  <<scanner-end>>\n}')
    expect(text).toContain(
      "#+name: scanner-words\n#+begin_src typescript :tangle no\nwords(): string[] {\n  return ['a', 'b']",
    )
    // Org puts the reference's indentation before each line it pulls in, blank ones too.
    expect(tangled(dir, 'doc.org')['scanner.ts']!.replaceAll(/^ +$/gm, '')).toBe(expected)
  })

  it('reads <<name>> as code where :noweb is off: a block that does not parse is kept, with a warning', async () => {
    const body = ['export const  a = 1', 'export const b = <<value>>', 'export const c = [ 1 ]']
    const before = `* Values\n${block(':tangle a.ts', ...body)}\n`
    const dir = project({'doc.org': before})
    const {report, text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before)
    expect(report.files).toMatchObject([{changed: false, blocks: [{status: 'skipped'}]}])
    expect(printed(report, dir)).toEqual([
      'doc.org:4:18: warning: the block does not parse (Expression expected.): it is left as it is [fmt/parse]',
    ])
  })

  it('warns, and keeps the block, when formatting would move a reference off its own line', async () => {
    const before = `${block(':tangle a.ts :noweb yes', 'const value =', '  <<the-value>>', 'export {value}')}\n`
    const dir = project({'doc.org': before})
    const {report, text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before)
    expect(printed(report, dir)).toEqual([
      'doc.org:3:3: warning: formatting would move or split the noweb reference <<the-value>>: ' +
        'the block is left as it is [fmt/noweb]',
    ])
  })

  it("keeps Org's comma escapes: a line that needs one, and one the author escaped", async () => {
    const before = [
      block(
        ':tangle a.ts',
        'export const doc = `',
        ',* Not a headline',
        ',#+end_src is not the end',
        '`',
        '/**',
        ' ,* escaped by its author',
        ' * not escaped',
        ' */',
        'export const  b = 2',
      ),
      '',
    ].join('\n')
    const dir = project({'doc.org': before})
    const code = tangled(dir, 'doc.org')['a.ts']!
    expect(code).toContain('\n* Not a headline\n#+end_src is not the end\n')
    const {text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before.replace('export const  b = 2', 'export const b = 2'))
    expect(tangled(dir, 'doc.org')['a.ts']).toBe(await prettierFormat(code))
  })

  it("keeps a block's own indentation (Emacs removes it on tangle) and formats the code under it", async () => {
    const before = [
      '- an item',
      '    #+begin_src typescript :tangle a.ts',
      '    export function f(a:number) {',
      '        return a+1',
      '    }',
      '    #+end_src',
      '',
    ].join('\n')
    const dir = project({'doc.org': before})
    const {text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before.replace('        return a+1', '      return a + 1').replace('(a:number)', '(a: number)'))
    expect(tangled(dir, 'doc.org')['a.ts']).toBe('export function f(a: number) {\n  return a + 1\n}\n')
  })

  it('formats a class written over several blocks: the one that opens it, its middle, the one closing it', async () => {
    const before = [
      '* Counter',
      ':PROPERTIES:',
      ':header-args:typescript: :tangle counter.ts',
      ':END:',
      block('', 'export class Counter {', '  private n=0', ''),
      'Counting up:',
      block('', '  up(): number {', '    return ++this.n', '  }'),
      'Counting down, and the end of the class:',
      block('', '  down( ): number { return --this.n }', '}'),
      '',
    ].join('\n')
    const dir = project({'doc.org': before})
    const {report, text} = await fmt(dir, 'doc.org')
    expect(report.diagnostics).toEqual([])
    expect(report.files[0]!.blocks!.map((outcome) => outcome.shape)).toEqual(['class-head', 'class-body', 'class-tail'])
    expect(text).toContain('#+begin_src typescript\nexport class Counter {\n  private n = 0\n#+end_src')
    expect(text).toContain('#+begin_src typescript\n  up(): number {\n    return ++this.n\n  }\n#+end_src')
    expect(text).toContain('#+begin_src typescript\n  down(): number {\n    return --this.n\n  }\n}\n#+end_src')
  })

  it('formats the other blocks of a document when one does not parse', async () => {
    const before = `${block(':tangle a.ts', 'export const a = [1,2]')}\n${block(':tangle b.ts', 'export const = 2')}\n`
    const dir = project({'doc.org': before})
    const {report, text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before.replace('[1,2]', '[1, 2]'))
    expect(printed(report, dir)).toEqual([
      'doc.org:5:14: warning: the block does not parse (Variable declaration expected.): it is left as it is ' +
        '[fmt/parse]',
    ])
  })

  it('keeps the line endings of a CRLF document and its byte-order mark', async () => {
    const crlf = block(':tangle a.ts', 'export const a = {b:1}').replaceAll('\n', '\r\n')
    const before = `\uFEFF* A\r\n${crlf}\r\nafter\r\n`
    const dir = project({'doc.org': before})
    const {text} = await fmt(dir, 'doc.org')
    expect(text).toBe(before.replace('{b:1}', '{b: 1}'))
  })

  it('gives the same document when run again (idempotent)', async () => {
    const dir = project({
      'doc.org': [
        block(':tangle a.ts :noweb yes', 'export class A {', '<<members>>', '}'),
        '#+name: members',
        block('', 'm( a:string ){return `x', '  ${a}`}', `static readonly  long = [${"'a', ".repeat(30)}'b']`),
        '',
      ].join('\n'),
    })
    const once = (await fmt(dir, 'doc.org')).text
    const again = await fmt(dir, 'doc.org')
    expect(again.report.files[0]!.changed).toBe(false)
    expect(again.text).toBe(once)
    expect(once).toContain('m(a: string) {\n  return `x\n  ${a}`\n}')
  })

  it('writes nothing with check, and says the document would change', async () => {
    const before = `${block(':tangle a.ts', 'export const a=1')}\n`
    const dir = project({'doc.org': before})
    const {report, text} = await fmt(dir, 'doc.org', true)
    expect(report.files[0]!.changed).toBe(true)
    expect(text).toBe(before)
    expect(fs.readdirSync(dir).sort()).toEqual(['doc.org', 'package.json'])
  })

  it('formats a code file whole, and keeps one that does not parse with a warning at its line', async () => {
    const dir = project({'good.ts': 'export const a = {b:1};\n', 'bad.ts': 'export const a = 1\nexport const = 2\n'})
    expect((await fmt(dir, 'good.ts')).text).toBe('export const a = {b: 1}\n')
    const bad = await fmt(dir, 'bad.ts')
    expect(bad.text).toBe('export const a = 1\nexport const = 2\n')
    expect(printed(bad.report, dir)).toEqual([
      'bad.ts:2:14: warning: the file does not parse (Variable declaration expected.): it is left as it is [fmt/parse]',
    ])
  })

  it('keeps code nested deeper than the formatter reads as it is, with a warning and no stack trace', async () => {
    const deep = `export const a = ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`
    const dir = project({'deep.ts': deep, 'doc.org': `${block('', deep.trimEnd())}\n`})
    const file = await fmt(dir, 'deep.ts')
    expect(file.text).toBe(deep)
    expect(printed(file.report, dir)).toEqual([
      'deep.ts:1:1: warning: the file does not parse (it nests deeper than the formatter reads): it is left as it is ' +
        '[fmt/parse]',
    ])
    const document = await fmt(dir, 'doc.org')
    expect(printed(document.report, dir)).toEqual([expect.stringMatching(/^doc\.org:\d+:\d+: warning: .*nests deeper/)])
  })

  it('keeps the mode of the file it writes, and leaves no temporary file beside it', async () => {
    const dir = project({'tool.ts': 'export const a = 1;\n'})
    fs.chmodSync(path.join(dir, 'tool.ts'), 0o755)
    await fmt(dir, 'tool.ts')
    expect(fs.statSync(path.join(dir, 'tool.ts')).mode & 0o777).toBe(0o755)
    expect(fs.readdirSync(dir).sort()).toEqual(['package.json', 'tool.ts'])
  })
})
