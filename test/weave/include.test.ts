/**
 * `#+INCLUDE:` lines as Org's export reads them (include.ts): the file, what it is shown as, and which of its
 * lines, `:lines "A-B"` taking A to B with B excluded. One row a form, on a real file of five lines.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {includedText, parseInclude} from '../../tools/weave/include.ts'

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-include-'))
fs.writeFileSync(path.join(folder, 'five.txt'), 'one\ntwo\nthree\nfour\nfive\n')
const document = path.join(folder, 'doc.org')

const ROWS: {value: string; as: unknown; text: string}[] = [
  {value: '"five.txt"', as: {kind: 'org'}, text: 'one\ntwo\nthree\nfour\nfive\n'},
  {value: 'five.txt :lines "2-4"', as: {kind: 'org'}, text: 'two\nthree\n'},
  {value: '"five.txt" :lines "2-3"', as: {kind: 'org'}, text: 'two\n'},
  {value: '"five.txt" :lines "2-2"', as: {kind: 'org'}, text: ''},
  {value: '"five.txt" :lines "-3"', as: {kind: 'org'}, text: 'one\ntwo\n'},
  {value: '"five.txt" :lines "4-"', as: {kind: 'org'}, text: 'four\nfive\n'},
  {value: '"five.txt" src typescript :lines "5-"', as: {kind: 'src', language: 'typescript'}, text: 'five\n'},
  {value: '"five.txt" example', as: {kind: 'example'}, text: 'one\ntwo\nthree\nfour\nfive\n'},
  {value: '"five.txt" export html', as: {kind: 'export', backend: 'html'}, text: 'one\ntwo\nthree\nfour\nfive\n'},
]

describe('#+INCLUDE:', () => {
  it.each(ROWS)('$value', ({value, as, text}) => {
    const include = parseInclude(value, document)!
    expect(include.file).toBe(path.join(folder, 'five.txt'))
    expect(include.as).toEqual(as)
    expect(includedText(include)).toBe(text)
  })

  it.each([
    ['a named pipe', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file)],
  ])('refuses %s, at once, saying why', (name, make) => {
    const file = path.join(folder, `${name.replaceAll(/\W/g, '-')}.txt`)
    make(file)
    expect(() => includedText(parseInclude(`"${path.basename(file)}"`, document)!)).toThrow(/not a regular file/)
  })

  it('names no file when the line is empty', () => {
    expect(parseInclude('   ', document)).toBeUndefined()
  })
})
