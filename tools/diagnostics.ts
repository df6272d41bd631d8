/**
 * Every problem the toolchain reports, in one place: its rule id, whether it is
 * an error or a warning, and how it is printed.
 *
 * A diagnostic is a `VFileMessage` (reason, place, rule id, `fatal`), printed
 * as `path.org:LINE:COL: error: reason [rule-id]`: the format Emacs's
 * compilation mode and editor problem matchers read.
 */
import path from 'node:path'
import type {Point, Position} from 'unist'
import {VFileMessage} from 'vfile-message'
import {isInside} from './project.ts'

export type Severity = 'error' | 'warning'

/** Rule ids and what each one means; the README lists them for users. */
export const RULES = {
  'org/unterminated-block': ['warning', 'a #+begin_src with no #+end_src in its section: Org reads it as text'],
  'org/detached-affiliated-keyword': ['warning', 'a #+NAME or #+HEADER line separated from its block by a blank line'],
  'org/ignored-property-drawer': ['warning', 'a :PROPERTIES: drawer where Org does not read properties'],
  'org/latin-1': ['warning', 'the file is not valid UTF-8; it is read as Latin-1, as Emacs does'],
  'org/mixed-line-endings': ['warning', 'CRLF and LF line endings mixed: Emacs keeps the CRs, which breaks block lines'],
  'org/setupfile-unreadable': ['warning', 'a #+SETUPFILE: that cannot be read: Org goes on without its keywords'],
  'org/setupfile-cycle': ['warning', 'a #+SETUPFILE: already being read (a cycle): Org skips it'],
  'header/unknown-argument': ['warning', 'a header argument Org does not know (names are case-sensitive)'],
  'header/unusual-value': ['warning', 'a header-argument value outside the documented set, and how Org reads it'],
  'header/lisp-ignored': ['warning', 'an Emacs Lisp form in a header argument that tangling does not use'],
  'header/decimal-mode': ['warning', ':tangle-mode given as a plain number is decimal, not octal'],
  'noweb/unresolved': ['warning', 'a noweb reference that matches no block: Org inserts nothing'],
  'noweb/looks-like-code': ['warning', 'code such as a shift or a generic that Org reads as a noweb reference'],
  'tangle/duplicate-target': ['warning', 'two spellings of one target in one document: the later replaces the earlier'],
  'tangle/overwrites-edit': ['warning', 'a target edited since it was tangled, which this tangle replaces (Emacs does so silently)'],
  'tangle/orphaned-target': ['warning', 'a file a document wrote and no longer writes (a renamed :tangle, a removed block or document): --prune removes it'],
  'tangle/emacs-error': ['error', 'Org fails here; nothing of the document is written'],
  'tangle/lisp-form': ['error', 'a header argument written as an Emacs Lisp form outside the small, pure part of Emacs Lisp passepartout evaluates'],
  'tangle/needs-evaluation': ['error', 'tangling would run code (<<name()>>, :var name=block)'],
  'tangle/no-comment-syntax': ['error', 'comments requested for a language without comment syntax'],
  'tangle/noweb-cycle': ['error', 'noweb references that include each other'],
  'tangle/unterminated-block-pairs': ['error', 'Org Babel pairs an unterminated #+begin_src with a later block and fails'],
  'tangle/missing-directory': ['error', "the target's directory does not exist and :mkdirp is not set"],
  'tangle/target-is-directory': ['error', 'the target is a directory'],
  'tangle/outside-root': ['error', 'the target resolves outside the project (or the Org file\'s folder)'],
  'tangle/target-conflict': ['error', 'two documents write the same target'],
  'tangle/unsupported': ['error', 'an Org feature passepartout does not reproduce'],
  'graph/duplicate-id': ['error', 'one :ID: in two places'],
  'graph/unknown-dependency': ['error', 'a #+DEPENDS_ON: entry that names no ID and no document'],
  'graph/ambiguous-dependency': ['error', 'a #+DEPENDS_ON: word that names several documents by file name'],
  'graph/self-dependency': ['error', 'a document that depends on itself'],
  'graph/cycle': ['error', 'documents that depend on each other in a cycle'],
  ts: ['error', 'a TypeScript diagnostic, reported at the Org line the code came from'],
  'check/compiler': ['error', 'the TypeScript compiler could not run'],
  'sandbox/unknown-capability': ['warning', 'a #+CAPABILITIES: name that grants nothing'],
  'sandbox/restricted-import': ['error', 'a skill imports a restricted module without the capability for it'],
  'sandbox/dynamic-code': ['error', 'a skill evaluates code (eval, new Function, import() of a computed name, the module module) without the eval capability'],
  'sandbox/native-access': ['error', 'a skill reaches into the runtime (process, process.binding, inspector) without the native capability'],
  'sandbox/fs-write': ['error', 'a skill writes files without the fs capability'],
  'sandbox/network': ['error', 'a skill uses the network without the net capability'],
  'sandbox/tangle-target': ['error', 'a skill document tangles outside org/skills/ and generated/skills/, an Org file, or into node_modules/'],
  'skill/syntax': ['error', "a skill's code cannot be compiled"],
  'skill/load-error': ['error', "a skill's code threw while it loaded"],
  'skill/runtime-error': ['error', "a skill's code threw when the core called it (an export, a gate, a trigger) or in one of its callbacks"],
  'skill/out-of-memory': ['error', 'the skills went over their memory allowance while this skill ran: it was stopped'],
  'skill/timeout': ['error', 'a skill did not finish in time (loading, or anything the core or a timer ran of it): it was stopped'],
  'skill/invalid-definition': ['error', 'a defineSkill call with a definition that is not valid'],
  'skill/name-taken': ['error', "a skill name the document may not register: another document's, or not its own name or under it"],
  'skill/import': ['error', 'a skill imports something a skill cannot: code outside every skill, or a skill that is not ready'],
  'skill/dependency-not-ready': ['error', 'a skill whose dependency did not load'],
  'skill/mandatory': ['error', 'a mandatory skill is missing or not ready: the core does not start'],
  'config/invalid': ['error', 'a setting is not valid: the "passepartout" section of package.json, a variable of the environment or .env'],
  'memory/damaged': ['error', "the memory database's hashes or root do not match its objects, or it is not a database: it was kept aside"],
  'memory/unavailable': ['error', 'the memory database could not be opened'],
  'core/internal': ['error', 'the core failed in a way it did not expect: a bug, reported without a stack trace'],
  'io/recovered': ['warning', 'a run killed while writing a document left it half done: this run finished or undid it'],
  'io/no-documents': ['warning', 'a folder given to a command holds no .org file'],
  'cache/damaged': ['warning', 'the tangle cache was damaged: it is discarded and every document read again'],
  'io/read': ['error', 'a file could not be read'],
  'io/write': ['error', 'a file could not be written'],
} as const satisfies Record<string, readonly [Severity, string]>

