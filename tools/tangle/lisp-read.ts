/**
 * The Emacs Lisp reader, as far as header arguments need it: `(read STRING)`
 * turned into a small tree of symbols, strings, numbers, lists and vectors,
 * and `prin1`/`princ` to print one back.
 *
 * The reader is a loop over an explicit stack of open lists, so no input can
 * overflow the JavaScript stack; a form nested deeper than `FORM_NESTING_LIMIT` is
 * refused before it is read. Where Emacs's reader signals an error we signal
 * the same error (`LispSignal`); syntax passepartout does not read (character
 * literals, `#s(…)`, dotted pairs, escapes in symbols) is refused
 * (`LispRefusal`), never guessed.
 */
import * as say from '../messages/lisp.ts'
import {LispReadError, printFloat, readNumber, readString} from './lisp-atoms.ts'

export type Datum = LispSymbol | LispString | LispInteger | LispFloat | LispList | LispVector

/** Symbols are compared by name: `nil` is also the empty list. */
export interface LispSymbol {
  type: 'symbol'
  name: string
}

export interface LispString {
  type: 'string'
  /** The characters, all of them Unicode scalar values (raw bytes are refused). */
  value: string
}

export interface LispInteger {
  type: 'integer'
  /** A safe JavaScript integer; larger (bignum) literals are refused. */
  value: number
}

export interface LispFloat {
  type: 'float'
  value: number
}

/** A proper, non-empty list (the empty list is the symbol `nil`). */
export interface LispList {
  type: 'list'
  items: Datum[]
}

export interface LispVector {
  type: 'vector'
  items: Datum[]
}

/** How deep lists, vectors and quotes may nest in a form passepartout evaluates. */
export const FORM_NESTING_LIMIT = 200

export const NIL: LispSymbol = {type: 'symbol', name: 'nil'}
export const T: LispSymbol = {type: 'symbol', name: 't'}

export function symbol(name: string): LispSymbol {
  return name === 'nil' ? NIL : name === 't' ? T : {type: 'symbol', name}
}

export function lispString(value: string): LispString {
  return {type: 'string', value}
}

export function list(items: Datum[]): Datum {
  return items.length === 0 ? NIL : {type: 'list', items}
}

export function isNil(datum: Datum): boolean {
  return datum.type === 'symbol' && datum.name === 'nil'
}

/** An error Emacs signals; `data` is the error as `(format "%S" err)` prints it. */
export class LispSignal extends Error {
  constructor(readonly data: string) {
    super(data)
  }
}

/** Something passepartout declines to read or evaluate; `reason` says what. */
export class LispRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

type Frame = {kind: 'list' | 'vector'; items: Datum[]} | {kind: 'prefix'; name: string}

const PREFIXES: Record<string, string> = {"'": 'quote', '`': '`', ',': ','}

/**
 * `(read SOURCE)`: the first form of SOURCE (what follows it is ignored).
 *
 *     (concat (buffer-file-name) ".el") trailing
 *     ^ read from here, up to the matching paren
 */
export function readForm(source: string): Datum {
  const open: Frame[] = []
  let i = 0
  for (;;) {
    i = skipBlanks(source, i)
    if (i >= source.length) throw new LispSignal(say.endOfFile())
    const c = source[i]!
    let datum: Datum
    if (c === '(' || c === '[') {
      push(open, {kind: c === '(' ? 'list' : 'vector', items: []})
      i++
      continue
    } else if (c === ')' || c === ']') {
      datum = close(open, c)
      i++
    } else if (Object.hasOwn(PREFIXES, c) || (c === '#' && source[i + 1] === "'")) {
      const at = source[i + 1] === '@' && c === ','
      push(open, {kind: 'prefix', name: c === '#' ? 'function' : at ? ',@' : PREFIXES[c]!})
      i += c === '#' || at ? 2 : 1
      continue
    } else if (c === '"') {
      const read = stringLiteral(source, i)
      datum = read.datum
      i = read.end
    } else if (c === '#') {
      const read = sharpSyntax(source, i)
      datum = read.datum
      i = read.end
    } else if (c === '?') {
      throw new LispRefusal(say.characterLiteralRefused())
    } else {
      const end = tokenEnd(source, i)
      datum = atom(source.slice(i, end))
      i = end
    }
    // Hand the datum to what is open: prefixes wrap it, a list or vector takes it, nothing means done.
    for (;;) {
      const top = open[open.length - 1]
      if (!top) return datum
      if (top.kind === 'prefix') {
        open.pop()
        datum = {type: 'list', items: [symbol(top.name), datum]}
        continue
      }
      top.items.push(datum)
      break
    }
  }
}

