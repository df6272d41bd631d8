/**
 * The little Emacs Lisp that tangling needs: how `org-babel-read` turns a
 * header-argument string into a value, and how `%S` prints one back.
 *
 * Org reads numbers as numbers, a double-quoted string with Lisp's reader, and
 * evaluates anything that starts like a Lisp form (`(`, `'`, `` ` ``, `[`).
 * We evaluate the pure subset of Lisp that lisp-eval.ts knows (string and
 * file-name functions, conditionals, `buffer-file-name`, `system-type`); a
 * form beyond it stays `lisp`, with the reason, so that the tangler can refuse
 * it where it matters instead of guessing.
 */
import {evaluateLisp, type LispContext} from './lisp-eval.ts'
import {type Datum, printDatum} from './lisp-read.ts'
import {BLANKS_AND_BREAKS, trimBoth} from '../org/trim.ts'

export type LispValue =
  | {kind: 'nil'}
  | {kind: 'string'; value: string}
  | {kind: 'number'; value: number; integer: boolean}
  /** A form passepartout does not evaluate; REASON names what it met first (a function, a variable, a value). */
  | {kind: 'lisp'; source: string; reason: string}

export const NIL: LispValue = {kind: 'nil'}

/** Raised where Emacs's reader would signal an error. */
export class LispReadError extends Error {}

/** Raised where evaluating FORM makes Emacs signal an error; the message is the error as `%S` prints it. */
export class LispEvalError extends LispReadError {
  constructor(
    readonly error: string,
    readonly form: string,
  ) {
    super(error)
  }
}

/**
 * `org-babel-read`: with `evaluate` false (Org's "light" mode) forms stay
 * strings; CONTEXT is the Org file forms are evaluated for (its buffer).
 */
export function babelRead(cell: string, evaluate: boolean, context?: LispContext): LispValue {
  if (!/[^ \r\t\n]/.test(cell)) return {kind: 'string', value: cell}
  const number = stringToNumber(cell)
  if (number) return number
  const first = cell[0]
  if (evaluate && (first === '(' || first === "'" || first === '`' || first === '[' || cell === '*this*')) {
    return evaluateForm(cell, context)
  }
  if (first === '"') return {kind: 'string', value: readString(cell, 0).value}
  return {kind: 'string', value: cell}
}

/** `org-babel--string-to-number`. */
export function stringToNumber(cell: string): LispValue | undefined {
  const trimmed = trimBoth(cell, BLANKS_AND_BREAKS)
  if (/[\t\n\f\r \u00a0\u2000-\u200b\u202f\u205f\u3000]/.test(trimmed)) return undefined
  if (!/^[0-9e.+ -]+$/.test(cell)) return undefined
  return readNumber(trimmed)
}

/** The Lisp reader's number syntax for a whole token, or undefined for a symbol. */
export function readNumber(token: string): LispValue | undefined {
  if (/^[+-]?[0-9]+\.?$/.test(token)) return {kind: 'number', value: Number.parseInt(token, 10), integer: true}
  const float = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?$/.exec(token)
  if (float && (token.includes('.') || token.includes('e'))) return {kind: 'number', value: Number(token), integer: false}
  return undefined
}

/** Read the Lisp string literal starting at `start` (a `"`); return its value and where it ends. */
export function readString(source: string, start: number): {value: string; end: number} {
  let value = ''
  for (let i = start + 1; i < source.length; ) {
    const c = source[i]!
    if (c === '"') return {value, end: i + 1}
    if (c !== '\\') {
      value += c
      i++
      continue
    }
    const escape = readEscape(source, i + 1)
    value += escape.text
    i = escape.end
  }
  throw new LispReadError('End of file during parsing: the string has no closing double quote')
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  f: '\f',
  v: '\v',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  d: '\x7f',
  s: ' ',
}

