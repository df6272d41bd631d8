/**
 * How Org Babel walks the blocks of a buffer (`org-babel-map-src-blocks`).
 *
 * Babel does not ask the element parser for blocks: it searches the text for
 * `org-babel-src-block-regexp` (a `#+begin_src LANG` line, then lazily up to the
 * next line starting with `#+end_src`, across headlines), keeps the matches
 * whose end lies in a real source block, and continues after each match. On
 * ordinary documents this visits every block; on an unterminated `#+begin_src`
 * it pairs that line with the next block's end, and Org then fails. This
 * module reproduces the walk, and the two other regexp searches tangling makes
 * (the previous block's end, a `#+NAME:`d block).
 */
import type {SrcBlock} from '../org/ast.ts'
import type {OrgDocument} from './document.ts'
import {trimBoth} from '../org/trim.ts'

export interface BabelVisit {
  /** 1-based line of the `#+begin_src` line the search matched. */
  begin: number
  /** 1-based line of the `#+end_src` line it paired with. */
  end: number
  /** The block at the begin line, or undefined when that line starts no block (Org then fails). */
  block: SrcBlock | undefined
  /** The block's number under its headline, counting every block (`Heading:N`). */
  counter: number
}

/** Index of the first value greater than AFTER in a sorted list (its length when none). */
function firstAfter(sorted: readonly number[], after: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= after) lo = mid + 1
    else hi = mid
  }
  return lo
}

const BEGIN = /^[ \t]*#\+begin_src[ \t]+[^ \f\t\n\r\v]/i

/** A cheap test before the regexps: the first non-blank character is `#`. */
function mayBeBlockLine(line: string): boolean {
  let i = 0
  while (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9) i++
  return line.charCodeAt(i) === 35
}
const END = /^[ \t]*#\+end_src/i

/** Per-document index of the lines the regexp cares about. */
export class BabelIndex {
  /** 1-based begin-candidate lines. */
  private readonly candidates: number[] = []
  /** 1-based lines starting with `#+end_src`. */
  private readonly ends: number[] = []
  /** 1-based lines holding a NUL character, which the regexp cannot cross. */
  private readonly nulLines: number[] = []
  private visitsCache: BabelVisit[] | undefined

  constructor(private readonly doc: OrgDocument) {
    const lines = doc.lines
    for (let n = 1; n <= lines.length; n++) {
      const line = lines[n - 1]!
      if (!mayBeBlockLine(line)) continue
      // The begin line must end with a newline: the last line of the text has none.
      if (n < lines.length && BEGIN.test(line)) this.candidates.push(n)
      else if (END.test(line)) this.ends.push(n)
    }
    if (doc.text.includes('\0')) lines.forEach((line, k) => line.includes('\0') && this.nulLines.push(k + 1))
  }

  /** The end line the regexp pairs with the candidate at BEGIN, or undefined when it cannot match. */
  regexEnd(begin: number): number | undefined {
    const end = this.ends[firstAfter(this.ends, begin)]
    if (end === undefined) return undefined
    const nul = this.nulLines[firstAfter(this.nulLines, begin)]
    return nul !== undefined && nul < end ? undefined : end
  }

  /** The blocks Babel visits, in order, with Org's per-headline counter. */
  visits(): BabelVisit[] {
    if (this.visitsCache) return this.visitsCache
    const visits: BabelVisit[] = []
    let after = 0
    let counter = 0
    let lastHeadline: number | undefined
    for (const begin of this.candidates) {
      if (begin <= after) continue
      const end = this.regexEnd(begin)
      if (end === undefined) continue
      after = end
      if (!this.doc.blockAt(end)) continue
      const headline = this.doc.headlineAt(begin)
      counter = headline === lastHeadline ? counter + 1 : 1
      lastHeadline = headline
      visits.push({begin, end, block: this.doc.blockAt(begin), counter})
    }
    this.visitsCache = visits
    return visits
  }

  /**
   * `re-search-backward org-babel-src-block-regexp` from the start of line
   * LINE: the offset just after `#+end_src` of the nearest match ending before
   * it, or undefined.
   */
  previousEnd(line: number): number | undefined {
    let lo = 0
    let hi = this.candidates.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.candidates[mid]! < line) lo = mid + 1
      else hi = mid
    }
    for (let k = lo - 1; k >= 0; k--) {
      const begin = this.candidates[k]!
      const end = this.regexEnd(begin)
      if (end !== undefined && end < line) return this.endOffset(end)
    }
    return undefined
  }

  /** Offset just after `#+end_src` on an end line. */
  endOffset(end: number): number {
    const text = this.doc.lines[end - 1]!
    return this.doc.lineStart(end) + (END.exec(text)?.[0].length ?? 0)
  }

  /**
   * `org-babel-named-src-block-regexp-for-name`: the first `#+name: NAME` line
   * (any case) followed by `#+KEY:` lines and a block the regexp matches;
   * returns the end line of that match.
   */
  namedBlockEnd(name: string): number | undefined {
    const wanted = name.toLowerCase()
    const lines = this.doc.lines
    for (const n of this.nameLines()) {
      const line = lines[n - 1]!
      // `[ \t]*#\+name:[ \t]*\(.*?\)[ \t]*$`, its blanks trimmed by a loop: the lazy group backtracks on blanks.
      const value = trimBoth(line.slice(/^[ \t]*#\+name:/i.exec(line)![0].length))
      if (value.toLowerCase() !== wanted) continue
      let next = n + 1
      while (
        next <= lines.length &&
        !BEGIN.test(lines[next - 1]!) &&
        /^[ \t]*#\+[^\t\n\f\r \u00a0\u2000-\u200b\u202f\u205f\u3000]+:/.test(lines[next - 1]!)
      )
        next++
      if (next > lines.length || next === lines.length || !BEGIN.test(lines[next - 1]!)) continue
      const end = this.regexEnd(next)
      if (end !== undefined) return end
    }
    return undefined
  }

  private nameLinesCache: number[] | undefined
  private nameLines(): number[] {
    if (!this.nameLinesCache) {
      this.nameLinesCache = []
      this.doc.lines.forEach((line, k) => {
        if (/^[ \t]*#\+name:/i.test(line)) this.nameLinesCache!.push(k + 1)
      })
    }
    return this.nameLinesCache
  }
}
