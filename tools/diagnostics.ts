/**
 * Every problem the toolchain reports, in one place: its rule id, whether it is
 * an error or a warning, how it is printed, and its one JSON form.
 *
 * A diagnostic is a `VFileMessage` (reason, place, rule id, `fatal`, and the
 * `note`, `expected` and `url` a builder of `tools/messages/` gave it), printed
 * as `path.org:LINE:COL: error: reason [rule-id]`: the format Emacs's
 * compilation mode and editor problem matchers read; `note:` and `help:` lines
 * follow it (`formatDetails`), then a code frame (`code-frame.ts`).
 */
import path from 'node:path'
import type {Point, Position} from 'unist'
import {VFileMessage} from 'vfile-message'
import {isInside} from './project.ts'
import {type Palette, PLAIN, printable} from './terminal.ts'

export type Severity = 'error' | 'warning'

/**
 * Rule ids, their severity and what each one means, in Markdown: the reference of the rules
 * (docs/reference/rules.md) is written from them by `make docs`, its links relative to docs/reference/.
 */
export const RULES = {
  'org/unterminated-block': ['warning', 'a `#+begin_src` with no `#+end_src` in its section: Org reads it as text'],
  'org/detached-affiliated-keyword': ['warning', 'a `#+NAME` or `#+HEADER` separated from its block by a blank line'],
  'org/ignored-property-drawer': ['warning', 'a `:PROPERTIES:` drawer where Org does not read properties'],
  'org/latin-1': ['warning', 'the file is not valid UTF-8: it is read as Latin-1, as Emacs does'],
  'org/mixed-line-endings': [
    'warning',
    'CRLF and LF line endings mixed: Emacs keeps the CRs, which breaks block lines',
  ],
  'org/setupfile-unreadable': ['warning', 'a `#+SETUPFILE:` that cannot be read: Org goes on without its keywords'],
  'org/setupfile-cycle': ['warning', 'a `#+SETUPFILE:` already being read: Org skips it'],
  'header/unknown-argument': ['warning', 'a header argument Org does not know (`:TANGLE`: names are case-sensitive)'],
  'header/unusual-value': ['warning', 'a value outside the documented set (`:mkdirp maybe`), and how Org reads it'],
  'header/lisp-ignored': ['warning', 'an Emacs Lisp form in a header argument tangling does not use'],
  'header/decimal-mode': ['warning', '`:tangle-mode 755` is decimal, not octal'],
  'noweb/unresolved': ['warning', 'a noweb reference that matches no block: Org inserts nothing'],
  'noweb/looks-like-code': ['warning', 'a TypeScript generic or shift that Org reads as a noweb reference'],
  'tangle/duplicate-target': ['warning', 'two spellings of one target in one document: the later replaces the earlier'],
  'tangle/overwrites-edit': [
    'warning',
    'a target edited since it was tangled, which this tangle replaces (Emacs does so silently)',
  ],
  'tangle/orphaned-target': [
    'warning',
    'a file a document wrote and no longer writes (a renamed `:tangle`, a removed block or document): `--prune` removes it',
  ],
  'detangle/shared-noweb': [
    'error',
    '`passepartout detangle`: an edited line came from a noweb reference used in more than one place, where the edit would change the others too: the message says where',
  ],
  'detangle/not-text': [
    'error',
    '`passepartout detangle`: an edited file holding a NUL byte or bytes that are not UTF-8, said at its line: such bytes would be lost (made U+FFFD) or break the Org document',
  ],
  'detangle/computed-line': [
    'error',
    "`passepartout detangle`: an edited line that Org computed, not copied from a block (a `:prologue` or `:epilogue`, a line `:comments` wrote, a `:padline` blank line, a shebang, a Lisp form's value, a line holding an inline noweb reference)",
  ],
  'detangle/spans-blocks': [
    'error',
    "`passepartout detangle`: an edit that replaces lines of two blocks (or a noweb reference's prefix) with a different number of lines: which block each new line belongs to cannot be told",
  ],
  'detangle/both-edited': [
    'error',
    '`passepartout detangle`: the Org document changed since the file was tangled, and the file was edited too: both sides are shown, neither is taken',
  ],
  'detangle/no-record': ['error', '`passepartout detangle`: a file no document is recorded to have written'],
  'detangle/link': [
    'error',
    '`passepartout detangle`: a generated file replaced by a symbolic link: nothing is read through it',
  ],
  'detangle/round-trip': [
    'error',
    '`passepartout detangle`: the Org document the edit would make does not tangle back to the edited bytes (or changes another file it writes): nothing is written',
  ],
  'tangle/emacs-error': [
    'error',
    "Org fails here (Emacs's own words are the note): nothing of the document is written",
  ],
  'tangle/lisp-form': [
    'error',
    'a header argument written as an Emacs Lisp form outside the small, pure part of Emacs Lisp Passepartout evaluates',
  ],
  'tangle/needs-evaluation': ['error', 'tangling would run code (`<<name()>>`, `:var x=block`)'],
  'tangle/no-comment-syntax': ['error', 'comments requested for a language without comment syntax'],
  'tangle/noweb-cycle': ['error', 'noweb references that include each other'],
  'tangle/unterminated-block-pairs': ['error', 'Org Babel pairs an unterminated block with a later one and fails'],
  'tangle/missing-directory': ['error', "the target's folder does not exist and `:mkdirp` is not set"],
  'tangle/target-is-directory': ['error', 'the target is a folder'],
  'tangle/outside-root': [
    'error',
    "the target resolves outside the project (outside a project: the Org file's folder)",
  ],
  'tangle/target-conflict': ['error', 'two documents write the same target (Emacs lets the later win silently)'],
  'tangle/unsupported': ['error', 'an Org feature Passepartout does not reproduce'],
  'graph/duplicate-id': ['error', 'one `:ID:` in two places; the message names both'],
  'graph/unknown-dependency': ['error', 'a `#+DEPENDS_ON:` entry that names no ID and no document'],
  'graph/ambiguous-dependency': ['error', 'a `#+DEPENDS_ON:` word that names several documents by file name'],
  'graph/self-dependency': ['error', 'a document that depends on itself'],
  'graph/cycle': ['error', 'documents that depend on each other; the message names the whole cycle'],
  'weave/unknown-id': [
    'warning',
    'an `[[id:…]]` link to an ID no woven document holds: its page shows the text, unlinked',
  ],
  'weave/include-unreadable': ['warning', 'an `#+INCLUDE:` of a file that cannot be read: its page goes on without it'],
  'weave/include-outside': [
    'warning',
    'an `#+INCLUDE:` of a file outside the project and the folders `allowOutside` names (a key under `~/.ssh`): its page goes on without it, as a published site would show it',
  ],
  'weave/page-conflict': [
    'error',
    "a document whose page would be the file of another document's page (`a.org` and `A.org`: names compared without case) or of the site's own (`index.org` at the root): the first keeps it, this one gets no page",
  ],
  'weave/unsafe-link': [
    'warning',
    'a link whose target runs script (`javascript:`, `vbscript:`, `data:`): its page shows the text, unlinked',
  ],
  ts: [
    'error',
    "a TypeScript diagnostic (`error TS2322`, a warning where TypeScript's is one), at the Org line the code came from",
  ],
  'check/compiler': ['error', 'the TypeScript compiler could not run'],
  'sandbox/unknown-capability': ['warning', 'a `#+CAPABILITIES:` name that grants nothing'],
  'sandbox/invalid-grant': [
    'error',
    'a `#+CAPABILITIES:` capability written so that it grants nothing: a folder given to another than `read`, `read:` with none, a folder no skill reads; the skill does not load',
  ],
  'sandbox/read': [
    'error',
    "a skill read (in the host) a file its document does not grant it, or one no skill reads: the project's state, `.env`, the home folder's keys, a file named like a key",
  ],
  'sandbox/restricted-import': [
    'error',
    'a skill loads a module its capabilities do not grant (at check time, or at run time in the host)',
  ],
  'sandbox/dynamic-code': [
    'error',
    'a skill evaluates code (`eval`, `new Function`, `import()` of a computed name, the `module` module) without `eval`',
  ],
  'sandbox/native-access': [
    'error',
    'a skill reaches into the runtime (`process`, `process.binding`, `inspector`…) without `native`',
  ],
  'sandbox/fs-write': ['error', 'a skill writes files without `fs`'],
  'sandbox/network': ['error', 'a skill uses the network without `net`'],
  'sandbox/tangle-target': [
    'error',
    'a skill document tangles outside `org/skills/` and `generated/skills/`, an Org file, or into `node_modules/`: nothing of it is written',
  ],
  'skill/syntax': ['error', "a skill's code does not compile"],
  'skill/load-error': ['error', "a skill's code threw while loading, at the Org line that threw"],
  'skill/runtime-error': [
    'error',
    "a skill's code threw when the core called it (an export, a gate, a trigger) or in one of its callbacks",
  ],
  'skill/out-of-memory': ['error', 'the skills went over their memory allowance while this skill ran: it was stopped'],
  'skill/timeout': [
    'error',
    "a skill's code ran past the timeout (loading, a gate, a timer, a promise…): it was stopped, at the Org line where it was",
  ],
  'skill/cpu-budget': [
    'error',
    "a skill's code took more of the skill host's thread than its CPU budget over the window (a timer that re-arms itself, an async loop): it was stopped, at the Org line where its code was",
  ],
  'skill/invalid-definition': [
    'error',
    'a `defineSkill` call whose definition is not valid (no name, a trigger that is not a function, a negative priority…)',
  ],
  'skill/name-taken': [
    'error',
    "a skill name the document may not register: another document's, or not its own name nor under it",
  ],
  'skill/import': ['error', 'a skill imports code of no skill, or a skill that is not ready'],
  'skill/dependency-not-ready': ['error', 'a skill whose dependency did not load'],
  'skill/unterminated-block': [
    'error',
    'a skill document with a `#+begin_src` that has no `#+end_src`: Org reads it as text (`tangle` and `check` warn, `org/unterminated-block`); the core does not load it and keeps the running version',
  ],
  'skill/api-version': [
    'error',
    'a skill document needs a newer skill API than the installation gives (`#+PASSEPARTOUT: 2` where `passepartout` exports `API_VERSION` 1), or its `#+PASSEPARTOUT:` line is no whole number: said at that line with both versions, and the document is not loaded (`check` says it too)',
  ],
  'skill/mandatory': [
    'error',
    'a mandatory skill is missing or not ready: the core does not start; while it runs, a save that would take one away is not applied (a warning while the running version is kept in place of a document that is gone or broken)',
  ],
  'schedule/invalid': [
    'error',
    "a skill's `schedule` that is not one: a cron expression that is not five fields croner reads (`61 * * * *`, six fields with seconds, `@daily`) or that no date matches, an interval that is not a whole duration (`1.5h`, `15 minutes`) or is under 1 s (`0s`) or over 366 days, both `every` and `cron`, a key a schedule does not take",
  ],
  'schedule/missed': [
    'warning',
    "runs of a skill's schedule were due while the core was down: said at start, with the last one, and caught up once when the schedule asks for it (`catchUp: true`)",
  ],
  'schedule/skipped': [
    'warning',
    "a run of a skill's schedule came due while the one before it was still going: it was skipped (a schedule never overlaps itself)",
  ],
  'schedule/failed': [
    'error',
    "a run of a skill's schedule failed: the log says why, and `status` shows it as the schedule's last run",
  ],
  'schedule/not-run': [
    'error',
    '`passepartout fire SKILL` asked for a run now that did not start: no skill of that name has a schedule (the line names those that do), the skill is not running (failed to load: its schedule runs with it), or a run of it is still going',
  ],
  'config/invalid': [
    'error',
    'a setting is not valid: `passepartout.json` (a key it does not know, a provider without a URL, a name of the cascade that is no backend, at its line and column), the `passepartout` section of `package.json`, a variable of the environment or `.env` (`PASSEPARTOUT_BACKENDS` naming an unknown backend, `openai` without `PASSEPARTOUT_MODEL`)',
  ],
  'memory/damaged': [
    'error',
    "the memory database's hashes or root do not match its objects, or it is not a database: it was moved aside and the core started with an empty memory",
  ],
  'memory/unavailable': ['error', 'the memory database could not be opened'],
  'memory/scope-full': [
    'error',
    "a model's `remember` (or a skill's write to its own scope) would take a scope past 1000 objects or 8 MB of JSON: nothing is written",
  ],
  'core/internal': ['error', 'the core failed in a way it did not expect (a bug), reported as one line'],
  'mcp/unavailable': [
    'error',
    'an MCP server could not start, exited, or hung (it did not answer `initialize`, the listing of its tools, or a ping after a call timed out): said once with its name, its tools withdrawn, started again with back-off ([MCP servers](../mcp.md))',
  ],
  'mcp/too-many-tools': [
    'error',
    'an MCP server lists more than 256 tools (or 256 pages of them): none is used, and it is not started again; said at its entry in `passepartout.json`',
  ],
  'mcp/tool-refused': [
    'error',
    "an MCP server's tool whose name cannot be a tool's once the server's name is put before it, whose schema cannot be read or holds more than 16 KiB, that comes past the server's 256 KiB of descriptions and schemas, or whose name a skill or another server holds: it is left out, the others are used; said at the server's entry",
  ],
  'mcp/malformed': [
    'error',
    "an MCP server answered a call with a result the protocol's schema (or the tool's output schema) refuses, or one over the bounds of data from outside: that call fails, said once",
  ],
  'mcp/timeout': [
    'error',
    'an MCP server did not answer a call within its timeout: that call fails, said once; a server that then does not answer a ping is restarted',
  ],
  'fmt/parse': [
    'warning',
    '`passepartout fmt`: a block (or file) that parses neither as a program nor as a fragment of a class: it is left as it is',
  ],
  'fmt/noweb': [
    'warning',
    '`passepartout fmt`: formatting would take a noweb reference off its own line (or copy or drop it): the block is left as it is',
  ],
  'io/recovered': [
    'warning',
    'a run that was killed (or could not undo a failure) left a document half written: this run completed or undid it',
  ],
  'io/no-documents': ['warning', 'a folder given to a command holds no `.org` file'],
  'cache/damaged': [
    'warning',
    'the tangle cache is not the shape this build writes (edited, cut short): it is discarded and every document read again',
  ],
  'io/read': [
    'error',
    'a file could not be read: at the block whose target it is when there is one (a NUL byte in the name, a name over 255 bytes, a path over 4095, a file where a folder should be); nothing of that document is written, the other documents are. A file a project holds (an Org document, .env, package.json, passepartout.json, tsconfig.json) is read only when it is a regular file of at most 16 MiB (a document) or 1 MiB (settings), without waiting: a named pipe or a link to a device is said here at the file, at once',
  ],
  'io/write': [
    'error',
    'a file could not be written: at the block whose target it is when there is one (a NUL byte in the name, a name over 255 bytes, a path over 4095, a file where a folder should be); nothing of that document is written, the other documents are',
  ],
  'init/refused': [
    'error',
    '`passepartout init` wrote no project: the name given is no folder name (empty, blanks only, a control character, over 255 bytes), a file, a path through a file, a link to nothing, a folder whose folder does not exist, a folder that is not empty and holds no Org document, or one holding a link where it would write (a link named as the folder itself is followed)',
  ],
} as const satisfies Record<string, readonly [Severity, string]>

