/**
 * One Org document as the tangler queries it: the reader's tree plus the
 * lookups Org makes while tangling (the headline around a line, a headline's
 * ancestors, the block at a position, `#+PROPERTY` values, IDs), each built
 * once.
 */
import type {Headline, NamedElement, OrgRoot, PropertyDrawer, SrcBlock} from '../org/ast.ts'
import {type HeaderArgument, parseHeaderArguments} from './header-args.ts'
import type {DocumentKeyword} from './setup-files.ts'
import {type LispContext, systemTypeOf} from './lisp-eval.ts'

export class OrgDocument {
  readonly lines: string[]
  readonly headlines: Headline[] = []
  readonly blocks: SrcBlock[] = []
  readonly namedElements: NamedElement[] = []
  readonly keywords: {key: string; value: string; line: number}[] = []
  /** Property drawers by owning headline ordinal; -1 is the file-level drawer. */
  readonly drawers = new Map<number, PropertyDrawer>()
  /** `#+PROPERTY` values after Org's `+` accumulation, by lower-cased name. */
  readonly keywordProperties = new Map<string, {value: string; line: number}>()
  private readonly headlineStarts: number[] = []
  private readonly parsedArguments = new Map<string, HeaderArgument[]>()
  private readonly blockStarts: number[] = []
  /** What Lisp forms in header arguments see: this file as the buffer's, HOME for `~`, the platform's `system-type`. */
  readonly lispContext: LispContext

  constructor(
    /** Absolute path of the Org file. */
    readonly path: string,
    readonly root: OrgRoot,
    /** The keywords in effect, when setup files add to the document's own (setup-files.ts). */
    keywords?: readonly DocumentKeyword[],
  ) {
    this.lines = root.data.lines
    this.lispContext = {file: path, home: process.env.HOME, systemType: systemTypeOf(process.platform)}
    for (const node of root.children) {
      if (node.type === 'headline') {
        this.headlines.push(node)
        this.headlineStarts.push(node.position.start.line)
      } else if (node.type === 'srcBlock') {
        this.blocks.push(node)
        this.blockStarts.push(node.position.start.line)
      } else if (node.type === 'namedElement') this.namedElements.push(node)
      else if (node.type === 'propertyDrawer') this.drawers.set(node.headline, node)
      else if (node.type === 'keyword' && !keywords)
        this.keywords.push({key: node.key, value: node.value, line: node.position.start.line})
    }
    if (keywords) this.keywords.push(...keywords)
    for (const keyword of this.keywords) {
      if (keyword.key !== 'PROPERTY') continue
      const match = /^([^\t\n\f\r \u00a0\u2000-\u200b\u202f\u205f\u3000]+)[ \t]+([^\n]*)$/.exec(keyword.value)
      if (match) this.updateKeywordProperty(match[1]!, match[2]!, keyword.line)
    }
  }

  /** `org--update-property-plist`: `NAME+` appends with a space, `NAME` replaces. */
  private updateKeywordProperty(key: string, value: string, line: number): void {
    const appending = key.endsWith('+')
    const name = (appending ? key.slice(0, -1) : key).toLowerCase()
    const old = this.keywordProperties.get(name)
    this.keywordProperties.set(name, {
      value: appending && old ? `${old.value} ${value}` : value,
      line: old && appending ? old.line : line,
    })
  }

  /** `parseHeaderArguments`, once per distinct string (it throws `LispReadError` as Org's reader would). */
  headerArguments(text: string, evaluate: boolean): HeaderArgument[] {
    const key = `${evaluate ? 1 : 0}${text}`
    let args = this.parsedArguments.get(key)
    if (!args) {
      args = parseHeaderArguments(text, evaluate, this.lispContext)
      this.parsedArguments.set(key, args)
    }
    return args
  }

  get text(): string {
    return this.root.data.text
  }

  /** 0-based offset of the start of a 1-based line. */
  lineStart(line: number): number {
    return this.root.data.lineStarts[line - 1] ?? this.text.length
  }

  /** The 1-based line holding a 0-based offset. */
  lineOfOffset(offset: number): number {
    return upperBound(this.root.data.lineStarts, offset)
  }

  /** Ordinal of the headline whose line is at or before a 1-based line, or -1 before the first. */
  headlineAt(line: number): number {
    return upperBound(this.headlineStarts, line) - 1
  }

  /** `org-in-commented-heading-p`: the headline or an ancestor is COMMENTed. */
  inCommentedHeading(headline: number): boolean {
    for (let h = headline; h >= 0; h = this.headlines[h]!.parent) if (this.headlines[h]!.commented) return true
    return false
  }

  /** `org-in-archived-heading-p`: the headline or an ancestor has the ARCHIVE tag. */
  inArchivedHeading(headline: number): boolean {
    for (let h = headline; h >= 0; h = this.headlines[h]!.parent) if (this.headlines[h]!.archived) return true
    return false
  }

  /** The source block (affiliated keywords to `#+end_src`) that holds a 1-based line. */
  blockAt(line: number): SrcBlock | undefined {
    const block = this.blocks[upperBound(this.blockStarts, line) - 1]
    return block && block.close.start.line >= line ? block : undefined
  }

  /**
   * `org-find-property` with a value: the headline whose property drawer sets
   * KEY to VALUE first (both compared ignoring case), -1 for the file-level
   * drawer, undefined when none does.
   */
  findProperty(key: string, value: string): number | undefined {
    const wantedKey = key.toLowerCase()
    const wantedValue = value.toLowerCase()
    let found: {headline: number; line: number} | undefined
    for (const drawer of this.drawers.values()) {
      for (const property of drawer.properties) {
        if (property.key.toLowerCase() !== wantedKey || property.value.toLowerCase() !== wantedValue) continue
        if (!found || property.position.start.line < found.line)
          found = {headline: drawer.headline, line: property.position.start.line}
        break
      }
    }
    return found?.headline
  }
}

/** The number of sorted values that are at most `value`. */
function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}
