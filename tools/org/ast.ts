/**
 * The unist tree the Org reader produces: exactly what tangling and document
 * metadata need, nothing more.
 *
 * The tree is flat: headlines, keywords, property drawers, source blocks and
 * named elements follow each other in document order under the root, and a
 * headline's nesting is given by `level` and `parent`. A flat tree keeps every
 * consumer iterative (documents with thousands of nested headlines cannot
 * overflow a stack) and makes property inheritance a walk up `parent` links.
 *
 * Positions follow unist: `line` is 1-based, `column` is 1-based and counts
 * UTF-16 code units, `offset` is 0-based and counts UTF-16 code units of the
 * decoded text (`root.data.text`, where every line ends in `\n`).
 */
import type {Data, Node, Parent, Position} from 'unist'
import type {Eol} from './decode.ts'

export interface OrgRoot extends Parent {
  type: 'root'
  children: OrgNode[]
  data: OrgRootData
}

export interface OrgRootData extends Data {
  /** The decoded text; positions index into it. */
  text: string
  /** The text's lines, without their `\n` (the last one is empty when the text ends with a newline). */
  lines: string[]
  /** 0-based offset of the start of each line; `lineStarts.length` lines. */
  lineStarts: number[]
  eol: Eol
  encoding: 'utf-8' | 'latin-1'
  /** TODO keywords in effect (from `#+TODO:` lines, else Org's `TODO`/`DONE`). */
  todoKeywords: string[]
}

export type OrgNode = Headline | Keyword | PropertyDrawer | SrcBlock | NamedElement

export interface Headline extends Node {
  type: 'headline'
  /** Ordinal among the document's headlines, 0-based. */
  index: number
  /** Number of stars. */
  level: number
  /** Ordinal of the nearest preceding headline with a lower level, or -1. */
  parent: number
  todo: string | null
  /** The priority cookie, like `[#A]`. */
  priority: string | null
  /** The title without stars, TODO keyword, priority and tags; null when empty. */
  title: string | null
  tags: string[]
  /** The title starts with the `COMMENT` keyword (not inherited). */
  commented: boolean
  /** The headline carries the `ARCHIVE` tag (not inherited). */
  archived: boolean
  position: Position
}

/** A `#+KEY: value` line that is an element of its own (not affiliated). */
export interface Keyword extends Node {
  type: 'keyword'
  /** Upper-cased, as Org compares keys. */
  key: string
  value: string
  position: Position
}

export interface PropertyDrawer extends Node {
  type: 'propertyDrawer'
  /** Ordinal of the headline that owns it; -1 for the file-level drawer. */
  headline: number
  properties: NodeProperty[]
  position: Position
}

export interface NodeProperty {
  /** As written, without the colons (`header-args:typescript+`). */
  key: string
  value: string
  position: Position
}

/** A `#+NAME:`, `#+HEADER:` or other affiliated keyword attached to an element. */
export interface AffiliatedKeyword {
  /** Upper-cased after Org's translations (`HEADERS` → `HEADER`, `SRCNAME` → `NAME`). */
  key: string
  /** Upper-cased as written, before translation. */
  spelling: string
  value: string
  position: Position
}

export interface BodyLine {
  /** The line exactly as in the file, without its line ending. */
  value: string
  /** 1-based line in the file (its column is 1: a body line is a whole line). */
  line: number
}

export interface SrcBlock extends Node {
  type: 'srcBlock'
  /** Ordinal among the document's source blocks, 0-based. */
  index: number
  /** Ordinal of the headline whose section holds the block, or -1. */
  headline: number
  /** The first word after `#+begin_src` (separated by spaces), or null. */
  language: string | null
  switches: string | null
  /** The header-argument string of the `#+begin_src` line, trimmed. */
  parameters: string | null
  /** The `#+NAME:` value (the last one when several). */
  name: string | null
  /** Every `#+HEADER:`/`#+HEADERS:` line, in document order. */
  headers: AffiliatedKeyword[]
  affiliated: AffiliatedKeyword[]
  /** The `#+begin_src` line. */
  open: Position
  /** The `#+end_src` line. The body is the lines between the two (`blockBody`). */
  close: Position
  /** From the first affiliated keyword to the end of the `#+end_src` line. */
  position: Position
}

/** Another element carrying a `#+NAME:`, which `:var` references may name. */
export interface NamedElement extends Node {
  type: 'namedElement'
  /** The Org element type, such as `table`, `example-block` or `babel-call`. */
  element: string
  name: string
  affiliated: AffiliatedKeyword[]
  headline: number
  position: Position
}
