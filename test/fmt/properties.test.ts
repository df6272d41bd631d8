/**
 * Properties of fmt over generated Org documents, written to real files: the
 * text outside the code blocks is kept byte for byte, formatting twice gives
 * what formatting once gave, and Org's escapes survive any line.
 */
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {changedWord} from '../../tools/fmt/format-code.ts'
import {escapedLines, escapeLine} from '../../tools/org/escape.ts'
import {formatFiles} from '../../tools/fmt/fmt.ts'
import {readOrg} from '../../tools/org/parse.ts'
import {project} from './support.ts'

/** Code for the blocks: programs and fragments, formatted or not, and some that do not parse. */
const code = fc.constantFrom(
  ['export const a = {b:1,c:[1,2,3]};'],
  ["import fs from 'node:fs'", 'export function read(file:string){return fs.readFileSync(file,"utf8")}'],
  ['export const x = 1'],
  ['method(a: number): number {', '  return a*2', '}', '', 'private  field = `multi', '  line ${1}`'],
  ['export class Open {', '  private n=0'],
  ['  close(): void {}', '}'],
  ['const broken = (', ''],
  ['/**', ' * A comment.', ' */', 'export type T = {a:string} | {b:number}'],
  ['const doc = `', ',* not a headline', ',#+begin_src inside', '`'],
  ['<<reference>>', 'export const after = [1,2]'],
  [`const long = [${'"aaaaaaaaaa", '.repeat(12)}1]`],
)

/** Text between blocks, as an Org document holds it. */
const prose = fc.constantFrom(
  '* A headline',
  '** TODO A task   :tag:',
  'Prose  with  spaces   at the end   ',
  '',
  '   ',
  '#+TITLE: kept',
  ':PROPERTIES:\n:header-args:typescript: :noweb yes\n:END:',
  '#+begin_src sh\necho  "not typescript"\n#+end_src',
  '#+begin_example\nconst   a=1\n#+end_example',
  '- an item',
  '#+name: reference',
)

const orgBlock = fc
  .record({
    language: fc.constantFrom('typescript', 'ts', 'js', 'typescript :noweb yes', 'typescript :noweb no'),
    indentation: fc.constantFrom('', '  ', '    '),
    lines: code,
  })
  .map(({language, indentation, lines}) =>
    [
      `${indentation}#+begin_src ${language}`,
      ...lines.map((line) => (line === '' ? '' : indentation + line)),
      `${indentation}#+end_src`,
    ].join('\n'),
  )

const document = fc
  .record({
    parts: fc.array(fc.oneof(prose, orgBlock), {minLength: 1, maxLength: 8}),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({parts, crlf, finalNewline}) => {
    const text = parts.join('\n') + (finalNewline ? '\n' : '')
    return crlf ? text.replaceAll('\n', '\r\n') : text
  })

/** The lines of TEXT outside the bodies of its TypeScript and JavaScript blocks, each with its line ending. */
function outsideCodeBlocks(text: string): string[] {
  const {root} = readOrg(text)
  const inside = new Set<number>()
  for (const node of root.children) {
    if (node.type !== 'srcBlock' || !['typescript', 'ts', 'js'].includes(node.language ?? '')) continue
    for (let line = node.open.start.line + 1; line < node.close.start.line; line++) inside.add(line)
  }
  // Split after each line ending, so that the endings are compared too.
  return text.split(/(?<=\r\n|\n)/).filter((_, k) => !inside.has(k + 1))
}

describe('fmt over generated documents', () => {
  it('keeps every byte outside the code blocks, and formats twice as once', async () => {
    const dir = project({})
    const file = path.join(dir, 'doc.org')
    let changed = 0
    await fc.assert(
      fc.asyncProperty(document, async (text) => {
        fs.writeFileSync(file, text)
        if ((await formatFiles([file], {check: false})).files[0]!.changed) changed++
        const once = fs.readFileSync(file, 'utf8')
        expect(outsideCodeBlocks(once)).toEqual(outsideCodeBlocks(text))
        const again = await formatFiles([file], {check: false})
        expect(again.files[0]!.changed).toBe(false)
        expect(fs.readFileSync(file, 'utf8')).toBe(once)
      }),
      {numRuns: 100},
    )
    // Documents whose blocks were formatted, not only ones fmt left alone.
    expect(changed).toBeGreaterThan(30)
  })
})

describe("Org's escapes", () => {
  /** `org-unescape-code-in-string`, as tangling applies it. */
  const unescape = (line: string) => line.replace(/^([ \t]*,*),(\*|#\+)/, '$1$2')
  const line = fc
    .array(fc.constantFrom(' ', '\t', ',', '*', '#', '+', 'a', '#+'), {maxLength: 8})
    .map((parts) => parts.join(''))

  it('tangle back to the line, and leave no line Org would read as a headline or a keyword', () => {
    fc.assert(
      fc.property(line, fc.array(line, {maxLength: 3}), (text, before) => {
        const escaped = escapeLine(text, escapedLines(before))
        expect(unescape(escaped)).toBe(text)
        expect(escaped).not.toMatch(/^\*|^[ \t]*#\+/)
      }),
      {numRuns: 2000},
    )
  })

  it('escape again a line its author escaped where it needed none', () => {
    expect(escapeLine('   * doc', escapedLines([' ,* doc']))).toBe('   ,* doc')
    expect(escapeLine('   * doc', new Set())).toBe('   * doc')
  })
})

describe('the words of the code', () => {
  it('are the same when only spaces, quotes, semicolons and parentheses change', () => {
    expect(changedWord('static  private x = "a b";', "private static x = 'a b'\n")).toBeUndefined()
    expect(changedWord('export const = 2', 'const = 2')).toBe("'export'")
    expect(changedWord('const n = 0XAB + 1E5', 'const n = 0xab + 1e5')).toBeUndefined()
  })
})
