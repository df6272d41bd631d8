/**
 * Header-argument strings, read exactly as `org-babel-parse-header-arguments`
 * reads them: split on a blank followed by `:` (outside brackets and double
 * quotes), then each `:name value` read with `org-babel-read`.
 */
import {babelRead, type LispValue, NIL} from './elisp.ts'
import type {LispContext} from './lisp-eval.ts'
import {BLANKS_AND_BREAKS, trimBoth, trimEnd} from '../org/trim.ts'

export interface HeaderArgument {
  /** As written, with its colon: `:tangle`, `:TANGLE`, `:var`. */
  name: string
  value: LispValue
}

/** `org-babel-parse-header-arguments`; `evaluate` false is Org's "light" mode; CONTEXT is the Org file forms are evaluated for. */
export function parseHeaderArguments(text: string | null, evaluate: boolean, context?: LispContext): HeaderArgument[] {
  if (text === null || !/[^ \r\t\n]/.test(text)) return []
  const raw = balancedSplit(text, (past, next) => (past === ' ' || past === '\t') && next === ':', true)
  const pieces = raw.map((piece, i) => (i === 0 ? piece : `:${piece}`))
  const args: HeaderArgument[] = []
  for (const piece of pieces) {
    const match = /([^ \f\t\n\r\v]+)[ \f\t\n\r\v]+([^ \f\t\n\r\v]+[^\n]*)/.exec(piece)
    if (match) args.push({name: match[1]!, value: babelRead(chomp(match[2]!), evaluate, context)})
    else args.push({name: chomp(piece), value: NIL})
  }
  return parseMultipleVars(args)
}

/** `org-babel-parse-multiple-vars`: `:var a=1 b=2` is two variables. */
function parseMultipleVars(args: HeaderArgument[]): HeaderArgument[] {
  const result: HeaderArgument[] = []
  for (const arg of args) {
    if (arg.name !== ':var' || arg.value.kind !== 'string') {
      result.push(arg)
      continue
    }
    const pieces = joinSplitsNear(
      '=',
      balancedSplit(arg.value.value, (_past, next) => next === ' ', false),
    )
    for (const piece of pieces) result.push({name: ':var', value: {kind: 'string', value: orgTrimString(piece)}})
  }
  return result
}

function joinSplitsNear(ch: string, pieces: string[]): string[] {
  const joined: string[] = []
  for (const piece of pieces) {
    const head = joined[joined.length - 1]
    if (head !== undefined && (head.endsWith(ch) || piece.startsWith(ch))) joined[joined.length - 1] = head + piece
    else joined.push(piece)
  }
  return joined
}

/**
 * `org-babel-balanced-split`: split `text` where `splitAt(charBefore, charAt)`
 * holds, keeping bracketed groups and double-quoted strings whole. The split
 * character is dropped; with `dropBefore`, so is the character before it.
 */
export function balancedSplit(
  text: string,
  splitAt: (past: string | undefined, next: string) => boolean,
  dropBefore: boolean,
): string[] {
  // The text between two splits is always one slice of TEXT (groups and strings are copied whole, an
  // unbalanced opener as itself): slices, not a string grown a character at a time.
  const result: string[] = []
  let start = 0
  let i = 0
  while (i < text.length) {
    const next = text[i]!
    if (splitAt(text[i - 1], next)) {
      const piece = text.slice(start, dropBefore ? Math.max(start, i - 1) : i)
      if (piece !== '') result.push(piece)
      start = ++i
    } else if (next === '(' || next === '[') {
      const end = balancedEnd(text, i)
      i = end === -1 ? i + 1 : end
    } else if (next === '"' && text[i - 1] !== '\\') {
      const close = quotedEnd(text, i)
      i = close === -1 ? i + 1 : close
    } else i++
  }
  const last = text.slice(start)
  if (last !== '') result.push(last)
  return result
}

/** Where the group opened at `start` closes (Org only counts `(`, `)` and `]` inside). */
function balancedEnd(text: string, start: number): number {
  const openings = [text[start]!]
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!
    if (c === '(') openings.push(c)
    else if (c === ']') {
      if (openings[openings.length - 1] === '[') openings.pop()
    } else if (c === ')') {
      if (openings[openings.length - 1] === '(') openings.pop()
    } else continue
    if (openings.length === 0) return i + 1
  }
  return -1
}

/** `re-search-forward "[^\\]\""` from an opening quote: the end of the closing one. */
function quotedEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '"' && text[i - 1] !== '\\') return i + 1
  }
  return -1
}

/** `org-babel-chomp`: drop trailing blanks. */
function chomp(text: string): string {
  return trimEnd(text, ' \f\t\n\r\v')
}

function orgTrimString(text: string): string {
  return trimBoth(text, BLANKS_AND_BREAKS)
}
