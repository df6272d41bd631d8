/**
 * From a position in a generated file back to the Org file: the tangler keeps,
 * for every generated line, which Org line and column each run of characters
 * came from (through indentation removal and noweb expansion). Glue that Org
 * does not hold (link comments, padding lines) maps to the nearest line that
 * came from a block, so every diagnostic lands on a line the author wrote.
 */
import {originAt, type SourceLine} from '../tangle/text.ts'

export interface OrgPoint {
  /** 1-based. */
  line: number
  /** 1-based, UTF-16 code units. */
  column: number
}

export class OriginMap {
  constructor(
    /** Absolute path of the Org file. */
    readonly orgPath: string,
    private readonly lines: readonly SourceLine[],
  ) {}

  /** The Org position of 1-based LINE and COLUMN of the generated file. */
  originOf(line: number, column: number): OrgPoint {
    const index = Math.min(Math.max(line - 1, 0), this.lines.length - 1)
    const exact = this.lines[index] && originAt(this.lines[index], column - 1)
    if (exact) return exact
    // Glue: the nearest line that came from a block, looking up first.
    for (let distance = 0; distance < this.lines.length; distance++) {
      for (const candidate of distance === 0 ? [index] : [index - distance, index + distance]) {
        const source = this.lines[candidate]
        const origin = source && firstOrigin(source)
        if (origin) return origin
      }
    }
    return {line: 1, column: 1}
  }
}

function firstOrigin(line: SourceLine): OrgPoint | undefined {
  const segment = line.segments.find((run) => run.line > 0)
  return segment ? {line: segment.line, column: segment.column} : undefined
}
