/**
 * Comments as Emacs writes them when tangling: the comment syntax of the
 * language's major mode, applied by `comment-region` with the default
 * `indent` style.
 *
 * The mode table below was read off Emacs 28.2 (`comment-start`,
 * `comment-end`, `comment-add`, `comment-style`, `indent-tabs-mode` for each
 * mode, in a buffer with the mode enabled). `typescript` maps to the
 * `typescript-mode` the conformance setup defines (js-mode's syntax, as the
 * typescript-mode package does). A language whose mode Emacs lacks leaves the
 * buffer in fundamental mode, where `comment-region` fails.
 */

export interface CommentSyntax {
  /** The mode, without `-mode`. */
  mode: string
  start: string
  end: string
  /** `comment-add`: extra copies of a one-character starter (`;;`). */
  add: number
  /** `comment-style` `indent` puts starters at the region's indentation, `plain` at the margin. */
  indent: boolean
  /** `indent-tabs-mode`, which decides how a tab split by a starter is re-inserted. */
  tabs: boolean
}

/** `org-src-lang-modes` (Org 9.5 defaults). */
const LANG_MODES: Record<string, string> = {
  C: 'c',
  'C++': 'c++',
  asymptote: 'asy',
  bash: 'sh',
  beamer: 'latex',
  calc: 'fundamental',
  cpp: 'c++',
  ditaa: 'artist',
  dot: 'fundamental',
  elisp: 'emacs-lisp',
  ocaml: 'tuareg',
  screen: 'shell-script',
  shell: 'sh',
  sqlite: 'sql',
}

type Row = [start: string, end: string, add: number, indent: boolean, tabs: boolean]
const SLASHES: Row = ['// ', '', 0, true, true]
const HASH: Row = ['# ', '', 0, true, true]
const BARE_HASH: Row = ['#', '', 0, true, true]
const LISP: Row = [';', '', 1, true, true]

const MODES: Record<string, Row> = {
  typescript: SLASHES,
  js: SLASHES,
  javascript: SLASHES,
  'js-jsx': SLASHES,
  'c++': SLASHES,
  java: SLASHES,
  objc: SLASHES,
  idl: SLASHES,
  pike: SLASHES,
  verilog: SLASHES,
  antlr: SLASHES,
  opascal: SLASHES,
  delphi: SLASHES,
  scss: SLASHES,
  'less-css': ['//', '', 0, true, true],
  sh: HASH,
  'shell-script': HASH,
  python: ['# ', '', 0, true, false],
  ruby: ['# ', '', 0, true, false],
  perl: HASH,
  cperl: HASH,
  org: HASH,
  awk: HASH,
  tcl: HASH,
  icon: HASH,
  conf: BARE_HASH,
  'conf-unix': BARE_HASH,
  'conf-space': BARE_HASH,
  'conf-toml': BARE_HASH,
  'conf-javaprop': BARE_HASH,
  'conf-colon': BARE_HASH,
  makefile: BARE_HASH,
  'makefile-gmake': BARE_HASH,
  'makefile-bsdmake': BARE_HASH,
  'makefile-automake': BARE_HASH,
  m4: BARE_HASH,
  sieve: BARE_HASH,
  'gdb-script': BARE_HASH,
  'emacs-lisp': LISP,
  lisp: LISP,
  scheme: LISP,
  'common-lisp': LISP,
  'lisp-interaction': LISP,
  asm: LISP,
  css: ['/*', '*/', 0, true, true],
  c: ['/* ', ' */', 0, true, true],
  'ld-script': ['/* ', ' */', 0, true, true],
  html: ['<!-- ', ' -->', 0, true, true],
  mhtml: ['<!-- ', ' -->', 0, true, true],
  sgml: ['<!-- ', ' -->', 0, true, true],
  xml: ['<!--', '-->', 0, true, true],
  nxml: ['<!--', '-->', 0, true, true],
  sql: ['--', '', 0, true, true],
  vhdl: ['--', '', 0, true, false],
  latex: ['%', '', 1, false, false],
  tex: ['%', '', 1, false, false],
  doctex: ['%', '', 1, false, false],
  slitex: ['%', '', 1, false, false],
  'plain-tex': ['%', '', 1, true, false],
  prolog: ['%', '', 1, true, true],
  ps: ['%', '', 0, true, true],
  metafont: ['%', '', 0, true, true],
  octave: ['#', '', 1, true, true],
  f90: ['!', '', 0, true, false],
  dcl: ['!', '', 0, true, true],
  'conf-xdefaults': ['!', '', 0, true, true],
  'conf-windows': [';', '', 0, true, true],
  'conf-ppd': ['*%', '', 0, true, true],
  mixal: ['*', '', 0, true, true],
  bat: ['rem ', '', 0, true, true],
  texinfo: ['@c ', '', 0, true, false],
  nroff: ['\\" ', '', 0, true, true],
}