function push(open: Frame[], frame: Frame): void {
  if (open.length >= FORM_NESTING_LIMIT) throw new LispRefusal(say.nestedTooDeep(FORM_NESTING_LIMIT))
  open.push(frame)
}

/**
 * A closing `)` or `]` and the list or vector it ends.
 *
 *     (a b]
 *         ^ Emacs: (invalid-read-syntax "] in a list")
 */
function close(open: Frame[], c: string): Datum {
  const top = open[open.length - 1]
  if (top?.kind === 'list' && c === ')') {
    open.pop()
    return list(top.items)
  }
  if (top?.kind === 'vector' && c === ']') {
    open.pop()
    return {type: 'vector', items: top.items}
  }
  if (top?.kind === 'vector') throw new LispSignal(say.closeInVector())
  if (top?.kind === 'list') throw new LispSignal(say.closeInList())
  throw new LispSignal(say.unopenedClose(c))
}

/** Blanks (every character up to space, and no-break space) and `;` comments. */
function skipBlanks(source: string, i: number): number {
  while (i < source.length) {
    const c = source.charCodeAt(i)
    if (c <= 0x20 || c === 0xa0) i++
    else if (c === 0x3b /* ; */) {
      const newline = source.indexOf('\n', i)
      i = newline === -1 ? source.length : newline + 1
    } else break
  }
  return i
}

/** The end of a symbol or number: Emacs's reader stops at blanks and at `"';#()[],` and backquote. */
function tokenEnd(source: string, start: number): number {
  let i = start
  while (i < source.length) {
    const c = source.charCodeAt(i)
    if (c <= 0x20 || c === 0xa0 || '"\';#()[],`'.includes(source[i]!)) break
    i++
  }
  return i
}

/**
 * A symbol or a number.
 *
 *     (if (eq system-type 'darwin) "a.el")
 *             ^^^^^^^^^^^ symbol   ^ not here: strings are read apart
 */
function atom(token: string): Datum {
  if (token.includes('\\')) throw new LispRefusal(say.symbolEscapeRefused(token))
  if (token === '.') throw new LispRefusal(say.dottedPairRefused())
  if (/e\+(?:INF|NaN)$/.test(token) && /^[+-]?[0-9.]/.test(token)) throw new LispRefusal(say.floatRefused(token))
  const number = readNumber(token)
  if (number?.kind === 'number') {
    if (!number.integer) return {type: 'float', value: number.value}
    if (!Number.isSafeInteger(number.value)) throw new LispRefusal(say.integerTooLarge(token))
    return {type: 'integer', value: number.value}
  }
  return symbol(token)
}

/**
 * A string literal, refused where Emacs would make raw bytes of it.
 *
 *     "a\xe9b"
 *       ^^^^ Emacs reads a unibyte string (the byte 233), not "é": refused
 */
function stringLiteral(source: string, start: number): {datum: Datum; end: number} {
  let read: {value: string; end: number}
  try {
    read = readString(source, start)
  } catch (error) {
    if (!(error instanceof LispReadError)) throw error
    if (error.message.startsWith('End of file')) throw new LispSignal(say.endOfFile())
    if (error.message.includes('passepartout')) throw new LispRefusal(error.message)
    throw new LispSignal(say.readerError(printDatum(lispString(error.message))))
  }
  checkEscapes(source, start + 1, read.end - 1)
  return {datum: lispString(read.value), end: read.end}
}

