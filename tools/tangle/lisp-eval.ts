/**
 * `(eval (read CELL) t)` for the small, pure part of Emacs Lisp that header
 * arguments use to compute a target: string functions, file-name functions,
 * conditionals, comparisons, and the few variables whose value follows from
 * the Org file's own name (`buffer-file-name`), HOME (for `~`) and the
 * platform (`system-type`). Each gives exactly what Emacs 28.2 gives, errors
 * included; anything else is refused with the name of the first function or
 * variable passepartout does not evaluate, never guessed.
 *
 * Nothing here reads the environment: the caller passes a `LispContext`.
 */
import * as say from '../messages/lisp.ts'
import {
  checkLocal,
  expandFileName,
  fileNameAsDirectory,
  fileNameDirectory,
  fileNameExtension,
  fileNameNondirectory,
  fileNameSansExtension,
} from './lisp-files.ts'
import {
  type Datum,
  isNil,
  LispRefusal,
  LispSignal,
  lispString,
  NIL,
  printDatum,
  readForm,
  symbol,
  T,
} from './lisp-read.ts'

export interface LispContext {
  /** Absolute path of the Org file: Emacs's `buffer-file-name` in the buffer it tangles (never abbreviated to `~/`). */
  file: string
  /** What `~` expands to (process.env.HOME); undefined when unset. */
  home: string | undefined
  /** Emacs's `system-type` on this platform (`gnu/linux`, `darwin`), undefined where passepartout does not know it. */
  systemType: string | undefined
}

export type Evaluation =
  | {kind: 'value'; value: Datum}
  /** Passepartout does not evaluate this form; REASON names what it met first. */
  | {kind: 'refused'; reason: string}
  /** Emacs signals ERROR, printed as `(format "%S" err)` prints it. */
  | {kind: 'error'; error: string}

/** Emacs's `system-type` for a Node `process.platform`. */
export function systemTypeOf(platform: string): string | undefined {
  return SYSTEM_TYPES[platform]
}

const SYSTEM_TYPES: Record<string, string> = {
  linux: 'gnu/linux',
  darwin: 'darwin',
  win32: 'windows-nt',
  freebsd: 'berkeley-unix',
  openbsd: 'berkeley-unix',
  netbsd: 'berkeley-unix',
  aix: 'aix',
  cygwin: 'cygwin',
}

/** Read the first form of SOURCE and evaluate it in CONTEXT (undefined: no Org file is known). */
export function evaluateLisp(source: string, context: LispContext | undefined): Evaluation {
  try {
    return {kind: 'value', value: new Evaluator(context).eval(readForm(source))}
  } catch (error) {
    if (error instanceof LispRefusal) return {kind: 'refused', reason: error.reason}
    if (error instanceof LispSignal) return {kind: 'error', error: error.data}
    throw error
  }
}

const MANY = Number.POSITIVE_INFINITY

/** The buffers of `emacs --batch -Q` when Org visits the file. */
const STARTUP_BUFFERS = new Set(['*scratch*', '*Messages*', ' *Minibuf-0*'])

/**
 * What a function symbol stands for. Special forms and built-in (C or
 * natively compiled) functions check their argument count before anything
 * is evaluated and name themselves in the error; byte-compiled macros name
 * their arity, `(MANDATORY . NONREST)`.
 */
type Builtin =
  | {kind: 'special'; min: number; max: number; run: (ev: Evaluator, args: Datum[], name: string) => Datum}
  | {kind: 'subr'; min: number; max: number; run: (ev: Evaluator, args: Datum[]) => Datum}
  | {kind: 'macro'; mandatory: number; nonrest: number; rest: boolean; run: (ev: Evaluator, args: Datum[]) => Datum}

class Evaluator {
  /** Emacs returns the same string object for a variable each time (`eq` sees it): so do we. */
  private readonly variables = new Map<string, Datum>()

  constructor(private readonly context: LispContext | undefined) {}