export type RuleId = keyof typeof RULES

/** A message with its rule; `code` is the checker's own code where it has one (`TS2322`). */
export type Diagnostic = VFileMessage & {code?: string}

export interface DiagnosticExtras {
  /** The checker's own code, printed after the severity. */
  code?: string
  /** Overrides the rule's severity (a TypeScript warning under the `ts` rule). */
  severity?: Severity
}

/** Build the diagnostic for RULE at PLACE in FILE (an absolute path). */
export function diagnostic(file: string, ruleId: RuleId, reason: string, place?: Position | Point, extras: DiagnosticExtras = {}): Diagnostic {
  const message: Diagnostic = new VFileMessage(reason, {place, ruleId, source: 'passepartout'})
  message.file = file
  message.fatal = (extras.severity ?? RULES[ruleId][0]) === 'error'
  if (extras.code) message.code = extras.code
  return message
}

/**
 * A diagnostic as plain data: what crosses to another thread or into the tangle cache. Lines are 1-based,
 * columns 1-based in UTF-16 code units.
 */
export interface PlainDiagnostic {
  file: string | null
  rule: string
  severity: Severity
  code: string | null
  reason: string
  start: {line: number; column: number} | null
  end: {line: number; column: number} | null
}

export function toPlainDiagnostic(message: Diagnostic): PlainDiagnostic {
  const place = message.place
  const start = place && 'start' in place ? place.start : place
  const end = place && 'end' in place ? place.end : undefined
  return {
    file: message.file || null,
    rule: String(message.ruleId),
    severity: severityOf(message),
    code: message.code ?? null,
    reason: message.reason,
    start: start ? {line: start.line, column: start.column} : null,
    end: end ? {line: end.line, column: end.column} : null,
  }
}

export function fromPlainDiagnostic(plain: PlainDiagnostic): Diagnostic {
  const place = plain.start ? {start: plain.start, end: plain.end ?? plain.start} : undefined
  return diagnostic(plain.file ?? '', plain.rule as RuleId, plain.reason, place, {severity: plain.severity, ...(plain.code ? {code: plain.code} : {})})
}

export function severityOf(message: Diagnostic): Severity {
  return message.fatal ? 'error' : 'warning'
}

export function isError(message: Diagnostic): boolean {
  return message.fatal === true
}

/** `path:LINE:COL: severity: reason [rule]`, the path relative to `cwd` when inside it. */
export function formatDiagnostic(message: Diagnostic, cwd: string): string {
  const file = displayPath(message.file ?? '', cwd)
  const where = message.line ? `${file}:${message.line}:${message.column ?? 1}` : file
  return `${where}: ${severityOf(message)}${message.code ? ` ${message.code}` : ''}: ${message.reason} [${message.ruleId}]`
}

/**
 * The Org lines around a diagnostic with a caret under its column, the way
 * rollup's `getCodeFrame` shows them.
 */
export function codeFrame(text: string, line: number, column: number): string {
  const lines = text.split('\n')
  const first = Math.max(1, line - 1)
  const last = Math.min(lines.length, line + 1)
  const width = String(last).length
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    const marker = n === line ? '>' : ' '
    out.push(`${marker} ${String(n).padStart(width)} | ${lines[n - 1]!.replace(/\t/g, '    ')}`)
    if (n === line) {
      const before = (lines[n - 1] ?? '').slice(0, Math.max(0, column - 1)).replace(/\t/g, '    ')
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(before.length)}^`)
    }
  }
  return out.join('\n')
}

export function displayPath(file: string, cwd: string): string {
  return isInside(file, cwd) ? path.relative(cwd, file) : file
}
