/**
 * Line-level Org syntax, as Org 9.5's regular expressions define it.
 *
 * Each predicate looks at one line (without its line ending). They are written
 * to mean exactly what the Emacs regexps mean, with Emacs's character classes:
 * `\s-` (whitespace syntax) is not JavaScript's `\s`, and `.` never matches a
 * newline only (JavaScript's also stops at `\r`, U+2028 and U+2029).
 */
import {BLANKS, BLANKS_AND_BREAKS, endOfContent, trimBoth, trimEnd} from './trim.ts'

/** Characters with whitespace syntax in an Org buffer (Emacs's `\s-`). */
export const WHITESPACE_SYNTAX = '\\t\\n\\f\\r \\u00a0\\u2000-\\u200b\\u202f\\u205f\\u3000'
const NOT_WS = `[^${WHITESPACE_SYNTAX}]`
const WORD = '[\\p{L}\\p{M}\\p{N}]'

export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c !== 32 && c !== 9) return false
  }
  return true
}

/** Index of the first character that is not a space or a tab. */
export function indentEnd(line: string): number {
  let i = 0
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++
  return i
}

/** `^\*+ `: the number of stars, or 0 when the line is not a headline. */
export function headlineLevel(line: string): number {
  let i = 0
  while (line.charCodeAt(i) === 42) i++
  return i > 0 && line.charCodeAt(i) === 32 ? i : 0
}

/** `^[ \t]*#\(?: \|$\)`: a comment line. */
export function isCommentLine(line: string): boolean {
  const i = indentEnd(line)
  return line.charCodeAt(i) === 35 && (i + 1 === line.length || line.charCodeAt(i + 1) === 32)
}

const PLANNING = /^[ \t]*(?:CLOSED:|DEADLINE:|SCHEDULED:)/i
export const isPlanningLine = (line: string) => PLANNING.test(line)

const PROPERTIES_START = /^[ \t]*:PROPERTIES:[ \t]*$/i
const DRAWER_END = /^[ \t]*:END:[ \t]*$/i
const PROPERTY_LINE = new RegExp(`^[ \\t]*:(${NOT_WS}+):(?:[ \\t][^\\n]*)?$`, 'u')
export const isPropertiesStart = (line: string) => PROPERTIES_START.test(line)
export const isDrawerEnd = (line: string) => DRAWER_END.test(line)

/** A node property line `:KEY: value`, or null. */
export function nodeProperty(line: string): {key: string; value: string; keyStart: number} | null {
  const match = PROPERTY_LINE.exec(line)
  if (!match) return null
  const key = match[1]!
  const keyStart = line.indexOf(':') + 1
  const value = trimBoth(line.slice(keyStart + key.length + 1))
  return {key, value, keyStart}
}

const DRAWER_START = new RegExp(`^[ \\t]*:((?:${WORD}|[-_])+):[ \\t]*$`, 'u')
export const isDrawerStart = (line: string) => DRAWER_START.test(line)

const FIXED_WIDTH = /^[ \t]*:(?: |$)/
export const isFixedWidth = (line: string) => FIXED_WIDTH.test(line)

const BLOCK_BEGIN = new RegExp(`^[ \\t]*#\\+BEGIN_(${NOT_WS}+)`, 'iu')
/** `#+BEGIN_NAME`: the upper-cased block name, or null. */
export function blockBeginName(line: string): string | null {
  const match = BLOCK_BEGIN.exec(line)
  return match ? match[1]!.toUpperCase() : null
}

const BLOCK_END = new RegExp(`^[ \\t]*#\\+END_(${NOT_WS}+)[ \\t]*$`, 'iu')
/** `#+END_NAME`: the upper-cased block name it closes, or null. */
export function blockEndName(line: string): string | null {
  const match = BLOCK_END.exec(line)
  return match ? match[1]!.toUpperCase() : null
}

const DYNAMIC_BEGIN = /^[ \t]*#\+BEGIN:? /i
const DYNAMIC_END = /^[ \t]*#\+END:?[ \t]*$/i
export const isDynamicBegin = (line: string) => DYNAMIC_BEGIN.test(line)
export const isDynamicEnd = (line: string) => DYNAMIC_END.test(line)

const CALL = /^[ \t]*#\+CALL:/i
export const isBabelCall = (line: string) => CALL.test(line)