  eval(form: Datum): Datum {
    if (form.type === 'symbol') return this.variable(form.name)
    if (form.type !== 'list') return form
    const [head, ...args] = form.items as [Datum, ...Datum[]]
    if (head.type !== 'symbol') {
      if (head.type === 'list' && head.items[0]?.type === 'symbol' && head.items[0].name === 'lambda') {
        throw new LispRefusal(say.lambdaRefused())
      }
      throw new LispSignal(say.invalidFunction(printDatum(head)))
    }
    const builtin = BUILTINS.get(head.name)
    if (!builtin) throw new LispRefusal(say.functionRefused(head.name))
    if (builtin.kind === 'macro') {
      if (args.length < builtin.mandatory || (!builtin.rest && args.length > builtin.nonrest)) {
        throw new LispSignal(say.wrongNumberOfMacroArguments(builtin.mandatory, builtin.nonrest, args.length))
      }
      return builtin.run(this, args)
    }
    if (args.length < builtin.min || args.length > builtin.max)
      throw new LispSignal(say.wrongNumberOfArguments(head.name, args.length))
    if (builtin.kind === 'special') return builtin.run(this, args, head.name)
    return builtin.run(
      this,
      args.map((arg) => this.eval(arg)),
    )
  }

  /** `progn`: each form in turn, the value of the last (nil for none). */
  progn(forms: Datum[]): Datum {
    let value: Datum = NIL
    for (const form of forms) value = this.eval(form)
    return value
  }

  variable(name: string): Datum {
    if (name === 'nil' || name === 't' || name.startsWith(':')) return symbol(name)
    let value = this.variables.get(name)
    if (value === undefined) {
      value = this.lookUp(name)
      this.variables.set(name, value)
    }
    return value
  }

  private lookUp(name: string): Datum {
    switch (name) {
      case 'buffer-file-name':
        return lispString(this.file(name))
      case 'default-directory':
        return lispString(this.defaultDirectory(name))
      case 'system-type': {
        const systemType = this.context?.systemType
        if (systemType === undefined) throw new LispRefusal(say.systemTypeUnknown(this.context !== undefined))
        return symbol(systemType)
      }
      case 'emacs-version':
        return lispString('28.2')
      case 'emacs-major-version':
        return {type: 'integer', value: 28}
      case 'emacs-minor-version':
        return {type: 'integer', value: 2}
      case '*this*':
        // Bound only while Org runs a block for a #+CALL, never while tangling.
        throw new LispSignal(say.voidVariable('*this*'))
      default:
        throw new LispRefusal(say.variableRefused(name))
    }
  }

  /** The Org file's name; WHAT names the function or variable that needs it. */
  file(what: string): string {
    if (!this.context) throw new LispRefusal(say.fileNameUnknown(what))
    return this.context.file
  }

  /** `default-directory` in the Org file's buffer: the file's folder, with its final slash. */
  defaultDirectory(what: string): string {
    return fileNameDirectory(this.file(what)) ?? '/'
  }

  home(): string | undefined {
    return this.context?.home
  }

  /**
   * `buffer-name` of the Org file's buffer: the file's name (uniquify, on by
   * default, undoes the `|` that `create-file-buffer` puts before a leading
   * space), unless a buffer Emacs starts with has it; one object, as in Emacs.
   */
  bufferName(): Datum {
    let value = this.variables.get(' buffer-name')
    if (value === undefined) {
      const name = fileNameNondirectory(this.file('buffer-name'))
      if (STARTUP_BUFFERS.has(name)) throw new LispRefusal(say.bufferNameTaken(name))
      value = lispString(name)
      this.variables.set(' buffer-name', value)
    }
    return value
  }
}

// ---------------------------------------------------------------------------
// Argument checks, as Emacs signals them.

function wrongType(predicate: string, datum: Datum): LispSignal {
  return new LispSignal(say.wrongTypeArgument(predicate, printDatum(datum)))
}

