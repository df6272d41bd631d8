/**
 * Which Org line each generated line is a copy of: its home. The tangle keeps, for every run of characters of a
 * generated line, the Org line and column it came from (tangle/text.ts); a line is a copy of one block line when,
 * after a prefix that noweb references put before it, all its characters come from that one Org line, and that
 * line, once Org's escape comma and the indentation are taken off, reads exactly the same.
 *
 *     org line 15:   ··readonly polite = true        (a block named `polite`, indented by two)
 *     org line 4:    ··<<polite>>                    (the line referring to it)
 *     generated:     ··readonly polite = true
 *                    ^^ prefix, from line 4
 *                      ^ content, from line 15, column 3
 *
 * Anything else has no home: what Org wrote itself (comments, prologues, a padline's blank line, a shebang), a line
 * holding a noweb reference amid other text, a line whose coderef Org removed. A blank line loses its origin when
 * the tangle empties it; one between two lines of one block, whose count matches the Org lines between them, is
 * given its home back (`fillBlankGaps`).
 */
import type {SrcBlock} from '../org/ast.ts'
import type {SourceLine} from '../tangle/text.ts'

/** Where a generated line came from, when it is a copy of one line of a block. */
export interface Home {
  /** 1-based Org line. */
  orgLine: number
  block: SrcBlock
  /** The text noweb references put before the copy ('' for a line of the file's own block). */
  prefix: string
  /** The copy itself: the generated line without its prefix. */
  content: string
}

/** The document's blocks, to find the one whose body holds an Org line. */
export class BlockFinder {
  private readonly blocks: SrcBlock[]

  constructor(blocks: readonly SrcBlock[]) {
    this.blocks = [...blocks].sort((a, b) => a.open.start.line - b.open.start.line)
  }

  /** The block whose body holds the 1-based Org line LINE, or undefined. */
  at(line: number): SrcBlock | undefined {
    let low = 0
    let high = this.blocks.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (this.blocks[middle]!.open.start.line < line) low = middle + 1
      else high = middle
    }
    const block = this.blocks[low - 1]
    return block && line < block.close.start.line ? block : undefined
  }
}

/** The home of each of LINES (a target's, as planned), from the Org document's lines ORG_LINES (1-based: line N at N-1). */
export function homesOf(
  lines: readonly SourceLine[],
  orgLines: readonly string[],
  blocks: BlockFinder,
): (Home | undefined)[] {
  const homes = lines.map((line) => homeOf(line, orgLines, blocks))
  fillBlankGaps(homes, lines, orgLines)
  return homes
}

function homeOf(line: SourceLine, orgLines: readonly string[], blocks: BlockFinder): Home | undefined {
  const segments = line.segments
  const last = segments[segments.length - 1]
  if (!last || last.line === 0) return undefined
  // The content: the trailing runs from one Org line; the runs before it, the prefix, from references' lines.
  let first = segments.length - 1
  while (first > 0 && segments[first - 1]!.line === last.line) first--
  if (segments.slice(0, first).some((segment) => segment.line === 0)) return undefined
  const block = blocks.at(last.line)
  const content = line.text.slice(segments[first]!.from)
  if (!block || !isCopyOf(orgLines[last.line - 1] ?? '', content)) return undefined
  return {orgLine: last.line, block, prefix: line.text.slice(0, segments[first]!.from), content}
}

/** The escape comma Org takes off a block line (`org-unescape-code-in-string`), after the line's blanks. */
const ESCAPED = /^,(,*(?:\*|#\+))/

/** Whether the Org line ORG, its indentation and escape comma taken off, reads CONTENT without its own indentation. */
function isCopyOf(org: string, content: string): boolean {
  return org.trimStart().replace(ESCAPED, '$1') === content.trimStart()
}

/**
 * Give their homes back to the blank lines between two lines of one block (same prefix), where as many Org lines
 * lie between those two, all blank: the tangle emptied them and dropped their origin with their blanks.
 */
function fillBlankGaps(homes: (Home | undefined)[], lines: readonly SourceLine[], orgLines: readonly string[]): void {
  let previous = -1
  for (let index = 0; index < homes.length; index++) {
    const home = homes[index]
    if (!home) continue
    const before = previous >= 0 ? homes[previous]! : undefined
    if (before && index - previous > 1 && fitsGap(before, home, index - previous, lines, previous, orgLines)) {
      for (let gap = previous + 1; gap < index; gap++) {
        const text = lines[gap]!.text
        homes[gap] = {
          orgLine: before.orgLine + (gap - previous),
          block: before.block,
          prefix: before.prefix,
          content: text.startsWith(before.prefix) ? text.slice(before.prefix.length) : '',
        }
      }
    }
    previous = index
  }
}

function fitsGap(
  before: Home,
  after: Home,
  distance: number,
  lines: readonly SourceLine[],
  from: number,
  orgLines: readonly string[],
): boolean {
  if (before.block !== after.block || before.prefix !== after.prefix || after.orgLine - before.orgLine !== distance)
    return false
  for (let k = 1; k < distance; k++) {
    if (lines[from + k]!.text.trim() !== '' || (orgLines[before.orgLine - 1 + k] ?? '').trim() !== '') return false
  }
  return true
}
