/**
 * The lines around a diagnostic with a caret under its column, as rollup's
 * `getCodeFrame` shows them, for lines of any length:
 *
 *       3 | #+begin_src typescript
 *     > 4 | …st total = items.reduce((sum, item) => sum + item.price, 0) as strin…
 *         |                                                               ^
 *
 * A line wider than `FRAME_WIDTH` columns is shown as a window around the
 * caret, `…` at each end that was cut; the lines around it are cut to the same
 * window, so that columns stay aligned. Tabs go to the next multiple of
 * `TAB_STOP` in every line and in the caret line alike. A column past the end
 * of its line is clamped to the end; a line that the text does not have gives
 * no frame.
 */

/** The character codes the scanner looks at (micromark's `codes`). */
const codes = {
  horizontalTab: 0x09,
  lineFeed: 0x0a,
  carriageReturn: 0x0d,
  space: 0x20,
  highSurrogateFirst: 0xd8_00,
  lowSurrogateFirst: 0xdc_00,
  lowSurrogateLast: 0xdf_ff,
} as const

/** Tabs are shown up to the next multiple of this column (so leading tabs look as they did: four spaces each). */
export const TAB_STOP = 4
/** The widest a line's text is shown, in columns; a wider line is a window around the caret. */
export const FRAME_WIDTH = 120
const ELLIPSIS = '…'

/**
 * The frame of the 1-based LINE and COLUMN (1-based, in UTF-16 code units) of TEXT: that line with the one
 * before and the one after, or the empty string when TEXT has no such line.
 */
export function codeFrame(text: string, line: number, column: number): string {
  const lines = linesAround(text, line)
  if (lines === undefined) return ''
  const target = lines.find((entry) => entry.number === line)!.text
  const caret = columnOf(target, clampIndex(target, column - 1))
  // The window: the whole line when it fits, else FRAME_WIDTH columns with the caret in the middle.
  const width = columnOf(target, target.length)
  const start =
    width > FRAME_WIDTH ? Math.max(0, Math.min(caret - Math.floor(FRAME_WIDTH / 2), width - FRAME_WIDTH)) : 0
  const end = start + FRAME_WIDTH
  const gutter = String(lines.at(-1)!.number).length
  const out: string[] = []
  for (const entry of lines) {
    const marker = entry.number === line ? '>' : ' '
    out.push(`${marker} ${String(entry.number).padStart(gutter)} | ${windowOf(entry.text, start, end)}`)
    if (entry.number === line)
      out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(caret - start + (start > 0 ? ELLIPSIS.length : 0))}^`)
  }
  return out.join('\n')
}

interface FrameLine {
  /** 1-based. */
  number: number
  /** Without its line ending. */
  text: string
}

/**
 * LINE of TEXT with its neighbours, found in one pass that stops after them; undefined when LINE is below 1
 * or past the last line (a text ending with a line feed has an empty last line, as an editor shows it).
 *
 *     #+begin_src sh␍␊
 *                   ^ a CR before the LF is part of the line ending, not of the line
 */
function linesAround(text: string, line: number): FrameLine[] | undefined {
  if (!Number.isInteger(line) || line < 1) return undefined
  const found: FrameLine[] = []
  let number = 1
  let start = 0
  for (let index = 0; index <= text.length && number <= line + 1; index++) {
    if (index < text.length && text.charCodeAt(index) !== codes.lineFeed) continue
    if (number >= line - 1) {
      const stop = index > start && text.charCodeAt(index - 1) === codes.carriageReturn ? index - 1 : index
      found.push({number, text: text.slice(start, stop)})
    }
    number++
    start = index + 1
  }
  return found.some((entry) => entry.number === line) ? found : undefined
}

/**
 * INDEX (0-based, UTF-16) kept inside TEXT: at most its end (the place after its last character), and never
 * between the two halves of a surrogate pair.
 */
function clampIndex(text: string, index: number): number {
  const clamped = Math.min(Math.max(0, Number.isFinite(index) ? Math.floor(index) : 0), text.length)
  return clamped > 0 &&
    clamped < text.length &&
    isLowSurrogate(text.charCodeAt(clamped)) &&
    isHighSurrogate(text.charCodeAt(clamped - 1))
    ? clamped - 1
    : clamped
}

/**
 * The column (0-based) at which the UTF-16 INDEX of TEXT is shown: one column a character (a surrogate pair
 * is one character), a tab up to the next tab stop.
 *
 *     a→b
 *        ^ with TAB_STOP 4, `b` (index 2) is at column 4
 */
function columnOf(text: string, index: number): number {
  let column = 0
  for (let k = 0; k < index; k++) {
    const code = text.charCodeAt(k)
    if (code === codes.horizontalTab) column = nextTabStop(column)
    else if (!(isLowSurrogate(code) && k > 0 && isHighSurrogate(text.charCodeAt(k - 1)))) column++
  }
  return column
}

/**
 * The columns [START, END) of TEXT as shown, tabs expanded, with `…` where the text goes on beyond them; an
 * ellipsis takes the place of the column before START, so that every line of one frame stays aligned.
 */
function windowOf(text: string, start: number, end: number): string {
  let shown = ''
  let column = 0
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k)
    if (code === codes.horizontalTab) {
      const next = nextTabStop(column)
      for (let c = Math.max(column, start); c < Math.min(next, end); c++) shown += ' '
      column = next
    } else if (isHighSurrogate(code) && k + 1 < text.length && isLowSurrogate(text.charCodeAt(k + 1))) {
      if (column >= start && column < end) shown += text.slice(k, k + 2)
      column++
      k++
    } else {
      if (column >= start && column < end) shown += text[k]
      column++
    }
    if (column > end) break
  }
  const before = start > 0 && column > start ? ELLIPSIS : ''
  const after = column > end ? ELLIPSIS : ''
  return `${before}${shown}${after}`
}

function nextTabStop(column: number): number {
  return (Math.floor(column / TAB_STOP) + 1) * TAB_STOP
}

function isHighSurrogate(code: number): boolean {
  return code >= codes.highSurrogateFirst && code < codes.lowSurrogateFirst
}

function isLowSurrogate(code: number): boolean {
  return code >= codes.lowSurrogateFirst && code <= codes.lowSurrogateLast
}