function stringArg(datum: Datum): string {
  if (datum.type !== 'string') throw wrongType('stringp', datum)
  return datum.value
}

/** A file name argument: a string Emacs would not hand to a file-name handler. */
function fileArg(datum: Datum): string {
  const name = stringArg(datum)
  checkLocal(name)
  return name
}

/** `(buffer-file-name BUFFER)` and kin: only the current buffer, nil, is a buffer here. */
function currentBuffer(args: Datum[]): void {
  if (args[0] !== undefined && !isNil(args[0])) throw wrongType('bufferp', args[0])
}

function stringOrNil(value: string | undefined): Datum {
  return value === undefined ? NIL : lispString(value)
}

function bool(value: boolean): Datum {
  return value ? T : NIL
}

// ---------------------------------------------------------------------------
// Equality.

/** `eq`: symbols by name, integers by value, everything else by identity (all empty strings are one object). */
function eq(a: Datum, b: Datum): boolean {
  if (a === b) return true
  if (a.type === 'symbol' && b.type === 'symbol') return a.name === b.name
  if (a.type === 'integer' && b.type === 'integer') return a.value === b.value
  return a.type === 'string' && b.type === 'string' && a.value === '' && b.value === ''
}

/** `equal`: structure, strings by characters, floats by their bits (so 0.0 is not -0.0, and NaN is NaN). */
function equal(a: Datum, b: Datum): boolean {
  if (eq(a, b)) return true
  if (a.type === 'string' && b.type === 'string') return a.value === b.value
  if (a.type === 'float' && b.type === 'float') return Object.is(a.value, b.value)
  if ((a.type === 'list' && b.type === 'list') || (a.type === 'vector' && b.type === 'vector')) {
    return a.items.length === b.items.length && a.items.every((item, k) => equal(item, b.items[k]!))
  }
  return false
}

/** `string=`: strings or symbols (by name). */
function stringEqual(args: Datum[]): Datum {
  const [a, b] = args.map((arg) => (arg.type === 'symbol' ? lispString(arg.name) : arg)).map(stringArg) as [
    string,
    string,
  ]
  return bool(a === b)
}

/** `<` and kin: every neighbouring pair compared, numbers only, stopping at the first false pair. */
function compare(test: (a: number, b: number) => boolean): (ev: Evaluator, args: Datum[]) => Datum {
  return (_ev, args) => {
    for (let k = 1; k < args.length; k++) {
      const [a, b] = [args[k - 1]!, args[k]!].map((arg) => {
        if (arg.type !== 'integer' && arg.type !== 'float') throw wrongType('number-or-marker-p', arg)
        return arg.value
      }) as [number, number]
      if (!test(a, b)) return NIL
    }
    return T
  }
}

// ---------------------------------------------------------------------------
// Strings.

/** `concat`: strings, nil, and lists or vectors of characters. */
function concat(args: Datum[]): Datum {
  const parts: string[] = []
  for (const arg of args) {
    if (arg.type === 'string') parts.push(arg.value)
    else if (arg.type === 'list' || arg.type === 'vector') for (const item of arg.items) parts.push(character(item))
    else if (!isNil(arg)) throw wrongType('sequencep', arg)
  }
  return lispString(parts.join(''))
}

function character(datum: Datum): string {
  if (datum.type !== 'integer' || datum.value < 0 || datum.value > 0x3fffff) throw wrongType('characterp', datum)
  if (datum.value > 0x10ffff || (datum.value >= 0xd800 && datum.value <= 0xdfff)) {
    throw new LispRefusal(say.characterNotUnicode(datum.value))
  }
  return String.fromCodePoint(datum.value)
}

/**
 * `format` with `%s`, `%d` and `%%`; other conversions, flags and widths are
 * refused, errors are Emacs's.
 *
 *     "%s/%d.el"
 *      ^^ ^^ each takes the next argument
 */
