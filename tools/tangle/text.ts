/**
 * Text that remembers where it came from.
 *
 * Tangling edits block bodies (comma escapes, indentation, noweb expansion,
 * trimming) and joins them into files. Each generated line carries segments
 * saying which Org line and column its characters came from, so a position in
 * a generated file maps back to the Org file (for diagnostics and source maps).
 */

/** Where a run of generated characters came from. */
export interface Segment {
  /** 0-based column (UTF-16 code units) in the generated line where the run starts. */
  from: number
  /** 1-based Org line of the run's first character; 0 for text Org does not hold (comments, padding). */
  line: number
  /** 1-based Org column (UTF-16 code units) of the run's first character. */
  column: number
}

export interface SourceLine {
  text: string
  segments: Segment[]
}

export type SourceText = SourceLine[]

/** A line whose characters all come from `line`, starting at `column`. */
export function sourceLine(text: string, line: number, column = 1): SourceLine {
  return {text, segments: line > 0 ? [{from: 0, line, column}] : []}
}

/** Text Org does not hold (generated comments, padding, prologues): no origin. */
export function glue(text: string): SourceText {
  return text.split('\n').map((line) => ({text: line, segments: []}))
}

export function toText(lines: SourceText): string {
  return lines.map((line) => line.text).join('\n')
}

/** Replace `deleteCount` characters at `start` with `insert` (whose characters have no origin). */
export function splice(line: SourceLine, start: number, deleteCount: number, insert = ''): SourceLine {
  const end = start + deleteCount
  const text = line.text.slice(0, start) + insert + line.text.slice(end)
  const runs: Segment[] = line.segments.filter((segment) => segment.from < start)
  if (insert.length > 0) runs.push({from: start, line: 0, column: 0})
  if (end < line.text.length || (line.text.length === 0 && start === 0)) {
    const covering = runAt(line.segments, end)
    if (covering)
      runs.push({
        from: start + insert.length,
        line: covering.line,
        column: covering.line === 0 ? 0 : covering.column + (end - covering.from),
      })
  }
  for (const segment of line.segments)
    if (segment.from > end) runs.push({...segment, from: segment.from + insert.length - deleteCount})
  return {text, segments: normalize(runs, text.length)}
}

/** The run covering generated column `column`. */
function runAt(segments: Segment[], column: number): Segment | undefined {
  let found: Segment | undefined
  for (const segment of segments) {
    if (segment.from > column) break
    found = segment
  }
  return found
}

/** Keep one run per start column (the last), drop runs past the end, merge neighbouring glue. */
function normalize(runs: Segment[], length: number): Segment[] {
  const result: Segment[] = []
  for (const run of runs) {
    if (run.from >= length && !(length === 0 && run.from === 0)) continue
    const previous = result[result.length - 1]
    if (previous && previous.from === run.from) result[result.length - 1] = run
    else if (previous && previous.line === 0 && run.line === 0) continue
    else result.push(run)
  }
  return result
}

/** `prefix` + `line`: the prefix keeps its own segments. */
export function concatLines(prefix: SourceLine, line: SourceLine): SourceLine {
  return joinLines([prefix, line])
}

/** The lines joined into one, each keeping its segments; linear in the total, however many parts. */
export function joinLines(parts: readonly SourceLine[]): SourceLine {
  const runs: Segment[] = []
  let length = 0
  for (const part of parts) {
    for (const segment of part.segments) runs.push({...segment, from: segment.from + length})
    length += part.text.length
  }
  return {text: parts.map((part) => part.text).join(''), segments: normalize(runs, length)}
}

/** String concatenation of texts: the last line of each joins the first line of the next. */
export function concatText(...parts: SourceText[]): SourceText {
  const out: SourceText = [{text: '', segments: []}]
  for (const part of parts) {
    out[out.length - 1] = concatLines(out[out.length - 1]!, part[0]!)
    for (let k = 1; k < part.length; k++) out.push(part[k]!)
  }
  return out
}

/** Characters `start` to `end` of a line, with their origins. */
export function sliceLine(line: SourceLine, start: number, end = line.text.length): SourceLine {
  let result = splice(line, end, line.text.length - end)
  result = splice(result, 0, start)
  return result
}

/** The Org position of generated column `column` (0-based) of a line, or undefined for glue. */
export function originAt(line: SourceLine, column: number): {line: number; column: number} | undefined {
  const found = runAt(line.segments, column)
  if (!found || found.line === 0) return undefined
  return {line: found.line, column: found.column + (column - found.from)}
}