const KEYWORD = new RegExp(`^[ \\t]*#\\+(${NOT_WS}*?):[ \\t]*([^\\n]*)$`, 'u')
const KEYWORD_SHAPE = new RegExp(`^[ \\t]*#\\+${NOT_WS}+:`, 'u')
/** A `#+KEY: value` keyword line: upper-cased key and trimmed value, or null. */
export function keywordLine(line: string): {key: string; value: string} | null {
  if (!KEYWORD_SHAPE.test(line)) return null
  const match = KEYWORD.exec(line)
  if (!match) return null
  return {key: match[1]!.toUpperCase(), value: orgTrim(match[2]!)}
}

const AFFILIATED =
  /^[ \t]*#\+(?:(CAPTION|RESULTS)(?:\[[^\n]*\])?|(DATA|HEADERS?|LABEL|NAME|PLOT|RESNAME|RESULT|SOURCE|SRCNAME|TBLNAME)|(ATTR_[-_A-Za-z0-9]+)):[ \t]*/i
const AFFILIATED_TRANSLATION: Record<string, string> = {
  DATA: 'NAME',
  LABEL: 'NAME',
  RESNAME: 'NAME',
  SOURCE: 'NAME',
  SRCNAME: 'NAME',
  TBLNAME: 'NAME',
  RESULT: 'RESULTS',
  HEADERS: 'HEADER',
}
/** An affiliated keyword line (`#+NAME:`, `#+HEADER:`, …), translated as Org does, or null. */
export function affiliatedLine(
  line: string,
): {key: string; spelling: string; value: string; valueStart: number} | null {
  const match = AFFILIATED.exec(line)
  if (!match) return null
  const raw = (match[1] ?? match[2] ?? match[3]!).toUpperCase()
  const key = AFFILIATED_TRANSLATION[raw] ?? raw
  const valueStart = match[0].length
  return {key, spelling: raw, value: orgTrim(trimEnd(line.slice(valueStart))), valueStart}
}

const LATEX_BEGIN = /^[ \t]*\\begin\{([A-Za-z0-9*]+)\}/
/** `\begin{NAME}` at the start of a line: the environment name, or null. */
export function latexBeginName(line: string): string | null {
  return LATEX_BEGIN.exec(line)?.[1] ?? null
}
const LATEX_END = /\\end\{([^}\n]*)\}[ \t]*$/i
/** `\end{NAME}` at the end of a line: the upper-cased name, or null. */
export function latexEndName(line: string): string | null {
  return LATEX_END.exec(line)?.[1]?.toUpperCase() ?? null
}

const FOOTNOTE_DEFINITION = new RegExp(`^\\[fn:(?:${WORD}|[-_])+\\]`, 'u')
export const isFootnoteDefinition = (line: string) => FOOTNOTE_DEFINITION.test(line)

const TABLE = /^[ \t]*\|/
export const isTableLine = (line: string) => TABLE.test(line)

const ITEM = /^(?:[ \t]*(?:[-+]|[0-9]+[.)])|[ \t]+\*)(?:[ \t]|$)/
export const isItem = (line: string) => ITEM.test(line)

/** `org-trim`: drop leading and trailing spaces, tabs, newlines and CRs. */
export function orgTrim(text: string): string {
  return trimBoth(text, BLANKS_AND_BREAKS)
}

const SRC_BEGIN_PARTS = new RegExp(
  `^[ \\t]*#\\+BEGIN_SRC(?: +(${NOT_WS}+))?((?: +(?:-(?:l "[^\\n]+"|[ikr])|[-+]n(?: *[0-9]+)?))+)?([^\\n]*)$`,
  'iu',
)
/** The language, switches and header arguments of a `#+begin_src` line, as Org's element parser reads them. */
export function srcBeginParts(line: string): {
  language: string | null
  switches: string | null
  parameters: string | null
} {
  const match = SRC_BEGIN_PARTS.exec(line)
  const language = match?.[1] ?? null
  const switches = match?.[2] ? orgTrim(match[2]) : ''
  const parameters = match?.[3] ? orgTrim(match[3]) : ''
  return {language, switches: switches || null, parameters: parameters || null}
}