export type RuleId = keyof typeof RULES

/**
 * What a diagnostic says, apart from where: one builder in `tools/messages/` makes each (rollup's
 * `src/utils/logs.ts`: one function per stable code), so that every message of a rule family reads in one
 * file.
 */
export interface Message {
  ruleId: RuleId
  /** One sentence: what is wrong, at this place. */
  reason: string
  /** Emacs's own error text where Emacs fails the same way, as `Emacs: <its message>`. */
  note?: string
  /** Suggestions, each a way out (`add :mkdirp yes`): vfile-message's `expected`. */
  expected?: string[]
}

/** A message with its rule; `code` is the checker's own code where it has one (`TS2322`). */
export type Diagnostic = VFileMessage & {code?: string}

export interface DiagnosticExtras {
  /** The checker's own code, printed after the severity. */
  code?: string
  /** Overrides the rule's severity (a TypeScript warning under the `ts` rule). */
  severity?: Severity
}

/** Where RULE is explained: its row in the reference of the rules (`docs/reference/rules.md#rule-tangle-missing-directory`). */
export function ruleUrl(ruleId: string): string {
  return `docs/reference/rules.md#rule-${ruleId.replace(/[^a-z0-9]+/gi, '-')}`
}

/**
 * The diagnostic MESSAGE at PLACE in FILE (an absolute path). The form with a rule id and a reason is kept
 * for the core's own rule families (skill/*, schedule/*, memory/*, core/*, config/*), whose messages are built where
 * they are raised; the toolchain raises only messages its builders made.
 */