/** Refuse `\xNN` and octal escapes that Emacs reads as raw bytes or as characters beyond Unicode. */
function checkEscapes(source: string, from: number, to: number): void {
  const pattern = /x([0-9a-fA-F]*)|([0-7]{1,3})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})/y
  for (let i = source.indexOf('\\', from); i !== -1 && i < to; i = source.indexOf('\\', i + 2)) {
    pattern.lastIndex = i + 1
    const escape = pattern.exec(source)
    if (!escape) continue
    const unicode = escape[3] ?? escape[4]
    const code = Number.parseInt(escape[1] || escape[2] || unicode || '0', escape[2] === undefined ? 16 : 8)
    const raw = unicode === undefined && code >= 0x80 && code <= 0xff
    if (raw || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      throw new LispRefusal(say.rawByteEscape(escape[0]))
    }
  }
}

/**
 * `#` syntax: integers in radix 2, 8 and 16; everything else is refused.
 *
 *     #o755
 *     ^ radix integer, as `:tangle-mode (identity #o755)` writes it
 */
function sharpSyntax(source: string, start: number): {datum: Datum; end: number} {
  const letter = source[start + 1]?.toLowerCase()
  const radix = letter === 'o' ? 8 : letter === 'x' ? 16 : letter === 'b' ? 2 : undefined
  if (radix === undefined) throw new LispRefusal(say.sharpSyntaxRefused(source[start + 1] ?? ''))
  const end = tokenEnd(source, start + 2)
  const digits = source.slice(start + 2, end)
  const valid = {2: /^[+-]?[01]+$/, 8: /^[+-]?[0-7]+$/, 16: /^[+-]?[0-9a-fA-F]+$/}[radix]
  if (!valid.test(digits)) throw new LispSignal(say.radixDigits(radix))
  const value = Number.parseInt(digits, radix)
  if (!Number.isSafeInteger(value)) throw new LispRefusal(say.integerTooLarge(`#${source[start + 1]}${digits}`))
  return {datum: {type: 'integer', value}, end}
}

/** `prin1` (ESCAPE true, as `%S` prints) or `princ` (as `%s` prints) of a datum, as Emacs 28 prints it. */
export function printDatum(datum: Datum, escape = true): string {
  return printWithin(datum, escape, 0)
}

/** BACKQUOTES counts the backquotes around DATUM not undone by a comma: only there do `,` and `,@` print short. */
function printWithin(datum: Datum, escape: boolean, backquotes: number): string {
  switch (datum.type) {
    case 'symbol':
      return escape ? datum.name.replace(/["\\';#(),`[\]?.\u0000-\u0020\u00a0]/g, (c) => `\\${c}`) : datum.name
    case 'string':
      return escape ? `"${datum.value.replace(/["\\]/g, (c) => `\\${c}`)}"` : datum.value
    case 'integer':
      return String(datum.value)
    case 'float':
      return printFloat(datum.value)
    case 'vector':
      return `[${datum.items.map((item) => printWithin(item, escape, backquotes)).join(' ')}]`
    case 'list': {
      const [head, argument] = datum.items
      if (datum.items.length === 2 && head!.type === 'symbol') {
        if (head!.name === 'quote') return `'${printWithin(argument!, escape, backquotes)}`
        if (head!.name === 'function') return `#'${printWithin(argument!, escape, backquotes)}`
        if (head!.name === '`') return `\`${printWithin(argument!, escape, backquotes + 1)}`
        if ((head!.name === ',' || head!.name === ',@') && backquotes > 0)
          return `${head!.name}${printWithin(argument!, escape, backquotes - 1)}`
      }
      return `(${datum.items.map((item) => printWithin(item, escape, backquotes)).join(' ')})`
    }
  }
}