/** Emacs 28 modes with no comment syntax, and modes whose syntax we do not reproduce. */
const NO_SYNTAX = new Set(['fundamental', 'text', 'diff', 'artist', 'picture'])

/** The major mode Org uses for a language (`org-src-get-lang-mode`, without `-mode`). */
export function modeOf(language: string): string {
  return LANG_MODES[language] ?? language
}

export type SyntaxLookup =
  | {kind: 'syntax'; syntax: CommentSyntax}
  /** The mode exists but has no comment syntax: `comment-region` fails. */
  | {kind: 'none'; mode: string}
  /** Emacs 28 has no such mode (as far as we know). */
  | {kind: 'no-mode'; mode: string}

export function commentSyntax(language: string): SyntaxLookup {
  const mode = modeOf(language)
  const row = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined
  if (row)
    return {kind: 'syntax', syntax: {mode, start: row[0], end: row[1], add: row[2], indent: row[3], tabs: row[4]}}
  return NO_SYNTAX.has(mode) ? {kind: 'none', mode} : {kind: 'no-mode', mode}
}

const TAB_WIDTH = 8

/**
 * `comment-region` over TEXT: every line with text between the first and the
 * last such line gets the starter at the region's smallest indentation (and
 * the ender at its end); blank lines and the blank lines around stay as they are.
 */
export function commentRegion(text: string, syntax: CommentSyntax): string {
  const lines = text.split('\n')
  let first = 0
  while (first < lines.length && isBlankish(lines[first]!)) first++
  let last = lines.length - 1
  while (last >= first && isBlankish(lines[last]!)) last--
  if (first > last) return text
  const starter = padRight(syntax.start, syntax.start.trim().length === 1 ? syntax.add : 0)
  const ender = syntax.end === '' ? '' : ` ${syntax.end.trim()}`
  let minIndent = Number.POSITIVE_INFINITY
  for (let k = first; k <= last; k++) {
    if (/^[ \t]*$/.test(lines[k]!)) continue
    minIndent = Math.min(minIndent, indentation(lines[k]!))
  }
  if (!syntax.indent) minIndent = 0
  for (let k = first; k <= last; k++) {
    let line = lines[k]!
    if (/^[ \t]*$/.test(line)) continue
    if (ender) line = quoteNested(line, syntax)
    const {before, after} = splitAtColumn(line, minIndent, syntax.tabs)
    lines[k] = before + starter + after + ender
  }
  return lines.join('\n')
}

/** Lines `comment-region` skips at the edges of its region (`skip-chars-forward " \t\n\r"`). */
function isBlankish(line: string): boolean {
  return /^[ \t\r]*$/.test(line)
}

/** `comment-padright`: the starter, N more copies of its last character, then one space. */
function padRight(start: string, add: number): string {
  const core = start.trim()
  const lead = start.slice(0, start.indexOf(core))
  return `${lead}${core}${core.at(-1)!.repeat(add)} `
}

function indentation(line: string): number {
  let column = 0
  for (const c of line) {
    if (c === ' ') column++
    else if (c === '\t') column = (Math.floor(column / TAB_WIDTH) + 1) * TAB_WIDTH
    else break
  }
  return column
}

/** `move-to-column COLUMN t`: where the starter goes, splitting a tab that straddles the column. */
function splitAtColumn(line: string, goal: number, tabs: boolean): {before: string; after: string} {
  let column = 0
  let i = 0
  while (column < goal && i < line.length) {
    const c = line[i]!
    const next = c === '\t' ? (Math.floor(column / TAB_WIDTH) + 1) * TAB_WIDTH : column + 1
    if (next > goal && c === '\t') {
      const fill = tabs ? '\t' : ' '.repeat(next - goal)
      return {before: line.slice(0, i) + ' '.repeat(goal - column), after: fill + line.slice(i + 1)}
    }
    column = next
    i++
  }
  return {before: line.slice(0, i), after: line.slice(i)}
}

/** `comment-quote-nested-default`: a backslash after the first character of nested delimiters. */
function quoteNested(line: string, syntax: CommentSyntax): string {
  const quoteRe = (delimiter: string) => `${escape(delimiter[0]!)}\\\\*${escape(delimiter.slice(1))}`
  const pattern = new RegExp(`${quoteRe(syntax.end.trim())}|${quoteRe(syntax.start.trim())}`, 'g')
  return line.replace(pattern, (match) => `${match[0]}\\${match.slice(1)}`)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