export function diagnostic(
  file: string,
  message: Message,
  place?: Position | Point,
  extras?: DiagnosticExtras,
): Diagnostic
export function diagnostic(
  file: string,
  ruleId: RuleId,
  reason: string,
  place?: Position | Point,
  extras?: DiagnosticExtras,
): Diagnostic
export function diagnostic(
  file: string,
  what: Message | RuleId,
  ...rest: [string, (Position | Point)?, DiagnosticExtras?] | [(Position | Point)?, DiagnosticExtras?]
): Diagnostic {
  if (typeof what === 'string') {
    const [reason, place, extras] = rest as [string, (Position | Point)?, DiagnosticExtras?]
    return build(file, {ruleId: what, reason}, place, extras)
  }
  const [place, extras] = rest as [(Position | Point)?, DiagnosticExtras?]
  return build(file, what, place, extras)
}

function build(
  file: string,
  message: Message,
  place: Position | Point | undefined,
  extras: DiagnosticExtras = {},
): Diagnostic {
  const built: Diagnostic = new VFileMessage(message.reason, {place, ruleId: message.ruleId, source: 'passepartout'})
  built.file = file
  built.fatal = (extras.severity ?? RULES[message.ruleId][0]) === 'error'
  built.url = ruleUrl(message.ruleId)
  if (message.note) built.note = message.note
  if (message.expected && message.expected.length > 0) built.expected = [...message.expected]
  if (extras.code) built.code = extras.code
  return built
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
  note: string | null
  expected: string[] | null
  start: {line: number; column: number} | null
  end: {line: number; column: number} | null
}