const TAG_CHAR = /[\p{L}\p{M}\p{Nl}\p{Nd}_@#%:]/u
const TAG_GROUP = /^:[\p{L}\p{M}\p{Nl}\p{Nd}_@#%:]+:$/u

/**
 * The tags at the end of TEXT as `[ \t]+(:TAGS:)[ \t]*$` finds them: where the blanks before them start and
 * the group, or null. Read from the end, character by character: the regular expression backtracks over a
 * run of blanks once for each blank (quadratic in a headline padded with spaces).
 */
function tagsAtEnd(text: string): {index: number; group: string} | null {
  const end = endOfContent(text)
  // A group of tags ends with a colon; most headlines have none, and are not read back character by character.
  if (text.charCodeAt(end - 1) !== 58) return null
  let start = end
  while (start > 0) {
    // A letter outside the BMP is two code units: test it whole, as the class does.
    const pair =
      start > 1 && (text.charCodeAt(start - 1) & 0xfc00) === 0xdc00 && (text.charCodeAt(start - 2) & 0xfc00) === 0xd800
    const width = pair ? 2 : 1
    if (!TAG_CHAR.test(text.slice(start - width, start))) break
    start -= width
  }
  if (start === 0 || !BLANKS.includes(text[start - 1]!) || !TAG_GROUP.test(text.slice(start, end))) return null
  let index = start - 1
  while (index > 0 && BLANKS.includes(text[index - 1]!)) index--
  return {index, group: text.slice(start, end)}
}

export interface HeadlineParts {
  todo: string | null
  priority: string | null
  /** Match group 4 of `org-complex-heading-regexp`: null when there is no title. */
  title: string | null
  tags: string[]
}

/**
 * Split a headline the way `org-complex-heading-regexp` does:
 * `^\(\*+\)\(?: +KEYWORD\)?\(?: +\(\[#.\]\)\)?\(?: +\(.*?\)\)??\(?:[ \t]+\(:TAGS:\)\)?[ \t]*$`,
 * with its preferences (keyword and priority when possible, the shortest title).
 */
export function headlineParts(line: string, todoKeywords: readonly string[]): HeadlineParts {
  const level = headlineLevel(line)
  const rest = line.slice(level)
  // `^\*+ (?:.*[ \t])?:(TAGS):[ \t]*$`: the blank before the group may be the one after the stars.
  const tagMatch = tagsAtEnd(line)
  const tags = tagMatch && tagMatch.index >= level ? tagMatch.group.slice(1, -1).split(':').filter(Boolean) : []
  const byLength = [...todoKeywords].sort((a, b) => b.length - a.length)
  for (const keyword of byLength) {
    const spaces = leadingSpaces(rest)
    if (spaces > 0 && rest.startsWith(keyword, spaces)) {
      const parts = afterKeyword(rest.slice(spaces + keyword.length))
      if (parts) return {todo: keyword, ...parts, tags}
    }
  }
  const parts = afterKeyword(rest) ?? {priority: null, title: null}
  return {todo: null, ...parts, tags}
}

function leadingSpaces(text: string): number {
  let i = 0
  while (text.charCodeAt(i) === 32) i++
  return i
}

function afterKeyword(rest: string): {priority: string | null; title: string | null} | undefined {
  const spaces = leadingSpaces(rest)
  if (spaces > 0 && rest[spaces] === '[' && rest[spaces + 1] === '#' && rest[spaces + 3] === ']') {
    const title = titleOf(rest.slice(spaces + 4))
    if (title !== undefined) return {priority: rest.slice(spaces, spaces + 4), title}
  }
  const title = titleOf(rest)
  return title === undefined ? undefined : {priority: null, title}
}

/** `\(?: +\(.*?\)\)??\(?:[ \t]+TAGS\)?[ \t]*$`: null for no title, undefined for no match. */
function titleOf(rest: string): string | null | undefined {
  if (isBlank(rest) || TAG_GROUP.test(trimBoth(rest))) {
    // No title at all; the tags group needs at least one blank before it.
    if (isBlank(rest) || /^[ \t]/.test(rest)) return null
  }
  const spaces = leadingSpaces(rest)
  if (spaces === 0) return undefined
  const body = rest.slice(spaces)
  const tags = tagsAtEnd(body)
  return tags ? body.slice(0, tags.index) : trimEnd(body)
}
