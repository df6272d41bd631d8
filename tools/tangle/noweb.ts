/**
 * Noweb references (`org-babel-expand-noweb-references`): `<<name>>` in a block
 * body is replaced by the body of what it names, every line of the expansion
 * preceded by the text before the reference.
 *
 * A name resolves, in Org's order, to a headline with that CUSTOM_ID or ID
 * (its text), to the first block with that `#+NAME:` (any case), or to every
 * block whose `:noweb-ref` is the name, joined by `:noweb-sep`; otherwise to
 * nothing. `<<name()>>` asks Org to run the block, which we refuse.
 */
import type {BabelIndex} from './babel-scan.ts'
import type {BlockInfo, BlockInfos} from './block-info.ts'
import {commentRegion, commentSyntax} from './comments.ts'
import type {OrgDocument} from './document.ts'
import {Failure} from './failure.ts'
import {isEmacsLisp} from './languages.ts'
import {fillTemplate, makeLinkString, storeLink} from './links.ts'
import type {Params} from './params.ts'
import {concatText, glue, joinLines, originAt, type SourceLine, type SourceText, sliceLine, sourceLine} from './text.ts'
import type {Position} from 'unist'
import type {Message} from '../diagnostics.ts'
import {looksLikeCode as looksLikeCodeMessage, unresolved} from '../messages/noweb.ts'
import * as tangleMessages from '../messages/tangle.ts'
import {BLANKS_AND_BREAKS, trimBoth} from '../org/trim.ts'

export interface NowebContext {
  doc: OrgDocument
  infos: BlockInfos
  babel: BabelIndex
  /** The Org buffer's point, which some lookups move (a headline found by ID). */
  point: number
  /** Blocks by `:noweb-ref`, built the first time a reference needs it. */
  nowebRefs?: Map<string, BlockInfo[]>
  warn(message: Message, place: Position | undefined): void
}

type NowebContextKind = 'tangle' | 'eval'

const ALLOWED: Record<NowebContextKind, readonly string[]> = {
  tangle: ['yes', 'tangle', 'no-export', 'strip-export'],
  eval: ['yes', 'no-export', 'strip-export', 'eval'],
}

/** `org-babel-noweb-p`: are references expanded in this context? */
export function nowebEnabled(params: Params, context: NowebContextKind): boolean {
  const value = params.string(':noweb') ?? ''
  return value.split(/[ \f\t\n\r\v]+/).some((word) => ALLOWED[context].includes(word))
}

/** Expand the references in a block's body. */
export function expandReferences(info: BlockInfo, context: NowebContext, stack: number[] = []): SourceText {
  if (stack.includes(info.block.index)) {
    const chain = [...stack.slice(stack.indexOf(info.block.index)), info.block.index].map((index) =>
      describeBlock(context.doc, index),
    )
    throw new Failure(tangleMessages.nowebCycle(chain), info.block.open)
  }
  stack.push(info.block.index)
  const withComments = info.params.string(':comments') === 'noweb'
  const out: SourceText = []
  for (const line of info.body) {
    if (!line.text.includes('<<')) {
      out.push(line)
      continue
    }
    // The pieces of the output line being built, joined once it is complete.
    let current: SourceLine[] = []
    let position = 0
    for (const reference of findReferences(line.text)) {
      if (reference.start < position) continue
      const prefix = sliceLine(line, position, reference.start)
      const place = originAt(line, reference.start)
      const at: Position | undefined = place
        ? {start: {...place}, end: {line: place.line, column: place.column + reference.end - reference.start}}
        : undefined
      const expansion = splitCarriageReturns(
        resolve(reference.name, info, context, stack, withComments, at, line.text[reference.start - 1]),
      )
      current.push(prefix, expansion[0]!)
      for (const piece of expansion.slice(1)) {
        out.push(joinLines(current))
        current = [prefix, piece]
      }
      position = reference.end
    }
    current.push(sliceLine(line, position))
    out.push(joinLines(current))
  }
  stack.pop()
  return out
}