export function toPlainDiagnostic(message: Diagnostic): PlainDiagnostic {
  const {start, end} = pointsOf(message)
  return {
    file: message.file || null,
    rule: String(message.ruleId),
    severity: severityOf(message),
    code: message.code ?? null,
    reason: message.reason,
    note: message.note ?? null,
    expected: message.expected ?? null,
    start: start ? {line: start.line, column: start.column} : null,
    end: end ? {line: end.line, column: end.column} : null,
  }
}

export function fromPlainDiagnostic(plain: PlainDiagnostic): Diagnostic {
  const place = plain.start ? {start: plain.start, end: plain.end ?? plain.start} : undefined
  const message: Message = {
    ruleId: plain.rule as RuleId,
    reason: plain.reason,
    ...(plain.note ? {note: plain.note} : {}),
    ...(plain.expected ? {expected: plain.expected} : {}),
  }
  return diagnostic(plain.file ?? '', message, place, {
    severity: plain.severity,
    ...(plain.code ? {code: plain.code} : {}),
  })
}

/**
 * A diagnostic in every `--json` report: the same fields in the same order, `null` where absent. Lines are
 * 1-based; columns are 1-based, in UTF-16 code units; `file` is relative to the working folder when inside it.
 */
export interface DiagnosticJson {
  /** Relative to the working folder when inside it, else absolute. */
  file: string | null
  /** 1-based. */
  line: number | null
  /** 1-based, in UTF-16 code units. */
  column: number | null
  /** 1-based; null when the place is a point. */
  endLine: number | null
  /** 1-based, in UTF-16 code units: the column after the last character. */
  endColumn: number | null
  severity: Severity
  rule: string
  /** The checker's own code (`TS2322`). */
  code: string | null
  reason: string
  /** Emacs's own error text, `Emacs: …`. */
  note: string | null
  /** Suggestions. */
  expected: string[] | null
  /** Where the rule is explained: its row in the reference of the rules. */
  url: string | null
}

