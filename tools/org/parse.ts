/**
 * The Org reader: a line-oriented scanner that recognises the elements Org's
 * own parser (org-element, Org 9.5) would recognise, in one pass, without
 * recursion.
 *
 * Every line is classified by what element would start there. Blocks, drawers
 * and LaTeX environments only exist when their closing line is found before the
 * end of the enclosing container (the next headline, or the end of the drawer or
 * block around them): otherwise Org reads their first line as text, and so do
 * we. Closing lines are looked up in per-kind indexes built in a first pass, so
 * the scan stays linear even on pathological input.
 */
import type {Position} from 'unist'
import type {
  AffiliatedKeyword,
  BodyLine,
  Headline,
  Keyword,
  NamedElement,
  NodeProperty,
  OrgNode,
  OrgRoot,
  PropertyDrawer,
  SrcBlock,
} from './ast.ts'
import type {Message} from '../diagnostics.ts'
import {detachedAffiliatedKeyword, ignoredPropertyDrawer, unterminatedBlock} from '../messages/org.ts'
import {decodeOrg} from './decode.ts'
import {
  affiliatedLine,
  blockBeginName,
  blockEndName,
  headlineLevel,
  headlineParts,
  indentEnd,
  isBabelCall,
  isBlank,
  isCommentLine,
  isDrawerEnd,
  isDrawerStart,
  isDynamicBegin,
  isDynamicEnd,
  isFixedWidth,
  isFootnoteDefinition,
  isItem,
  isPlanningLine,
  isPropertiesStart,
  isTableLine,
  keywordLine,
  latexBeginName,
  latexEndName,
  nodeProperty,
  srcBeginParts,
} from './syntax.ts'

/** A problem found while reading, with its place: the reader never throws. */
export interface ReadProblem extends Message {
  place: Position
}

export interface ReadResult {
  root: OrgRoot
  problems: ReadProblem[]
}

const DEFAULT_TODO_KEYWORDS = ['TODO', 'DONE']
/**
 * The characters an element other than a paragraph can start with, after its indentation: `#` (keywords,
 * blocks, affiliated keywords), `\` (LaTeX environments), `:` (drawers, fixed-width lines), `[` (footnote
 * definitions), `|` (tables), and the bullets and digits of list items.
 */
const ELEMENT_STARTS = new Set([...'#\\:[|-+*0123456789'].map((c) => c.charCodeAt(0)))
const RAW_BLOCKS = new Set(['EXAMPLE', 'EXPORT', 'COMMENT', 'VERSE'])

/**
 * The lines of BLOCK's body, raw, from the document's LINES: made when they are asked for, not for every
 * block read (an object per body line was a fifth of the reading of a large file).
 */
export function blockBody(block: SrcBlock, lines: readonly string[]): BodyLine[] {
  const body: BodyLine[] = []
  for (let line = block.open.start.line + 1; line < block.close.start.line; line++)
    body.push({value: lines[line - 1]!, line})
  return body
}

export interface ReadOptions {
  /**
   * The TODO keywords in effect, when they come from elsewhere too (a `#+SETUPFILE:`): by default, those of
   * the document's own `#+TODO:` lines (`todoKeywordsOf`).
   */
  todoKeywords?: readonly string[]
}

/** Read an Org document (bytes are decoded as Emacs would). */
export function readOrg(input: string | Uint8Array, options: ReadOptions = {}): ReadResult {
  const decoded = decodeOrg(input)
  return new Scanner(decoded.text).run(decoded, options)
}

/**
 * The TODO keywords of `#+TODO:`, `#+SEQ_TODO:` and `#+TYP_TODO:` lines (KEYWORDS, in order), as
 * `org-set-regexps-and-options` reads them: every word but `|`, without its `(k@/!)` shortcut; Org's
 * `TODO DONE` when there is no such line.
 */
export function todoKeywordsOf(keywords: readonly {key: string; value: string}[]): string[] {
  const found: string[] = []
  let any = false
  for (const keyword of keywords) {
    if (!['TODO', 'SEQ_TODO', 'TYP_TODO'].includes(keyword.key)) continue
    any = true
    for (const word of keyword.value.split(/[ \t\n\r\f\v]+/)) {
      if (word === '' || word === '|') continue
      found.push(word.replace(/^(.*?)(?:\([^!@/]?.*?\))?$/, '$1'))
    }
  }
  return any ? found : DEFAULT_TODO_KEYWORDS
}