function readEscape(source: string, i: number): {text: string; end: number} {
  const c = source[i]
  if (c === undefined) throw new LispReadError('End of file during parsing: a backslash ends the string')
  if (c === '\n' || c === ' ') return {text: '', end: i + 1}
  if (c in SIMPLE_ESCAPES) return {text: SIMPLE_ESCAPES[c]!, end: i + 1}
  if (/[0-7]/.test(c)) {
    const digits = /^[0-7]{1,3}/.exec(source.slice(i))![0]
    return {text: String.fromCodePoint(Number.parseInt(digits, 8)), end: i + digits.length}
  }
  if (c === 'x') {
    const digits = /^[0-9a-fA-F]*/.exec(source.slice(i + 1))![0]
    return {text: character(digits ? Number.parseInt(digits, 16) : 0, `\\x${digits}`), end: i + 1 + digits.length}
  }
  if (c === 'u' || c === 'U') {
    const length = c === 'u' ? 4 : 8
    const digits = source.slice(i + 1, i + 1 + length)
    const bad = digits.search(/[^0-9a-fA-F]/)
    if (bad !== -1) throw new LispReadError(`Non-hex character used for Unicode escape: ${digits[bad]} (${digits.charCodeAt(bad)})`)
    if (digits.length < length) throw new LispReadError('End of file during parsing: the string ends inside a Unicode escape')
    return {text: character(Number.parseInt(digits, 16), `\\${c}${digits}`), end: i + 1 + length}
  }
  if (c === '^' || (c === 'C' && source[i + 1] === '-')) {
    const at = c === '^' ? i + 1 : i + 2
    const target = source[at]
    if (target === undefined) throw new LispReadError('End of file during parsing')
    const code = target === '?' ? 127 : target.toUpperCase().charCodeAt(0) & 31
    return {text: String.fromCharCode(code), end: at + 1}
  }
  if ((c === 'M' || c === 'S' || c === 'H' || c === 'A' || c === 'N') && (source[i + 1] === '-' || source[i + 1] === '{')) {
    throw new LispReadError(`The string escape \\${c}${source[i + 1]} is not supported by passepartout`)
  }
  return {text: c, end: i + 1}
}

/** The character CODE, refused beyond Unicode (Emacs has characters up to #x3FFFFF; JavaScript strings do not). */
function character(code: number, escape: string): string {
  if (code > 0x10ffff) throw new LispReadError(`The string escape ${escape} is beyond Unicode, which passepartout does not read`)
  return String.fromCodePoint(code)
}

/** `(eval (read SOURCE) t)`: a value, a form kept as `lisp` with the reason, or Emacs's error thrown. */
function evaluateForm(source: string, context: LispContext | undefined): LispValue {
  const outcome = evaluateLisp(source, context)
  if (outcome.kind === 'refused') return {kind: 'lisp', source, reason: outcome.reason}
  if (outcome.kind === 'error') throw new LispEvalError(outcome.error, source)
  return lispValue(outcome.value, source)
}

/** The values header arguments carry: strings, numbers and nil; anything else (t, symbols, lists) stays a form. */
function lispValue(datum: Datum, source: string): LispValue {
  switch (datum.type) {
    case 'string':
      return {kind: 'string', value: datum.value}
    case 'integer':
      return {kind: 'number', value: datum.value, integer: true}
    case 'float':
      return {kind: 'number', value: datum.value, integer: false}
    default:
      if (datum.type === 'symbol' && datum.name === 'nil') return NIL
      return {kind: 'lisp', source, reason: `its value is ${shortForm(printDatum(datum))}, and passepartout carries only strings, numbers and nil as header-argument values`}
  }
}

/** A form as messages show it: at most 80 characters. */
export function shortForm(source: string): string {
  return source.length <= 80 ? source : `${source.slice(0, 79)}…`
}

/** `(format "%S" value)` for the values tangling prints (Emacs Lisp `let` bindings). */
export function printLisp(value: LispValue): string {
  switch (value.kind) {
    case 'nil':
      return 'nil'
    case 'string':
      return `"${value.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
    case 'number':
      return value.integer ? String(value.value) : printFloat(value.value)
    case 'lisp':
      return value.source
  }
}

/**
 * Emacs's `float_to_string`: C's `%.Pg` with the smallest precision P from 15
 * to 17 that reads back to the same number, then `.0` when the result has
 * neither a point nor an exponent.
 */
function printFloat(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '1.0e+INF'
  if (value === Number.NEGATIVE_INFINITY) return '-1.0e+INF'
  if (Number.isNaN(value)) return '0.0e+NaN'
  let text = formatG(value, 17)
  for (const precision of [15, 16]) {
    const candidate = formatG(value, precision)
    if (Number(candidate) === value) {
      text = candidate
      break
    }
  }
  return /[.e]/.test(text) ? text : `${text}.0`
}

function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0'
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e') as [string, string]
  const exponent = Number(exponentText)
  const stripZeros = (digits: string) => (digits.includes('.') ? digits.replace(/0+$/, '').replace(/\.$/, '') : digits)
  if (exponent < -4 || exponent >= precision) {
    const sign = exponent < 0 ? '-' : '+'
    return `${stripZeros(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`
  }
  return stripZeros(value.toFixed(Math.max(0, precision - 1 - exponent)))
}

/** How a value reads in a message: `nil`, a number, or the string itself. */
export function describeValue(value: LispValue): string {
  return value.kind === 'string' ? value.value : printLisp(value)
}