interface Reference {
  /** Offset of `<<`. */
  start: number
  /** Offset after `>>`. */
  end: number
  name: string
}

/**
 * The references of a line, left to right, as `\(.*?\)<<\([^ \t\n]\(?:.*?[^ \t\n]\)?\)>>` finds
 * them: a name that starts and ends with a non-blank, the shortest one.
 */
export function findReferences(text: string): Reference[] {
  const closers: number[] = []
  for (let m = text.indexOf('>>'); m !== -1; m = text.indexOf('>>', m + 1)) {
    const before = text[m - 1]
    if (before !== undefined && before !== ' ' && before !== '\t') closers.push(m)
  }
  const references: Reference[] = []
  let searchFrom = 0
  let c = 0
  for (let q = text.indexOf('<<'); q !== -1; q = text.indexOf('<<', q + 1)) {
    if (q < searchFrom) continue
    const first = text[q + 2]
    if (first === undefined || first === ' ' || first === '\t') continue
    while (c < closers.length && closers[c]! < q + 3) c++
    if (c === closers.length) break
    const m = closers[c]!
    references.push({start: q, end: m + 2, name: text.slice(q + 2, m)})
    searchFrom = m + 2
  }
  return references
}

function resolve(
  name: string,
  info: BlockInfo,
  context: NowebContext,
  stack: number[],
  withComments: boolean,
  at: Position | undefined,
  charBefore: string | undefined,
): SourceText {
  const {doc} = context
  if (/\([^\n]*\)/.test(name)) {
    throw new Failure(
      tangleMessages.nowebCallsBlock(name, info.language, isEmacsLisp(info.language)),
      at ?? info.block.open,
    )
  }
  const headline = doc.findProperty('CUSTOM_ID', name) ?? doc.findProperty('ID', name)
  if (headline !== undefined) {
    if (headline < 0) throw new Failure(tangleMessages.nowebFileLevelId(name), at)
    context.point = doc.lineStart(doc.headlines[headline]!.position.start.line)
    return headlineBody(doc, headline)
  }
  const expand = (target: BlockInfo) => expandBody(target, info, context, stack, withComments)
  const namedEnd = context.babel.namedBlockEnd(name)
  if (namedEnd !== undefined) {
    const saved = context.point
    context.point = context.babel.endOffset(namedEnd)
    try {
      if (!doc.inCommentedHeading(doc.headlineAt(namedEnd))) {
        const block = doc.blockAt(namedEnd)
        if (block) return expand(context.infos.get(block, false))
        // The regexp matched text that is no block (say, inside an example): Org has no
        // info there, and only the comment wrapper, with its template unfilled, survives.
        if (withComments)
          return concatText(
            glue(`${commentWrap('[[%link][%source-name]]', info)}\n\n`),
            glue(commentWrap('%source-name ends here', info)),
          )
      }
    } finally {
      context.point = saved
    }
  }
  const collected = (context.nowebRefs ??= nowebRefIndex(context)).get(name)
  if (collected) {
    let text: SourceText = expand(collected[0]!)
    for (let k = 1; k < collected.length; k++) {
      const separator = collected[k - 1]!.params.get(':noweb-sep')?.value
      if (separator && separator.kind !== 'string' && separator.kind !== 'nil') {
        throw new Failure(tangleMessages.nowebSeparatorNotString(), collected[k - 1]!.block.open)
      }
      text = concatText(text, glue(separator?.kind === 'string' ? separator.value : '\n'), expand(collected[k]!))
    }
    return text
  }
  const looksLikeCode =
    (info.language === 'typescript' ||
      info.language === 'js' ||
      info.language === 'ts' ||
      info.language === 'javascript') &&
    ((charBefore !== undefined && /[\p{L}\p{N}_$)\]]/u.test(charBefore)) || /[(),<>= ]/.test(name))
  if (looksLikeCode) {
    context.warn(looksLikeCodeMessage(name), at)
  } else {
    context.warn(unresolved(name), at)
  }
  return [sourceLine('', 0)]
}