function format(args: Datum[]): Datum {
  const template = stringArg(args[0]!)
  const parts: string[] = []
  let next = 1
  let from = 0
  for (let at = template.indexOf('%'); at !== -1; at = template.indexOf('%', from)) {
    parts.push(template.slice(from, at))
    const code = template.codePointAt(at + 1)
    if (code === undefined) throw new LispSignal(say.formatEndsInSpecifier())
    const conversion = String.fromCodePoint(code)
    from = at + 1 + conversion.length
    if (conversion === '%') {
      parts.push('%')
      continue
    }
    if (/[-+ #0-9.]/.test(conversion)) throw new LispRefusal(say.formatFlagRefused(template.slice(at, at + 4)))
    const arg = args[next++]
    if (arg === undefined) throw new LispSignal(say.formatArgumentsMissing())
    if (conversion === 's') parts.push(printDatum(arg, false))
    else if (conversion === 'd') parts.push(formatInteger(arg))
    else if ('SciloxXefg'.includes(conversion)) throw new LispRefusal(say.formatConversionRefused(conversion))
    else throw new LispSignal(say.invalidFormatOperation(conversion))
  }
  parts.push(template.slice(from))
  return lispString(parts.join(''))
}

/** `%d`: an integer, or a float truncated toward zero. */
function formatInteger(arg: Datum): string {
  if (arg.type === 'integer') return String(arg.value)
  if (arg.type !== 'float') throw new LispSignal(say.formatArgumentMismatch())
  if (!Number.isFinite(arg.value) || Math.abs(arg.value) >= 2 ** 53)
    throw new LispRefusal(say.floatIntegerRefused(printDatum(arg)))
  return String(Math.trunc(arg.value) || 0)
}

/** The template of a backquote without `,` or `,@` is its value, as with quote. */
function backquote(template: Datum): Datum {
  const pending: Datum[] = [template]
  while (pending.length > 0) {
    const datum = pending.pop()!
    if (datum.type !== 'list' && datum.type !== 'vector') continue
    const head = datum.items[0]
    if (datum.type === 'list' && head?.type === 'symbol' && (head.name === ',' || head.name === ',@')) {
      throw new LispRefusal(say.unquoteRefused())
    }
    pending.push(...datum.items)
  }
  return template
}

// ---------------------------------------------------------------------------
// The table.

function special(min: number, max: number, run: (ev: Evaluator, args: Datum[], name: string) => Datum): Builtin {
  return {kind: 'special', min, max, run}
}

function subr(min: number, max: number, run: (ev: Evaluator, args: Datum[]) => Datum): Builtin {
  return {kind: 'subr', min, max, run}
}

const quote = special(1, MANY, (_ev, args, name) => {
  if (args.length > 1) throw new LispSignal(say.wrongNumberOfArguments(name, args.length))
  return args[0]!
})

const BUILTINS = new Map<string, Builtin>([
  ['quote', quote],
  ['function', quote],
  ['`', special(1, 1, (_ev, [template]) => backquote(template!))],
  ['progn', special(0, MANY, (ev, forms) => ev.progn(forms))],
  [
    'if',
    special(2, MANY, (ev, [test, then, ...otherwise]) =>
      isNil(ev.eval(test!)) ? ev.progn(otherwise) : ev.eval(then!),
    ),
  ],
  [
    'and',
    special(0, MANY, (ev, forms) => {
      let value: Datum = T
      for (const form of forms) if (isNil((value = ev.eval(form)))) return NIL
      return value
    }),
  ],
  [
    'or',
    special(0, MANY, (ev, forms) => {
      for (const form of forms) {
        const value = ev.eval(form)
        if (!isNil(value)) return value
      }
      return NIL
    }),
  ],
  [
    'cond',
    special(0, MANY, (ev, clauses) => {
      for (const clause of clauses) {
        if (isNil(clause)) continue
        if (clause.type !== 'list') throw wrongType('listp', clause)
        const [test, ...body] = clause.items as [Datum, ...Datum[]]
        const value = ev.eval(test)
        if (!isNil(value)) return body.length === 0 ? value : ev.progn(body)
      }
      return NIL
    }),
  ],
  [
    'when',
    {
      kind: 'macro',
      mandatory: 1,
      nonrest: 1,
      rest: true,
      run: (ev, [test, ...body]) => (isNil(ev.eval(test!)) ? NIL : ev.progn(body)),
    },
  ],
  [
    'unless',
    {
      kind: 'macro',
      mandatory: 1,
      nonrest: 1,
      rest: true,
      run: (ev, [test, ...body]) => (isNil(ev.eval(test!)) ? ev.progn(body) : NIL),
    },
  ],
  ['not', subr(1, 1, (_ev, [value]) => bool(isNil(value!)))],
  ['null', subr(1, 1, (_ev, [value]) => bool(isNil(value!)))],
  ['identity', subr(1, 1, (_ev, [value]) => value!)],
  ['eq', subr(2, 2, (_ev, [a, b]) => bool(eq(a!, b!)))],
  ['equal', subr(2, 2, (_ev, [a, b]) => bool(equal(a!, b!)))],
  ['string=', subr(2, 2, (_ev, args) => stringEqual(args))],
  ['string-equal', subr(2, 2, (_ev, args) => stringEqual(args))],
  [
    '=',
    subr(
      1,
      MANY,
      compare((a, b) => a === b),
    ),
  ],
  [
    '<',
    subr(
      1,
      MANY,
      compare((a, b) => a < b),
    ),
  ],
  [
    '>',
    subr(
      1,
      MANY,
      compare((a, b) => a > b),
    ),
  ],
  [
    '<=',
    subr(
      1,
      MANY,
      compare((a, b) => a <= b),
    ),
  ],
  [
    '>=',
    subr(
      1,
      MANY,
      compare((a, b) => a >= b),
    ),
  ],
  ['concat', subr(0, MANY, (_ev, args) => concat(args))],
  ['format', subr(1, MANY, (_ev, args) => format(args))],
  [
    'buffer-file-name',
    subr(0, 1, (ev, args) => {
      currentBuffer(args)
      return ev.variable('buffer-file-name')
    }),
  ],
  [
    'buffer-name',
    subr(0, 1, (ev, args) => {
      currentBuffer(args)
      return ev.bufferName()
    }),
  ],
  ['file-name-directory', subr(1, 1, (_ev, [name]) => stringOrNil(fileNameDirectory(fileArg(name!))))],
  ['file-name-nondirectory', subr(1, 1, (_ev, [name]) => lispString(fileNameNondirectory(fileArg(name!))))],
  ['file-name-as-directory', subr(1, 1, (_ev, [name]) => lispString(fileNameAsDirectory(fileArg(name!))))],
  ['file-name-sans-extension', subr(1, 1, (_ev, [name]) => lispString(fileNameSansExtension(fileArg(name!))))],
  [
    'file-name-extension',
    subr(1, 2, (_ev, [name, period]) =>
      stringOrNil(fileNameExtension(fileArg(name!), period !== undefined && !isNil(period))),
    ),
  ],
  // (file-name-base &optional FILENAME): FILENAME defaults to the buffer's file.
  [
    'file-name-base',
    subr(0, 1, (ev, [name]) => {
      const file = name === undefined || isNil(name) ? ev.variable('buffer-file-name') : name
      return lispString(fileNameSansExtension(fileNameNondirectory(fileArg(file))))
    }),
  ],
  [
    'expand-file-name',
    subr(1, 2, (ev, [name, directory]) => {
      const file = stringArg(name!)
      const defaultDirectory = ev.defaultDirectory('expand-file-name')
      // A DIRECTORY that is not a string (nil excepted) stands for the root.
      const base =
        directory === undefined || isNil(directory)
          ? defaultDirectory
          : directory.type === 'string'
            ? directory.value
            : '/'
      return lispString(expandFileName(file, base, defaultDirectory, ev.home()))
    }),
  ],
])
