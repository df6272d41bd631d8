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
import {LispReadError, type LispNumber, printFloat, readNumber, readString} from './lisp-atoms.ts'
import {evaluateLisp, type LispContext} from './lisp-eval.ts'
import {type Datum, printDatum} from './lisp-read.ts'
import {BLANKS_AND_BREAKS, trimBoth} from '../org/trim.ts'

export type LispValue =
  | {kind: 'nil'}
  | {kind: 'string'; value: string}
  | LispNumber
  /** A form passepartout does not evaluate; REASON names what it met first (a function, a variable, a value). */
  | {kind: 'lisp'; source: string; reason: string}

export const NIL: LispValue = {kind: 'nil'}

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
      return {
        kind: 'lisp',
        source,
        reason: `its value is ${shortForm(printDatum(datum))}, and passepartout carries only strings, numbers and nil as header-argument values`,
      }
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
