/**
 * Warnings for header arguments Org silently ignores or reads differently
 * from what they say: unknown names (`:TANGLE`, `:tangel`), values outside
 * the documented set (`:mkdirp maybe`), and `:tangle-mode 755` (decimal).
 * Emacs writes the same files either way; these only tell the author.
 */
import type {Position} from 'unist'
import type {Message} from '../diagnostics.ts'
import {decimalMode, unknownArgument, unusualValue} from '../messages/header.ts'
import type {OrgDocument} from './document.ts'
import {isEmacsLisp} from './languages.ts'

/** `org-babel-common-header-args-w-values` (Org 9.5), plus `:lexical` of Emacs Lisp. */
const KNOWN = new Set(
  [
    'cache',
    'cmdline',
    'colnames',
    'comments',
    'dir',
    'eval',
    'exports',
    'epilogue',
    'file',
    'file-desc',
    'file-ext',
    'file-mode',
    'hlines',
    'mkdirp',
    'no-expand',
    'noeval',
    'noweb',
    'noweb-ref',
    'noweb-sep',
    'output-dir',
    'padline',
    'post',
    'prologue',
    'results',
    'rownames',
    'sep',
    'session',
    'shebang',
    'tangle',
    'tangle-mode',
    'var',
    'wrap',
  ].map((name) => `:${name}`),
)

const VALUES: Record<string, {allowed: readonly string[]; reading: string}> = {
  ':mkdirp': {allowed: ['yes', 'no'], reading: 'Org creates the directories for any value but "no"'},
  ':padline': {allowed: ['yes', 'no'], reading: 'Org adds the empty line for any value but "no"'},
  ':comments': {allowed: ['no', 'link', 'yes', 'org', 'both', 'noweb'], reading: 'Org writes no comments for it'},
  ':noweb': {
    allowed: ['yes', 'no', 'tangle', 'no-export', 'strip-export', 'eval'],
    reading: 'Org expands references only for yes, tangle, no-export and strip-export',
  },
}

type Report = (message: Message, place: Position | undefined) => void

export function lintHeaderArguments(doc: OrgDocument, report: Report): void {
  for (const block of doc.blocks) {
    check(block.parameters, block.open, doc, report, isEmacsLisp(block.language))
    for (const header of block.headers) check(header.value, header.position, doc, report, isEmacsLisp(block.language))
  }
  for (const drawer of doc.drawers.values()) {
    for (const property of drawer.properties) {
      if (/^header-args(?::[^+]*)?\+?$/i.test(property.key))
        check(property.value, property.position, doc, report, /:(?:emacs-lisp|elisp)\+?$/i.test(property.key))
    }
  }
  for (const keyword of doc.keywords) {
    const match = /^(header-args(?::\S*)?)[ \t]+(.*)$/i.exec(keyword.value)
    if (keyword.key === 'PROPERTY' && match)
      check(match[2]!, lineSpan(doc, keyword.line), doc, report, /:(?:emacs-lisp|elisp)\+?$/i.test(match[1]!))
  }
}

function check(text: string | null, where: Position, doc: OrgDocument, report: Report, emacsLisp: boolean): void {
  if (text === null) return
  let args
  try {
    args = doc.headerArguments(text, false)
  } catch {
    return
  }
  const line = doc.lines[where.start.line - 1] ?? ''
  let searchFrom = 0
  for (const arg of args) {
    const column = line.indexOf(arg.name, searchFrom)
    if (column !== -1) searchFrom = column + arg.name.length
    const place: Position =
      column === -1
        ? where
        : {
            start: {line: where.start.line, column: column + 1},
            end: {line: where.start.line, column: column + 1 + arg.name.length},
          }
    if (!arg.name.startsWith(':')) continue
    if (!KNOWN.has(arg.name) && !(emacsLisp && arg.name === ':lexical')) {
      const lower = arg.name.toLowerCase()
      const nearby = KNOWN.has(lower) ? lower : nearest(arg.name)
      report(
        unknownArgument(arg.name, nearby === undefined ? undefined : {name: nearby, caseOnly: nearby === lower}),
        place,
      )
      continue
    }
    const rule = VALUES[arg.name]
    if (
      rule &&
      arg.value.kind === 'string' &&
      !rule.allowed.includes(arg.value.value) &&
      !(arg.name === ':noweb' && arg.value.value.split(/\s+/).some((word) => rule.allowed.includes(word)))
    ) {
      report(unusualValue(arg.name, arg.value.value, rule.allowed, rule.reading), place)
    }
    if (
      arg.name === ':tangle-mode' &&
      arg.value.kind === 'number' &&
      /^[0-7]{3,4}$/.test(String(arg.value.value)) &&
      arg.value.value > 7
    ) {
      report(decimalMode(arg.value.value), place)
    }
  }
}

/** A known name one edit (or one swap of neighbours) away, as a hint. */
function nearest(name: string): string | undefined {
  for (const known of KNOWN) if (editDistance(known, name) === 1) return known
  return undefined
}

/** Levenshtein distance counting a swap of two neighbouring characters as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({length: a.length + 1}, (_, i) =>
    Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

function lineSpan(doc: OrgDocument, line: number): Position {
  return {start: {line, column: 1}, end: {line, column: (doc.lines[line - 1]?.length ?? 0) + 1}}
}