/** A referenced block's text: its own references expanded if its `:noweb` allows, wrapped in comments for `:comments noweb`. */
function expandBody(
  target: BlockInfo,
  caller: BlockInfo,
  context: NowebContext,
  stack: number[],
  withComments: boolean,
): SourceText {
  const body = nowebEnabled(target.params, 'eval') ? expandReferences(target, context, stack) : target.body
  if (!withComments) return body
  const link = makeLinkString(storeLink(context.doc, context.point))
  const values = {
    'start-line': String(target.block.open.start.line),
    file: context.doc.path,
    link,
    'source-name': target.name ?? '',
  }
  const wrap = (text: string) => commentWrap(text, caller)
  return concatText(
    glue(`${wrap(fillTemplate('[[%link][%source-name]]', values))}\n`),
    body,
    glue(`\n${wrap(fillTemplate('%source-name ends here', values))}`),
  )
}

/** `c-wrap`: comment TEXT in the caller's language mode, then trim. */
function commentWrap(text: string, caller: BlockInfo): string {
  const language = caller.language ?? ''
  const lookup = commentSyntax(language)
  if (lookup.kind !== 'syntax') {
    throw new Failure(
      lookup.kind === 'none'
        ? tangleMessages.nowebCommentsWithoutSyntax(lookup.mode)
        : tangleMessages.nowebCommentsWithoutMode(language, lookup.mode),
      caller.block.open,
    )
  }
  return trimBoth(commentRegion(text, lookup.syntax), BLANKS_AND_BREAKS)
}

/** `split-string … "[\n\r]"`: a CR inside an expansion ends a line too. */
function splitCarriageReturns(text: SourceText): SourceText {
  if (!text.some((line) => line.text.includes('\r'))) return text
  const out: SourceText = []
  for (const line of text) {
    let start = 0
    for (let cr = line.text.indexOf('\r'); cr !== -1; cr = line.text.indexOf('\r', start)) {
      out.push(sliceLine(line, start, cr))
      start = cr + 1
    }
    out.push(sliceLine(line, start))
  }
  return out
}

/** Blocks by `:noweb-ref`, in Babel's order, outside COMMENT headlines (light infos). */
function nowebRefIndex(context: NowebContext): Map<string, BlockInfo[]> {
  const index = new Map<string, BlockInfo[]>()
  for (const visit of context.babel.visits()) {
    if (!visit.block || context.doc.inCommentedHeading(context.doc.headlineAt(visit.begin))) continue
    const info = context.infos.get(visit.block, false)
    const ref = info.params.get(':noweb-ref')?.value
    if (ref?.kind !== 'string') continue
    const list = index.get(ref.value)
    if (list) list.push(info)
    else index.set(ref.value, [info])
  }
  return index
}

/** `org-babel-ref-headline-body`: the subtree's text after its planning line and property drawer. */
function headlineBody(doc: OrgDocument, index: number): SourceText {
  const headline = doc.headlines[index]!
  const line = headline.position.start.line
  let first = line + 1
  if (first <= doc.lines.length && /^[ \t]*(?:CLOSED:|DEADLINE:|SCHEDULED:)/i.test(doc.lines[first - 1]!)) first++
  const drawer = doc.drawers.get(index)
  if (drawer && drawer.position.start.line === first) first = drawer.position.end.line + 1
  let next = index + 1
  while (next < doc.headlines.length && doc.headlines[next]!.level > headline.level) next++
  // Org narrows to the subtree first (its final newline excluded), so the start clamps to its end.
  const end =
    next < doc.headlines.length ? doc.lineStart(doc.headlines[next]!.position.start.line) - 1 : doc.text.length
  const from = Math.min(doc.lineStart(first), end)
  const text = doc.text.slice(from, end)
  const firstLine = doc.text.slice(0, from).split('\n').length
  const firstColumn = from - doc.lineStart(firstLine) + 1
  return text.split('\n').map((piece, k) => sourceLine(piece, firstLine + k, k === 0 ? firstColumn : 1))
}

function describeBlock(doc: OrgDocument, index: number): string {
  const block = doc.blocks[index]!
  return block.name ?? `block at line ${block.open.start.line}`
}
