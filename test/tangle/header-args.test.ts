/**
 * Header arguments: splitting, reading values (org-babel-read), merging
 * (org-babel-merge-params) and inheritance (org-entry-get), each rule as Org
 * 9.5 implements it.
 */
import {describe, expect, it} from 'vitest'
import {babelRead, printLisp} from '../../tools/tangle/elisp.ts'
import {Failure} from '../../tools/tangle/failure.ts'
import {balancedSplit, parseHeaderArguments} from '../../tools/tangle/header-args.ts'
import {mergeParams} from '../../tools/tangle/params.ts'
import {planDocument} from '../../tools/tangle/tangle-document.ts'

const parse = (text: string, evaluate = false) => parseHeaderArguments(text, evaluate).map((arg) => [arg.name, arg.value])
const str = (value: string) => ({kind: 'string', value})

describe('splitting', () => {
  it('splits on a blank followed by a colon, dropping the blank', () => {
    expect(parse(':tangle a.ts   :comments link')).toEqual([
      [':tangle', str('a.ts')],
      [':comments', str('link')],
    ])
  })

  it('keeps double-quoted strings and bracketed groups whole', () => {
    expect(parse(':prologue "x :y" :tangle (concat "a" " :b")')).toEqual([
      [':prologue', str('x :y')],
      [':tangle', str('(concat "a" " :b")')],
    ])
  })

  it('reads a name without a value as nil, and keeps unknown names as written', () => {
    expect(parse(':mkdirp :TANGLE x.ts')).toEqual([
      [':mkdirp', {kind: 'nil'}],
      [':TANGLE', str('x.ts')],
    ])
  })

  it('splits several variables given to one :var', () => {
    expect(parse(':var a=1 b = "two words"')).toEqual([
      [':var', str('a=1')],
      [':var', str('b="two words"')],
    ])
  })

  it('treats an unbalanced bracket as an ordinary character', () => {
    expect(balancedSplit('a (b :c', (past, next) => (past === ' ' || past === '\t') && next === ':', true)).toEqual(['a (b', 'c'])
  })
})

describe('reading values', () => {
  it('reads numbers as numbers: integers, a trailing point, floats and exponents', () => {
    expect(['493', '-3', '5.', '1.5', '.5', '1e3', '1-2', '0x10'].map((cell) => babelRead(cell, false))).toEqual([
      {kind: 'number', value: 493, integer: true},
      {kind: 'number', value: -3, integer: true},
      {kind: 'number', value: 5, integer: true},
      {kind: 'number', value: 1.5, integer: false},
      {kind: 'number', value: 0.5, integer: false},
      {kind: 'number', value: 1000, integer: false},
      str('1-2'),
      str('0x10'),
    ])
  })

  it('reads double-quoted strings with Lisp escapes, ignoring what follows', () => {
    expect(babelRead(String.raw`"a\"b\\c\n\t\x41\101" rest`, false)).toEqual(str('a"b\\c\n\tAA'))
    expect(() => babelRead('"unterminated', false)).toThrow()
  })

  it('keeps Lisp forms as text in light mode and evaluates them otherwise, keeping as forms those it cannot', () => {
    expect(babelRead('(identity #o600)', false)).toEqual(str('(identity #o600)'))
    expect(babelRead('(identity #o600) ignored', true)).toEqual({kind: 'number', value: 384, integer: true})
    expect(babelRead('(concat "a" "b")', true)).toEqual(str('ab'))
    expect(babelRead("'sym", true)).toEqual({kind: 'lisp', source: "'sym", reason: expect.stringContaining('its value is sym')})
    expect(babelRead('(getenv "HOME")', true)).toEqual({kind: 'lisp', source: '(getenv "HOME")', reason: expect.stringContaining('the function getenv')})
  })

  it('prints values as %S does', () => {
    expect([str('say "hi"'), {kind: 'number', value: 5, integer: true}, {kind: 'number', value: 1e21, integer: false}, {kind: 'number', value: 100000, integer: false}].map((v) => printLisp(v as never))).toEqual([
      '"say \\"hi\\""',
      '5',
      '1e+21',
      '100000.0',
    ])
  })
})

describe('merging', () => {
  const merged = (...strings: string[]) => mergeParams(strings.map((s) => ({args: parseHeaderArguments(s, false), origin: undefined})))

  it('lets a later source replace an argument of an earlier one', () => {
    expect(merged(':tangle a.ts :padline no', ':tangle b.ts').string(':tangle')).toBe('b.ts')
  })

  it('accumulates :var by name, a redefined variable moving to the end', () => {
    const params = merged(':var a=1 b=2', ':var a=3')
    expect(params.vars.map((v) => v.value)).toEqual([str('b=2'), str('a=3')])
  })

  it('fails as Org does on a :var without a name, and on :results without a value', () => {
    expect(() => merged(':var 5')).toThrow(Failure)
    expect(() => merged(':results')).toThrow(Failure)
  })

  it('fails on a number where Org compares strings', () => {
    expect(() => merged(':tangle 5').string(':tangle')).toThrow(/number 5/)
  })
})

describe('inheritance and precedence', () => {
  const targets = (text: string) =>
    planDocument('/tmp/inherit.org', text, {boundary: {root: '/', allowed: []}}).targets.map((t) => [t.fileName, t.content])

  it('applies #+PROPERTY, the last plain line replacing the earlier ones and + appending', () => {
    const text = ['#+PROPERTY: header-args :tangle first.ts', '#+PROPERTY: header-args :tangle /tmp/second.ts', '#+PROPERTY: header-args+ :padline no', '* A', '#+begin_src sh', 'a', '#+end_src', '#+begin_src sh', 'b', '#+end_src', ''].join('\n')
    expect(targets(text)).toEqual([['/tmp/second.ts', 'a\nb\n']])
  })

  it('lets a language drawer or property beat a nearer general drawer', () => {
    const text = ['#+PROPERTY: header-args:sh :tangle /tmp/lang.sh', '* A', ':PROPERTIES:', ':header-args: :tangle /tmp/general.sh', ':END:', '#+begin_src sh', 'x', '#+end_src', ''].join('\n')
    expect(targets(text)).toEqual([['/tmp/lang.sh', 'x\n']])
  })

  it('lets the first #+HEADER line beat later ones and the #+begin_src line', () => {
    const text = ['#+HEADER: :tangle /tmp/first.sh', '#+HEADER: :tangle /tmp/second.sh', '#+begin_src sh :tangle /tmp/line.sh', 'x', '#+end_src', ''].join('\n')
    expect(targets(text)).toEqual([['/tmp/first.sh', 'x\n']])
  })

  it('inherits from the first headline when the file starts with one', () => {
    const text = ['* First', ':PROPERTIES:', ':header-args: :tangle /tmp/first.sh', ':END:', '* Second', '#+begin_src sh', 'x', '#+end_src', ''].join('\n')
    expect(targets(text)).toEqual([['/tmp/first.sh', 'x\n']])
  })

  it('stops at an empty definition and ignores a "nil" one', () => {
    const stop = ['* A', ':PROPERTIES:', ':header-args: :tangle /tmp/a.sh', ':END:', '** B', ':PROPERTIES:', ':header-args:', ':END:', '#+begin_src sh', 'x', '#+end_src', ''].join('\n')
    expect(targets(stop)).toEqual([])
  })
})