interface Container {
  /** Index of the first line after the contents. */
  end: number
  /** Index of the line where scanning resumes after the container. */
  resume: number
}

/** Sorted line indexes, answering "the first one after line i". */
class LineList {
  readonly items: number[] = []
  next(after: number): number {
    const items = this.items
    let lo = 0
    let hi = items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (items[mid]! <= after) lo = mid + 1
      else hi = mid
    }
    return lo < items.length ? items[lo]! : Number.POSITIVE_INFINITY
  }
}

class Scanner {
  private readonly lines: string[]
  private readonly lineStarts: number[]
  private readonly headlines = new LineList()
  private readonly drawerEnds = new LineList()
  private readonly dynamicEnds = new LineList()
  private readonly footnoteStarts = new LineList()
  private readonly doubleBlanks = new LineList()
  private readonly blockEnds = new Map<string, LineList>()
  private readonly latexEnds = new Map<string, LineList>()
  /** 1 for each line of a property drawer Org reads. */
  private readonly propertyDrawerLines: Uint8Array
  /** End line (exclusive) of every list item seen so far, by its first line. */
  private readonly itemEnds = new Map<number, number>()

  private readonly nodes: OrgNode[] = []
  private readonly problems: ReadProblem[] = []
  private readonly headlineNodes: Headline[] = []
  private readonly headlineLines: number[] = []
  private srcCount = 0
  private currentHeadline = -1

  constructor(private readonly text: string) {
    this.lines = text.split('\n')
    this.propertyDrawerLines = new Uint8Array(this.lines.length)
    this.lineStarts = new Array<number>(this.lines.length)
    let offset = 0
    for (let i = 0; i < this.lines.length; i++) {
      this.lineStarts[i] = offset
      offset += this.lines[i]!.length + 1
    }
    this.index()
  }

  run(decoded: {eol: OrgRoot['data']['eol']; encoding: OrgRoot['data']['encoding']}, options: ReadOptions): ReadResult {
    const lines = this.lines
    let i = this.fileProperties()
    const stack: Container[] = []
    while (i < lines.length) {
      if (i === lines.length - 1 && lines[i] === '') break // after the final newline
      const level = headlineLevel(lines[i]!)
      if (level > 0) {
        stack.length = 0
        i = this.headline(i, level)
        continue
      }
      const top = stack[stack.length - 1]
      if (top && i >= top.end) {
        stack.pop()
        i = top.resume
        continue
      }
      const limit = top ? top.end : Math.min(this.headlines.next(i), lines.length)
      i = this.element(i, limit, stack)
    }
    const todoKeywords = [
      ...(options.todoKeywords ??
        todoKeywordsOf(this.nodes.filter((node): node is Keyword => node.type === 'keyword'))),
    ]
    for (const headline of this.headlineNodes) this.finishHeadline(headline, todoKeywords)
    const root: OrgRoot = {
      type: 'root',
      children: this.nodes,
      data: {
        text: this.text,
        lines: this.lines,
        lineStarts: this.lineStarts,
        eol: decoded.eol,
        encoding: decoded.encoding,
        todoKeywords,
      },
      position: {start: this.point(0, 0), end: this.point(lines.length - 1, lines[lines.length - 1]!.length)},
    }
    return {root, problems: this.problems}
  }

