/**
 * The prose of a document as HTML: uniorg reads the Org text (our reader's decoded text: the document is read
 * once) and uniorg-rehype renders it, but for what the weave says itself: each source block is the tangler's
 * (code-block.ts), matched to uniorg's by its lines; each heading gets its anchor (its `:ID:`, else one from its
 * title); an `[[id:…]]` link leads to the page and anchor of its ID, a `[[file:….org]]` link to that document's
 * page (and `::*Title` to its heading of that title); a link whose target would run script is its text, unlinked. Sub- and superscripts only in braces (`a_{b}`, Org's
 * `^:{}`): our prose names `snake_case` things. An export snippet is Org's: `@@html:…@@` as it is, any other
 * backend's left out, as Org's HTML export does.
 */
import type {Element, ElementContent, Root} from 'hast'
import type {Position} from 'unist'
import type {Keyword, Link, OrgData, OrgNode} from 'uniorg'
import {parse} from 'uniorg-parse/lib/parser.js'
import {orgToHast} from 'uniorg-rehype/lib/org-to-hast.js'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {includeUnreadable, unknownId, unsafeLink} from '../messages/weave.ts'
import {element, raw, text} from './hast.ts'
import {includedText} from './include.ts'
import {hrefTo, type SiteLookup} from './site-map.ts'
import type {WeaveDocument} from './weave-document.ts'

export interface ProseContext {
  site: SiteLookup
  /** The rendered block whose `#+begin_src` line is LINE (1-based). */
  blockAt: (line: number) => Element | undefined
  /** LINES of LANGUAGE coloured, as a block shows them. */
  code: (lines: readonly string[], language: string | null) => Element
  /** Where the warnings of links and includes go. */
  diagnostics: Diagnostic[]
}

/** What uniorg-rehype gives a handler as `this`: its own conversion of children. */
interface Converter {
  toHast(node: OrgNode[], parent: OrgNode | null): ElementContent[]
}

export function proseOf(document: WeaveDocument, context: ProseContext): Root {
  const org = readProse(document.root!.data.text)
  anchorHeadings(org, document)
  return orgToHast(org, {
    handlers: {
      keyword: function (this: Converter, keyword: Keyword) {
        return keyword.key === 'INCLUDE' ? includeOf(keyword, document, context, this) : null
      } as never,
      'src-block': (block) => (block.position ? blockIn(block.position, context) : undefined) ?? null,
      // uniorg-rehype gives the node itself back for another backend than html, which hast cannot write.
      'export-snippet': (snippet) => (snippet.backEnd === 'html' ? raw(snippet.value) : []),
      link: function (this: Converter, link: Link) {
        return linkOf(link, document, context, this)
      } as never,
    },
  })
}

/** The Org TEXT as uniorg reads it, each node with its place (to match blocks and headings by their lines). */
function readProse(text: string): OrgData {
  return parse(text, {trackPosition: true, useSubSuperscripts: '{}'})
}

/**
 * What the `#+INCLUDE:` KEYWORD names, in its place: Org text rendered as the document's own prose (its includes
 * are not followed: a file that included itself would never end), a block coloured as the weave's blocks are.
 */
function includeOf(keyword: Keyword, document: WeaveDocument, context: ProseContext, converter: Converter) {
  const include = keyword.position && document.includes.get(keyword.position.start.line)
  if (!include) return []
  let included: string
  try {
    included = includedText(include)
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    context.diagnostics.push(
      diagnostic(
        document.path,
        includeUnreadable(path.relative(path.dirname(document.path), include.file), why),
        keyword.position,
      ),
    )
    return []
  }
  if (include.as.kind === 'org') {
    const org = readProse(included)
    const nested = (node: OrgNode | OrgData): boolean => node.type === 'keyword' && node.key === 'INCLUDE'
    org.children = org.children.filter((child) => !nested(child))
    return converter.toHast(org.children as OrgNode[], null)
  }
  const lines = included.replace(/\n$/, '').split('\n')
  if (include.as.kind === 'src') return context.code(lines, include.as.language)
  if (include.as.kind === 'export') return include.as.backend === 'html' ? raw(included) : []
  return element('pre', {className: ['example']}, [included])
}

/** Give each headline of ORG the anchor the weave chose for the heading on its line. */
function anchorHeadings(org: OrgData, document: WeaveDocument): void {
  const byLine = new Map(document.headings.map((heading) => [heading.headline.position.start.line, heading]))
  const visit = (node: OrgNode | OrgData) => {
    if (node.type === 'headline' && node.position) {
      const heading = byLine.get(node.position.start.line)
      if (heading) node.data = {...node.data, hProperties: {id: heading.anchor}}
    }
    if ('children' in node) for (const child of node.children as OrgNode[]) visit(child)
  }
  visit(org)
}

/** The tangler's block on the lines of uniorg's block at POSITION (its affiliated keywords included). */
function blockIn(position: Position, context: ProseContext): Element | undefined {
  for (let line = position.start.line; line <= position.end.line; line++) {
    const block = context.blockAt(line)
    if (block) return block
  }
  return undefined
}

/**
 * An `id:` or `.org` link as a link of the site; one whose target runs script as its text, unlinked (a page never
 * runs what a document's text holds); any other as uniorg-rehype renders it (null).
 */
function linkOf(link: Link, document: WeaveDocument, context: ProseContext, converter: Converter): Element | null {
  const label = () => (link.children.length > 0 ? converter.toHast(link.children, link) : [text(link.rawLink)])
  const scheme = schemeOf(link.rawLink)
  if (scheme !== undefined && SCRIPT_SCHEMES.has(scheme)) {
    context.diagnostics.push(diagnostic(document.path, unsafeLink(link.rawLink, scheme), link.position))
    return element('span', {className: ['unknown-link']}, label())
  }
  if (link.linkType === 'id') {
    const place = context.site.idPlace(link.path)
    if (place) return element('a', {href: hrefTo(document.page, place)}, label())
    context.diagnostics.push(diagnostic(document.path, unknownId(link.path), link.position))
    return element('span', {className: ['unknown-link']}, label())
  }
  if (link.linkType === 'file') {
    const [file, search] = link.path.split('::') as [string, string | undefined]
    const page = context.site.pageOf(path.resolve(path.dirname(document.path), file))
    // `::*Title` searches for a heading: its anchor, when the page has one so titled; else the page.
    const title = search?.startsWith('*') ? search.slice(1).trim() : undefined
    const anchor = page && title !== undefined ? context.site.headingAnchor(page, title) : undefined
    if (page) return element('a', {href: hrefTo(document.page, {page, anchor})}, label())
  }
  return null
}

/** Schemes whose URL, followed or loaded, runs what it holds in the page's browser. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'data'])

/**
 * The scheme of URL as a browser's URL parser reads it, lower-case (undefined when it has none): it skips leading
 * spaces and control characters and drops tabs and newlines anywhere, so ` java\tscript:` is `javascript`.
 */
function schemeOf(url: string): string | undefined {
  const cleaned = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '')
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]!.toLowerCase()
}
