/**
 * The atoms of Emacs Lisp as its reader reads them and `prin1` prints them: numbers, string literals with their
 * escapes, floats printed back. Both the reader of forms (lisp-read.ts) and `org-babel-read` (elisp.ts) stand on
 * these, so they live below both.
 */
import * as say from '../messages/lisp.ts'

/** A number as the reader reads it: Lisp tells an integer from a float by its spelling (`1` and `1.`, `1.0`). */
export interface LispNumber {
  kind: 'number'
  value: number
  integer: boolean
}

/** Raised where Emacs's reader would signal an error. */
export class LispReadError extends Error {}

/** The Lisp reader's number syntax for a whole token, or undefined for a symbol. */
export function readNumber(token: string): LispNumber | undefined {
  if (/^[+-]?[0-9]+\.?$/.test(token)) return {kind: 'number', value: Number.parseInt(token, 10), integer: true}
  const float = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?$/.exec(token)
  if (float && (token.includes('.') || token.includes('e')))
    return {kind: 'number', value: Number(token), integer: false}
  return undefined
}

/** Read the Lisp string literal starting at `start` (a `"`); return its value and where it ends. */
export function readString(source: string, start: number): {value: string; end: number} {
  let value = ''
  for (let i = start + 1; i < source.length;) {
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
  throw new LispReadError(say.unclosedString())
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
  if (c === undefined) throw new LispReadError(say.backslashEndsString())
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
    if (bad !== -1) throw new LispReadError(say.nonHexUnicodeEscape(digits[bad], digits.charCodeAt(bad)))
    if (digits.length < length) throw new LispReadError(say.unicodeEscapeCutOff())
    return {text: character(Number.parseInt(digits, 16), `\\${c}${digits}`), end: i + 1 + length}
  }
  if (c === '^' || (c === 'C' && source[i + 1] === '-')) {
    const at = c === '^' ? i + 1 : i + 2
    const target = source[at]
    if (target === undefined) throw new LispReadError(say.endOfFileDuringParsing())
    const code = target === '?' ? 127 : target.toUpperCase().charCodeAt(0) & 31
    return {text: String.fromCharCode(code), end: at + 1}
  }
  if (
    (c === 'M' || c === 'S' || c === 'H' || c === 'A' || c === 'N') &&
    (source[i + 1] === '-' || source[i + 1] === '{')
  ) {
    throw new LispReadError(say.escapeNotSupported(c, source[i + 1]!))
  }
  return {text: c, end: i + 1}
}

/** The character CODE, refused beyond Unicode (Emacs has characters up to #x3FFFFF; JavaScript strings do not). */
function character(code: number, escape: string): string {
  if (code > 0x10ffff) throw new LispReadError(say.escapeBeyondUnicode(escape))
  return String.fromCodePoint(code)
}

/**
 * Emacs's `float_to_string`: C's `%.Pg` with the smallest precision P from 15
 * to 17 that reads back to the same number, then `.0` when the result has
 * neither a point nor an exponent.
 */
export function printFloat(value: number): string {
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