  /** First pass: where every kind of closing line is. */
  private index(): void {
    const lines = this.lines
    let previousBlank = false
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!
      const blank = isBlank(line)
      if (blank && previousBlank) this.doubleBlanks.items.push(i - 1)
      previousBlank = blank
      if (blank) continue
      const first = line.charCodeAt(indentEnd(line))
      if (line.charCodeAt(0) === 42 && headlineLevel(line) > 0) this.headlines.items.push(i)
      else if (first === 35) {
        const name = blockEndName(line)
        if (name !== null) this.listFor(this.blockEnds, name).items.push(i)
        else if (isDynamicEnd(line)) this.dynamicEnds.items.push(i)
      } else if (first === 58) {
        if (isDrawerEnd(line)) this.drawerEnds.items.push(i)
      } else if (line.charCodeAt(0) === 91 && isFootnoteDefinition(line)) this.footnoteStarts.items.push(i)
      if (line.includes('\\end{')) {
        const name = latexEndName(line)
        if (name !== null) this.listFor(this.latexEnds, name).items.push(i)
      }
    }
  }

  private listFor(map: Map<string, LineList>, key: string): LineList {
    let list = map.get(key)
    if (!list) map.set(key, (list = new LineList()))
    return list
  }

  /** The property drawer at the very top of the file (only comment lines may precede it). */
  private fileProperties(): number {
    let i = 0
    while (i < this.lines.length && isCommentLine(this.lines[i]!)) i++
    const end = this.propertyDrawerEnd(i)
    if (end === -1) return 0
    this.emitPropertyDrawer(i, end, -1)
    return end + 1
  }

  private headline(i: number, level: number): number {
    const lines = this.lines
    let parent = this.headlineNodes.length - 1
    while (parent >= 0 && this.headlineNodes[parent]!.level >= level) parent = this.headlineNodes[parent]!.parent
    const headline: Headline = {
      type: 'headline',
      index: this.headlineNodes.length,
      level,
      parent,
      todo: null,
      priority: null,
      title: null,
      tags: [],
      commented: false,
      archived: false,
      position: this.linePosition(i),
    }
    this.headlineNodes.push(headline)
    this.headlineLines.push(i)
    this.nodes.push(headline)
    this.currentHeadline = headline.index
    let next = i + 1
    if (next < lines.length && isPlanningLine(lines[next]!)) next++
    const end = this.propertyDrawerEnd(next)
    if (end === -1) return next
    this.emitPropertyDrawer(next, end, headline.index)
    return end + 1
  }

  private finishHeadline(headline: Headline, todoKeywords: string[]): void {
    const line = this.lines[headline.position.start.line - 1]!
    const parts = headlineParts(line, todoKeywords)
    headline.todo = parts.todo
    headline.priority = parts.priority
    headline.title = parts.title
    headline.tags = parts.tags
    headline.commented = parts.title !== null && /^COMMENT(?: |$)/.test(parts.title)
    headline.archived = parts.tags.includes('ARCHIVE')
  }

  /** `org-property-drawer-re` at line i: the index of its `:END:` line, or -1. */
  private propertyDrawerEnd(i: number): number {
    const lines = this.lines
    if (i >= lines.length || !isPropertiesStart(lines[i]!)) return -1
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!
      if (isDrawerEnd(line)) return j
      if (!nodeProperty(line)) return -1
    }
    return -1
  }

  private emitPropertyDrawer(start: number, end: number, headline: number): void {
    const properties: NodeProperty[] = []
    for (let j = start + 1; j < end; j++) {
      const line = this.lines[j]!
      const property = nodeProperty(line)!
      properties.push({
        key: property.key,
        value: property.value,
        position: this.position(j, property.keyStart - 1, j, line.length),
      })
    }
    this.propertyDrawerLines.fill(1, start, end + 1)
    const drawer: PropertyDrawer = {
      type: 'propertyDrawer',
      headline,
      properties,
      position: this.position(start, 0, end, this.lines[end]!.length),
    }
    this.nodes.push(drawer)
  }

  /** Parse the element starting at line i; return the line to continue from. */
  private element(i: number, limit: number, stack: Container[]): number {
    const lines = this.lines
    const line = lines[i]!
    if (isBlank(line)) return i + 1
    if (isCommentLine(line)) return i + 1
    // Most lines are text: a line whose first character starts no other element is a paragraph, which the tree does
    // not hold (a named one starts with its `#+NAME:` line).
    if (!ELEMENT_STARTS.has(line.charCodeAt(indentEnd(line)))) return i + 1
    const affiliated: AffiliatedKeyword[] = []
    let start = i
    for (let parsed; start < limit && (parsed = affiliatedLine(lines[start]!)); start++) {
      affiliated.push({
        key: parsed.key,
        spelling: parsed.spelling,
        value: parsed.value,
        position: this.position(start, indentEnd(lines[start]!), start, lines[start]!.length),
      })
    }
    if (affiliated.length > 0 && (start >= limit || isBlank(lines[start]!))) {
      this.orphanAffiliated(i, start, limit)
      return start
    }
    const head = lines[start]!
    const latex = latexBeginName(head)
    if (latex !== null) {
      const end = this.latexEnds.get(latex.toUpperCase())?.next(start - 1) ?? Number.POSITIVE_INFINITY
      if (end < limit) {
        this.named(affiliated, 'latex-environment', i, start)
        return end + 1
      }
      return this.paragraph(affiliated, i, start)
    }
    if (isDrawerStart(head)) {
      const end = this.drawerEnds.next(start)
      if (end < limit) {
        if (isPropertiesStart(head) && this.propertyDrawerLines[start] !== 1) this.ignoredPropertyDrawer(start)
        this.named(affiliated, 'drawer', i, start)
        stack.push({end, resume: end + 1})
        return start + 1
      }
      if (isPropertiesStart(head)) this.ignoredPropertyDrawer(start)
      return this.paragraph(affiliated, i, start)
    }
    if (isFixedWidth(head)) {
      this.named(affiliated, 'fixed-width', i, start)
      return start + 1
    }
    const first = head.charCodeAt(indentEnd(head))
    if (first === 35 && head.charCodeAt(indentEnd(head) + 1) === 43)
      return this.hashPlus(i, start, limit, affiliated, stack)
    if (head.charCodeAt(0) === 91 && isFootnoteDefinition(head)) {
      const end = Math.min(this.footnoteStarts.next(start), this.doubleBlanks.next(start), limit)
      this.named(affiliated, 'footnote-definition', i, start)
      stack.push({end, resume: end})
      return start + 1
    }
    if (isTableLine(head)) {
      this.named(affiliated, 'table', i, start)
      let j = start + 1
      while (j < limit && isTableLine(lines[j]!)) j++
      return j
    }
    if (isItem(head)) {
      if (!this.itemEnds.has(start)) {
        this.named(affiliated, 'plain-list', i, start)
        this.listStructure(start, limit)
      }
      const end = this.itemEnds.get(start)!
      stack.push({end, resume: end})
      return start + 1
    }
    return this.paragraph(affiliated, i, start)
  }

  /**
   * Where the items of the list starting at line START end (`org-element--list-struct`):
   * an item ends at the next item as indented or less, at text as indented or less
   * (after the last line with text), at two blank lines, or at LIMIT. Blocks and
   * drawers that start inside an item are skipped whole.
   */
  private listStructure(start: number, limit: number): void {
    const lines = this.lines
    const open: {line: number; indent: number}[] = []
    const close = (end: number, downTo = Number.NEGATIVE_INFINITY) => {
      while (open.length > 0 && open[open.length - 1]!.indent >= downTo) this.itemEnds.set(open.pop()!.line, end)
    }
    const afterLastText = (line: number) => {
      let k = line - 1
      while (k >= start && /^[ \t\r]*$/.test(lines[k]!)) k--
      return k + 1
    }
    for (let i = start; ; i++) {
      if (i >= limit) return close(afterLastText(limit))
      const line = lines[i]!
      if (isBlank(line) && i + 1 < lines.length - 1 && isBlank(lines[i + 1]!)) return close(i)
      if (isItem(line)) {
        const indent = columnOf(line)
        close(i, indent)
        open.push({line: i, indent})
        continue
      }
      if (isBlank(line)) continue
      close(afterLastText(i), columnOf(line))
      if (open.length === 0) return
      const block = /^[ \t]*#\+BEGIN(:|_[^\t\n\f\r \u00a0\u2000-\u200b\u202f\u205f\u3000]+)/i.exec(line)
      if (block) {
        const end = this.closingLine(i, limit, block[1]!)
        if (end !== undefined) i = end
      } else if (isDrawerStart(line)) {
        const end = this.drawerEnds.next(i)
        if (end < limit) i = end
      }
    }
  }

  /** The `#+END<suffix>` line closing a block opened at line I, before LIMIT. */
  private closingLine(i: number, limit: number, suffix: string): number | undefined {
    const end =
      suffix === ':'
        ? this.dynamicEnds.next(i)
        : (this.blockEnds.get(suffix.slice(1).toUpperCase())?.next(i) ?? Number.POSITIVE_INFINITY)
    return end < limit ? end : undefined
  }

  /** Lines starting with `#+`: blocks, babel calls, dynamic blocks, keywords. */
  private hashPlus(
    i: number,
    start: number,
    limit: number,
    affiliated: AffiliatedKeyword[],
    stack: Container[],
  ): number {
    const head = this.lines[start]!
    const block = blockBeginName(head)
    if (block !== null) {
      const end = this.blockEnds.get(block)?.next(start) ?? Number.POSITIVE_INFINITY
      if (end >= limit) {
        if (block === 'SRC') this.unterminatedSrc(start, limit)
        return this.paragraph(affiliated, i, start)
      }
      if (block === 'SRC') {
        this.srcBlock(i, start, end, affiliated)
        return end + 1
      }
      if (RAW_BLOCKS.has(block)) {
        this.named(affiliated, `${block.toLowerCase()}-block`, i, start)
        return end + 1
      }
      this.named(
        affiliated,
        block === 'CENTER' || block === 'QUOTE' ? `${block.toLowerCase()}-block` : 'special-block',
        i,
        start,
      )
      stack.push({end, resume: end + 1})
      return start + 1
    }
    if (isBabelCall(head)) {
      this.named(affiliated, 'babel-call', i, start)
      return start + 1
    }
    if (isDynamicBegin(head)) {
      const end = this.dynamicEnds.next(start)
      if (end < limit) {
        this.named(affiliated, 'dynamic-block', i, start)
        stack.push({end, resume: end + 1})
        return start + 1
      }
      return this.paragraph(affiliated, i, start)
    }
    const keyword = keywordLine(head)
    if (keyword) {
      this.nodes.push({
        type: 'keyword',
        key: keyword.key,
        value: keyword.value,
        position: this.linePosition(start),
      } satisfies Keyword)
      return start + 1
    }
    return this.paragraph(affiliated, i, start)
  }

  private paragraph(affiliated: AffiliatedKeyword[], i: number, start: number): number {
    this.named(affiliated, 'paragraph', i, start)
    return start + 1
  }

  private named(affiliated: AffiliatedKeyword[], element: string, i: number, start: number): void {
    const name = lastName(affiliated)
    if (name === null) return
    const node: NamedElement = {
      type: 'namedElement',
      element,
      name,
      affiliated,
      headline: this.currentHeadline,
      position: this.position(i, 0, start, this.lines[start]!.length),
    }
    this.nodes.push(node)
  }

  /** Affiliated keywords followed by a blank line: Org reads them as plain keywords. */
  private orphanAffiliated(i: number, end: number, limit: number): void {
    for (let j = i; j < end; j++) {
      const keyword = keywordLine(this.lines[j]!)
      if (keyword)
        this.nodes.push({type: 'keyword', key: keyword.key, value: keyword.value, position: this.linePosition(j)})
    }
    let next = end
    while (next < limit && isBlank(this.lines[next]!)) next++
    if (next < limit && blockBeginName(this.lines[next]!) === 'SRC') {
      const detached = keywordLine(this.lines[i]!)!
      this.problems.push({...detachedAffiliatedKeyword(detached.key, next + 1), place: this.linePosition(i)})
    }
  }

  private ignoredPropertyDrawer(line: number): void {
    this.problems.push({...ignoredPropertyDrawer(), place: this.linePosition(line)})
  }

  private unterminatedSrc(start: number, limit: number): void {
    const where =
      limit < this.lines.length && headlineLevel(this.lines[limit]!) > 0
        ? `before the headline at line ${limit + 1}`
        : limit < this.lines.length
          ? `before the end of the enclosing drawer or block at line ${limit + 1}`
          : 'before the end of the file'
    this.problems.push({...unterminatedBlock(where), place: this.linePosition(start)})
  }

  private srcBlock(i: number, start: number, end: number, affiliated: AffiliatedKeyword[]): void {
    const lines = this.lines
    const head = lines[start]!
    const parts = srcBeginParts(head)
    const node: SrcBlock = {
      type: 'srcBlock',
      index: this.srcCount++,
      headline: this.currentHeadline,
      language: parts.language,
      switches: parts.switches,
      parameters: parts.parameters,
      name: lastName(affiliated),
      headers: affiliated.filter((keyword) => keyword.key === 'HEADER'),
      affiliated,
      open: this.linePosition(start),
      close: this.linePosition(end),
      position: this.position(i, 0, end, lines[end]!.length),
    }
    this.nodes.push(node)
  }

  private linePosition(line: number): Position {
    return this.position(line, 0, line, this.lines[line]!.length)
  }

  private position(startLine: number, startColumn: number, endLine: number, endColumn: number): Position {
    return {start: this.point(startLine, startColumn), end: this.point(endLine, endColumn)}
  }

  private point(line: number, column: number) {
    return {line: line + 1, column: column + 1, offset: this.lineStarts[line]! + column}
  }
}

/** Display column of the first character that is not a space or a tab (tabs to multiples of 8, as in Emacs). */
export function columnOf(line: string): number {
  let column = 0
  for (const c of line) {
    if (c === ' ') column++
    else if (c === '\t') column = (Math.floor(column / 8) + 1) * 8
    else break
  }
  return column
}

function lastName(affiliated: AffiliatedKeyword[]): string | null {
  for (let k = affiliated.length - 1; k >= 0; k--) if (affiliated[k]!.key === 'NAME') return affiliated[k]!.value
  return null
}
