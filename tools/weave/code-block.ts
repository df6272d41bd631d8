/**
 * A source block as its page shows it: a caption that says where its lines are written (a path and a line range,
 * from the tangler's own plan, or that it is not tangled), its code coloured with each noweb reference a link to
 * the block it names, and the blocks that use it ("used in"), each a link.
 */
import type {Element, ElementContent} from 'hast'
import {element, text} from './hast.ts'
import type {CodeToken} from './highlight.ts'
import type {BlockOutput, BlockReference, WovenBlock} from './weave-document.ts'

export interface BlockContext {
  /** A file as the caption names it (relative to the project). */
  show: (file: string) => string
}

export function codeBlock(block: WovenBlock, tokens: readonly CodeToken[][], context: BlockContext): Element {
  const children: ElementContent[] = [caption(block, context), codeElement(tokens, block.references)]
  if (block.usedIn.length > 0) children.push(usedIn(block))
  return element('figure', {id: block.anchor, className: ['block']}, children)
}

/** What a block is called in links to it: its first name, else its line. */
function blockLabel(block: WovenBlock): string {
  return block.names[0] ?? `the block at line ${block.block.open.start.line}`
}

/** The block's names, its language, and where it is written (or that it is not). */
function caption(block: WovenBlock, context: BlockContext): Element {
  const parts: (ElementContent | string)[] = []
  if (block.names.length > 0) parts.push(element('span', {className: ['block-name']}, [block.names.join(', ')]), ' ')
  if (block.language) parts.push(element('span', {className: ['block-language']}, [block.language]), ' ')
  parts.push(...outputsSaid(block.outputs, context))
  return element('figcaption', {}, parts)
}

/** `tangles to generated/core/turn.ts:120-168`, `written by a reference into …`, or `not tangled`. */
function outputsSaid(outputs: readonly BlockOutput[], context: BlockContext): (ElementContent | string)[] {
  if (outputs.length === 0) return [element('span', {className: ['tangles-to']}, ['not tangled'])]
  const said: (ElementContent | string)[] = []
  const own = outputs.filter((output) => !output.throughReference)
  const through = outputs.filter((output) => output.throughReference)
  if (own.length > 0) said.push('tangles to ', ...places(own, context))
  if (through.length > 0)
    said.push(own.length > 0 ? '; through a reference into ' : 'through a reference into ', ...places(through, context))
  return [element('span', {className: ['tangles-to']}, said)]
}

/** OUTPUTS as `path:first-last`, no link (the file is the project's, not the site's), separated by commas. */
function places(outputs: readonly BlockOutput[], context: BlockContext): (ElementContent | string)[] {
  return outputs.flatMap((output, index) => {
    const lines = output.last > output.first ? `${output.first}-${output.last}` : `${output.first}`
    const place = element('code', {className: ['tangle-place']}, [`${context.show(output.file)}:${lines}`])
    return index === 0 ? [place] : [', ', place]
  })
}

/** Code as its lines of TOKENS, coloured, each of its REFERENCES a link. */
export function codeElement(tokens: readonly CodeToken[][], references: readonly BlockReference[] = []): Element {
  const lines: ElementContent[] = []
  tokens.forEach((line, index) => {
    if (index > 0) lines.push(text('\n'))
    const onLine = references.filter((reference) => reference.line === index)
    lines.push(element('span', {className: ['line']}, lineContent(line, onLine)))
  })
  return element('pre', {className: ['code']}, [element('code', {}, lines)])
}

/** One line's tokens as spans, the characters of each reference gathered into one link. */
function lineContent(tokens: readonly CodeToken[], references: readonly BlockReference[]): ElementContent[] {
  const out: ElementContent[] = []
  let column = 0
  let link: {reference: BlockReference; element: Element} | undefined
  for (const token of tokens) {
    let offset = 0
    while (offset < token.text.length) {
      const at = column + offset
      const reference = references.find((candidate) => candidate.start <= at && at < candidate.end)
      const end = reference
        ? reference.end
        : Math.min(...references.map((r) => r.start).filter((start) => start > at), Infinity)
      const piece = token.text.slice(offset, Math.min(token.text.length, end - column))
      const span = token.kind ? element('span', {className: [token.kind]}, [piece]) : text(piece)
      if (!reference) out.push(span)
      else {
        if (link?.reference !== reference) {
          link = {reference, element: referenceElement(reference)}
          out.push(link.element)
        }
        link.element.children.push(span)
      }
      offset += piece.length
    }
    column += token.text.length
  }
  return out
}

/** A reference: a link to the (first) block it names, or, naming none, said so. */
function referenceElement(reference: BlockReference): Element {
  const target = reference.targets[0]
  if (!target)
    return element('span', {className: ['noweb', 'unresolved'], title: `no block is called ${reference.name}`})
  return element('a', {className: ['noweb'], href: `#${target.anchor}`})
}

/** "Used in" and a link to each block whose references name this one. */
function usedIn(block: WovenBlock): Element {
  const links = block.usedIn.flatMap((user, index) => {
    const link = element('a', {href: `#${user.anchor}`, className: ['used-in-link']}, [blockLabel(user)])
    return index === 0 ? [link] : [', ', link]
  })
  return element('p', {className: ['used-in']}, ['Used in ', ...links, '.'])
}