export function diagnosticJson(message: Diagnostic, cwd: string): DiagnosticJson {
  const {start, end} = pointsOf(message)
  return {
    file: message.file ? displayPath(message.file, cwd) : null,
    line: start?.line ?? null,
    column: start?.column ?? null,
    endLine: end?.line ?? null,
    endColumn: end?.column ?? null,
    severity: severityOf(message),
    rule: String(message.ruleId),
    code: message.code ?? null,
    reason: message.reason,
    note: message.note ?? null,
    expected: message.expected ?? null,
    url: message.url ?? null,
  }
}

/** The start and end of a message's place (a point has no end); a line of 0 is no place. */
function pointsOf(message: Diagnostic): {start: Point | undefined; end: Point | undefined} {
  const place = message.place
  const start = place && 'start' in place ? place.start : place
  const end = place && 'end' in place ? place.end : undefined
  return {start: start?.line ? start : undefined, end: end?.line ? end : undefined}
}

export function severityOf(message: Diagnostic): Severity {
  return message.fatal ? 'error' : 'warning'
}

export function isError(message: Diagnostic): boolean {
  return message.fatal === true
}

/**
 * `path:LINE:COL: severity: reason [rule]`, the path relative to `cwd` when inside it; printable (a skill's
 * error or a file's name may hold escape sequences), in the colours of PAINT: the place strong, the severity
 * in its own.
 */
export function formatDiagnostic(message: Diagnostic, cwd: string, paint: Palette = PLAIN): string {
  const file = printable(displayPath(message.file ?? '', cwd))
  const where = message.line ? `${file}:${message.line}:${message.column ?? 1}` : file
  const severity = severityOf(message)
  const kind = paint[severity](message.code ? `${severity} ${message.code}` : severity)
  return `${paint.strong(where)}: ${kind}: ${printable(message.reason)} [${message.ruleId}]`
}

/** The lines printed under the first, printable: `  note: …` (Emacs's own words), then `  help: …` for each hint. */
export function formatDetails(message: Diagnostic): string[] {
  const lines = message.note ? [`  note: ${printable(message.note)}`] : []
  for (const help of message.expected ?? []) lines.push(`  help: ${printable(help)}`)
  return lines
}

export {codeFrame} from './code-frame.ts'

export function displayPath(file: string, cwd: string): string {
  return isInside(file, cwd) ? path.relative(cwd, file) : file
}
