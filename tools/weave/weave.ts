/**
 * `weave`: a static site of Org documents. Each document is read and planned once, alone (weave-document.ts);
 * then the site's map (pages, IDs) is made from all of them, and each page from its own document and the map;
 * then the index with the graph, the search's entries, the style sheet and the script; then what changed is
 * written (write-site.ts). A document that does not read gets no page and says why at its Org line; the others
 * are woven. The inputs of each document are kept apart from the others' so that a later re-weave of one saved
 * document can make its page (and those of the pages whose links lead to it) alone.
 */
import path from 'node:path'
import type {Element, Root} from 'hast'
import rehypeStringify from 'rehype-stringify'
import {unified} from 'unified'
import {type Diagnostic, isError} from '../diagnostics.ts'
import {buildGraph} from '../graph/document-graph.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {isInside} from '../project.ts'
import {DiskView} from '../tangle/disk.ts'
import {SEARCH, SEARCH_FILE, STYLE, STYLE_FILE} from './assets.ts'
import {codeBlock, codeElement} from './code-block.ts'
import {Colours} from './colours.ts'
import {INDEX_PAGE, indexPage} from './index-page.ts'
import {documentPage} from './page.ts'
import {proseOf} from './prose.ts'
import {INDEX_FILE, searchEntries, searchIndexScript} from './search-index.ts'
import {SiteMap} from './site-map.ts'
import {readWeaveDocument, type WeaveDocument} from './weave-document.ts'
import {type SiteFile, writeSite} from './write-site.ts'

export interface WeaveOptions {
  /** The Org files, absolute. */
  files: readonly string[]
  /** The folder the site's layout mirrors (the project, or the folder woven), and that captions name files from. */
  base: string
  /** The site's folder. */
  out: string
  /** Folders outside the project where targets may go (as tangle takes them). */
  allowOutside?: readonly string[]
}

export interface WeaveReport {
  /** Every document, woven or not. */
  documents: WeaveDocument[]
  /** The documents that have a page. */
  woven: WeaveDocument[]
  /** The site's files written, and those that already held what they would (paths under the site's folder). */
  written: string[]
  unchanged: string[]
  diagnostics: Diagnostic[]
  /** The pages as built, by path under the site's folder, before they were written as HTML. */
  pages: Map<string, Root>
  /** The blocks shiki coloured (the others' colours were kept from the last weave: colours.ts). */
  coloured: number
}

export async function weave(options: WeaveOptions): Promise<WeaveReport> {
  const site = new SiteMap(options.base)
  const disk = new DiskView()
  const documents = options.files.map((file) =>
    readWeaveDocument(file, site.addDocument(file), options.allowOutside ?? [], disk),
  )
  const woven = documents.filter((document) => document.root && !document.diagnostics.some(isError))
  for (const document of woven) placeTargets(document, site)
  const diagnostics = documents.flatMap((document) => document.diagnostics)
  const show = (file: string) => (isInside(file, options.base) ? path.relative(options.base, file) : file)
  const pages = new Map<string, Root>()
  const colours = Colours.open(options.base)
  await colours.colour(woven.flatMap((document) => document.blocks))
  for (const document of woven) {
    pages.set(document.page, pageOf(document, site, colours, show, diagnostics))
    // Code an #+INCLUDE: named is known once its page is made: coloured then, and the page made again.
    const missed = colours.takeMissed()
    if (missed.length === 0) continue
    await colours.colour(missed)
    pages.set(document.page, pageOf(document, site, colours, show, []))
  }
  colours.save()
  const metas = documents.map((document) => document.meta).filter((meta): meta is DocumentMeta => !!meta)
  const graph = buildGraph(metas, {base: options.base})
  diagnostics.push(...graph.diagnostics)
  pages.set(INDEX_PAGE, await indexPage(documents, graph, (document) => woven.includes(document), show))
  const files: SiteFile[] = [
    ...[...pages].map(([page, root]) => ({path: page, content: html(root)})),
    {path: STYLE_FILE, content: STYLE},
    {path: SEARCH_FILE, content: SEARCH},
    {path: INDEX_FILE, content: searchIndexScript(searchEntries(woven))},
  ]
  const written = writeSite(options.out, files)
  diagnostics.push(...written.diagnostics)
  return {
    documents,
    woven,
    written: written.written,
    unchanged: written.unchanged,
    diagnostics,
    pages,
    coloured: colours.coloured,
  }
}

/** Where DOCUMENT's IDs lead (its file-level ones to its page, a heading's to the heading), and its headings' titles. */
function placeTargets(document: WeaveDocument, site: SiteMap): void {
  for (const heading of document.headings) site.addHeading(document.page, heading.title, heading.anchor)
  for (const id of document.fileIds) site.addId(id, {page: document.page})
  for (const heading of document.headings)
    if (heading.id) site.addId(heading.id, {page: document.page, anchor: heading.anchor})
}

/** DOCUMENT's page: its blocks rendered first, then its prose around them; link warnings go to DIAGNOSTICS. */
function pageOf(
  document: WeaveDocument,
  site: SiteMap,
  colours: Colours,
  show: (file: string) => string,
  diagnostics: Diagnostic[],
): Root {
  const blocks = new Map<number, Element>()
  for (const block of document.blocks)
    blocks.set(block.block.open.start.line, codeBlock(block, colours.tokens(block.lines, block.language), {show}))
  const code = (lines: readonly string[], language: string | null) => codeElement(colours.tokens(lines, language))
  const prose = proseOf(document, {site, blockAt: (line) => blocks.get(line), code, diagnostics})
  return documentPage(document, prose, show(document.path))
}

/** ROOT as HTML (the graph's SVG as Graphviz wrote it). */
function html(root: Root): string {
  return `${unified().use(rehypeStringify, {allowDangerousHtml: true}).stringify(root)}\n`
}
