/**
 * The colours of code (highlight.ts): a language whose grammar is loaded is coloured, each token a class; one with
 * no grammar, or whose grammar was not loaded, is plain text, never an error. One highlighter for the table.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Highlighter} from '../../tools/weave/highlight.ts'

let highlighter: Highlighter
beforeAll(async () => {
  highlighter = await Highlighter.load(['ts', 'elisp', 'no-such-language', null])
})
afterAll(() => highlighter.dispose())

describe('the highlighter', () => {
  it.each([
    ['typescript', true],
    ['ts', true],
    ['emacs-lisp', true],
    ['python', false],
    ['no-such-language', false],
    [null, false],
  ])('%s: coloured %s', (language, coloured) => {
    const lines = ['(defun one () 1) const x = 1', 'return x']
    const tokens = highlighter.tokens(lines, language)
    expect(tokens.map((line) => line.map((token) => token.text).join(''))).toEqual(lines)
    expect(tokens.flat().some((token) => token.kind?.startsWith('t-token-'))).toBe(coloured)
  })
})
