/**
 * What Org does to the text of a block on its way to a file: comma escapes,
 * indentation removal (`org-do-remove-indentation`), trimming (`org-trim`) and
 * code references, each on text that keeps its Org origins.
 */
import type {BodyLine} from '../org/ast.ts'
import {type SourceLine, type SourceText, splice, sourceLine} from './text.ts'

const TAB_WIDTH = 8
const WHITESPACE_SYNTAX = /[\t\n\f\r \u00a0\u2000-\u200b\u202f\u205f\u3000]/

/**
 * `org-babel--normalize-body` on a block's raw lines: unescape commas, join
 * (the final newline goes), and remove the common indentation unless the block
 * has the `-i` switch.
 */
export function normalizedBody(lines: readonly BodyLine[], preserveIndent: boolean): SourceText {
  const text: SourceText =
    lines.length === 0 ? [sourceLine('', 0)] : lines.map((line) => unescapeLine(sourceLine(line.value, line.line)))
  return preserveIndent ? text : removeIndentation(text)
}

/** `org-unescape-code-in-string`: `^[ \t]*,*\(,\)\(?:\*\|#\+\)` loses the matched comma. */
function unescapeLine(line: SourceLine): SourceLine {
  const match = /^[ \t]*,*(,)(?:\*|#\+)/.exec(line.text)
  if (!match) return line
  const comma = match[0].lastIndexOf(',')
  return splice(line, comma, 1)
}

/**
 * `org-remove-indentation`: remove the indentation common to the lines that
 * have text, a tab counting to the next multiple of 8; give up (and return the
 * text unchanged) when a line with text starts at column 0. Lines holding only
 * blanks are emptied.
 */
export function removeIndentation(text: SourceText): SourceText {
  // Emacs starts its minimum at `point-max` (the character count plus one), so
  // a short text loses at most that many columns: "\t}" keeps five spaces.
  let common = Number.POSITIVE_INFINITY
  for (const line of text) {
    const end = blankRunEnd(line.text)
    if (end === line.text.length || WHITESPACE_SYNTAX.test(line.text[end]!)) continue
    const indentation = columnAt(line.text, end)
    if (indentation === 0) return text
    common = Math.min(common, indentation)
  }
  // Counting characters matters only for short texts: point-max is at least half the UTF-16 length.
  let length = text.length
  for (const line of text) length += line.text.length
  if (common > length / 2 + 1) common = Math.min(common, pointMax(text))
  const result: SourceText = []
  for (let k = 0; k < text.length; k++) {
    const line = text[k]!
    // Emacs stops at the end of the buffer: an empty last line is not visited.
    if (k === text.length - 1 && line.text === '') {
      result.push(line)
      continue
    }
    const end = blankRunEnd(line.text)
    if (end === line.text.length) {
      result.push(splice(line, 0, end))
      continue
    }
    const indentation = columnAt(line.text, end)
    if (indentation < common) return text
    result.push(indentLineTo(line, indentation - common))
  }
  return result
}

/** The buffer's `point-max` for TEXT: its characters (code points, newlines included) plus one. */
function pointMax(text: SourceText): number {
  let count = text.length
  for (const line of text) {
    count += line.text.length
    for (let i = 0; i < line.text.length; i++) {
      const c = line.text.charCodeAt(i)
      if (c >= 0xd800 && c <= 0xdbff) count--
    }
  }
  return count
}

/** `indent-line-to` for a smaller column: keep what lies before it, drop the rest of the indentation. */
function indentLineTo(line: SourceLine, column: number): SourceLine {
  let result = line
  let position = 0
  let current = 0
  while (current < column) {
    const c = result.text[position]!
    const next = c === '\t' ? (Math.floor(current / TAB_WIDTH) + 1) * TAB_WIDTH : current + 1
    if (next > column) {
      // `move-to-column` with FORCE splits the tab that straddles the column.
      result = splice(result, position, 1, ' '.repeat(column - current) + '\t')
      position += column - current
      current = column
      break
    }
    current = next
    position++
  }
  return splice(result, position, blankRunEnd(result.text) - position)
}

/** End of the leading run of spaces and tabs. */
function blankRunEnd(text: string): number {
  let i = 0
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++
  return i
}

/** Display column of position `end` in a line of spaces and tabs. */
function columnAt(text: string, end: number): number {
  let column = 0
  for (let i = 0; i < end; i++)
    column = text[i] === '\t' ? (Math.floor(column / TAB_WIDTH) + 1) * TAB_WIDTH : column + 1
  return column
}

const TRIM = /[ \t\n\r]/

/** `org-trim`: drop leading and trailing spaces, tabs, CRs and blank lines. */
export function trim(text: SourceText): SourceText {
  let first = 0
  while (first < text.length - 1 && isAllTrim(text[first]!.text)) first++
  let last = text.length - 1
  while (last > first && isAllTrim(text[last]!.text)) last--
  const kept = text.slice(first, last + 1)
  const head = kept[0]!
  let lead = 0
  while (lead < head.text.length && TRIM.test(head.text[lead]!)) lead++
  kept[0] = splice(head, 0, lead)
  const tail = kept[kept.length - 1]!
  let end = tail.text.length
  while (end > 0 && TRIM.test(tail.text[end - 1]!)) end--
  kept[kept.length - 1] = splice(tail, end, tail.text.length - end)
  return kept
}

function isAllTrim(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!TRIM.test(text[i]!)) return false
  return true
}

/**
 * Remove code references (`-r` switch): `[ \t]*(ref:LABEL)[ \t]*` at the end of
 * a line, for the block's label format (`-l "FORMAT"`, default `(ref:%s)`).
 */
export function removeCoderefs(text: SourceText, format: string): SourceText {
  const label = '[-a-zA-Z0-9_][-a-zA-Z0-9_ ]*'
  const pattern = new RegExp(`[ \\t]*${format.split('%s').map(escapeRegExp).join(label)}[ \\t]*$`, 'i')
  return text.map((line) => {
    const match = pattern.exec(line.text)
    return match ? splice(line, match.index, match[0].length) : line
  })
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
