/**
 * `weave`: a static site of Org documents. Each document is read and planned once, alone (weave-document.ts),
 * or taken as the last weave kept it when neither it nor what it includes changed (weave-record.ts); then the
 * site's map (pages, IDs) is made from all of them, and the page of each document read from its own document and
 * the map, as is the page of a document kept whose links the map would answer otherwise now; then the index with
 * the graph (when what it shows changed), the search's entries, the style sheet and the script; then what changed
 * is written (write-site.ts). A document that does not read gets no page and says why at its Org line; the others
 * are woven.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {Element, Root} from 'hast'
import rehypeStringify from 'rehype-stringify'
import {unified} from 'unified'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {buildGraph, type DocumentGraph} from '../graph/document-graph.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {pageConflict} from '../messages/weave.ts'
import {isInside} from '../project.ts'
import {DiskView} from '../tangle/disk.ts'
import {SEARCH, SEARCH_FILE, STYLE, STYLE_FILE} from './assets.ts'
import {codeBlock, codeElement} from './code-block.ts'
import {Colours} from './colours.ts'
import {INDEX_PAGE, indexPage} from './index-page.ts'
import {documentPage} from './page.ts'
import {proseOf} from './prose.ts'
import {INDEX_FILE, type SearchEntry, searchEntries, searchIndexScript} from './search-index.ts'
import {type Lookups, type SiteLookup, SiteMap} from './site-map.ts'
import {readWeaveDocument, type WeaveDocument} from './weave-document.ts'
import {type KeptDocument, keptDiagnostics, plainDiagnostics, type Stamp, stampOf, WeaveRecord} from './weave-record.ts'
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
  /**
   * The build of the tools (PASSEPARTOUT_BUILD): with one, what this weave read is kept for the next, which reads
   * only what changed; without, every document is read (another build could make other pages of the same).
   */
  build?: string
}

/** A document of the site: read by this weave (DOCUMENT), or as the last weave kept it (KEPT). */
interface SiteDocument {
  path: string
  page: string
  title: string
  meta: DocumentMeta | undefined
  /** Whether it has a page. */
  woven: boolean
  document?: WeaveDocument
  /** The stamp of a document read, taken before it was read: an edit made while it was read is seen next time. */
  stamp?: Stamp | null
  kept?: KeptDocument
}

export interface WeaveReport {
  /** Every document, woven or not. */
  documents: SiteDocument[]
  /** The documents that have a page. */
  woven: SiteDocument[]
  /** The documents read by this weave (absolute): the others were as the last weave kept them (weave-record.ts). */
  read: string[]
  /** The site's files written, and those that already held what they would (paths under the site's folder). */
  written: string[]
  unchanged: string[]
  diagnostics: Diagnostic[]
  /** The pages made by this weave, by path under the site's folder, before they were written as HTML. */
  pages: Map<string, Root>
  /** The blocks shiki coloured (the others' colours were kept from the last weave: colours.ts). */
  coloured: number
}

export async function weave(options: WeaveOptions): Promise<WeaveReport> {
  const site = new SiteMap(options.base, SITE_FILES)
  const record = WeaveRecord.open(options)
  const read = reader(options)
  const show = (file: string) => (isInside(file, options.base) ? path.relative(options.base, file) : file)
  const documents = options.files.map((file) => {
    const holder = site.holderOf(site.pagePathOf(file))
    if (holder !== undefined) return refused(read(file, site.pagePathOf(file)), holder, show)
    const page = site.addDocument(file)
    return keptDocument(file, page, record.unchanged(file, options.out)) ?? read(file, page)
  })
  for (const document of documents) if (document.woven) placeTargets(document, site)
  // A page kept whose links would lead elsewhere now (a heading renamed, an ID moved) is made again.
  documents.forEach((document, index) => {
    if (document.kept && !site.answersAsIn(document.kept.lookups)) documents[index] = read(document.path, document.page)
  })
  const colours = Colours.open(options.base)
  const made = await makePages(documents, site, colours, show)
  colours.save(documents.flatMap((document) => document.kept?.colours ?? []))
  const diagnostics = made.diagnostics
  const graph = buildGraph(
    documents.map((document) => document.meta).filter((meta): meta is DocumentMeta => !!meta),
    {base: options.base},
  )
  diagnostics.push(...graph.diagnostics)
  const indexShows = indexInputs(documents, graph)
  const indexKept = indexShows === record.index && fs.existsSync(path.join(options.out, INDEX_PAGE))
  if (!indexKept) made.pages.set(INDEX_PAGE, await indexPage(documents, graph, (document) => document.woven, show))
  record.index = indexShows
  const html = new Map([...made.pages].map(([page, root]) => [page, htmlOf(root)]))
  const search = documents.map((document) =>
    document.kept ? document.kept.search : document.woven ? searchEntries([document.document!]) : [],
  )
  // SITE_FILES names these: no page is one of them.
  const files: SiteFile[] = [
    ...[...html].map(([page, content]) => ({path: page, content})),
    {path: STYLE_FILE, content: STYLE},
    {path: SEARCH_FILE, content: SEARCH},
    {path: INDEX_FILE, content: searchIndexScript(search)},
  ]
  const written = writeSite(options.out, files)
  diagnostics.push(...written.diagnostics)
  documents.forEach((document, index) => keep(record, document, made, html, search[index]!))
  record.save()
  const kept = documents.filter((document) => document.kept).map((document) => document.page)
  return {
    documents,
    woven: documents.filter((document) => document.woven),
    read: documents.filter((document) => document.document).map((document) => document.path),
    written: written.written,
    unchanged: [...written.unchanged, ...kept, ...(indexKept ? [INDEX_PAGE] : [])],
    diagnostics,
    pages: made.pages,
    coloured: colours.coloured,
  }
}

/** A reader of the documents of OPTIONS: each read and planned alone (weave-document.ts), its page PAGE. */
function reader(options: WeaveOptions): (file: string, page: string) => SiteDocument {
  const disk = new DiskView()
  return (file, page) => {
    const stamp = stampOf(file)
    const document = readWeaveDocument(file, page, options.allowOutside ?? [], disk)
    const woven = !!document.root && !document.diagnostics.some(isError)
    return {path: file, page: document.page, title: document.title, meta: document.meta, woven, document, stamp}
  }
}

/** The files of the site that are no document's page. */
const SITE_FILES = [INDEX_PAGE, STYLE_FILE, SEARCH_FILE, INDEX_FILE]

/**
 * DOCUMENT, whose page would be the file HOLDER's page is (null: a file of the site itself), refused: an error at
 * its first line, and no page. Refused rather than given another name: a page named otherwise than its document
 * is one nobody finds where they look (a link to `A.html` from outside the site would lead to `a.org`'s), and
 * renaming the document is the author's one-line fix; the first named keeps its page, so a document added never
 * takes the page of one woven before.
 */
function refused(document: SiteDocument, holder: string | null, show: (file: string) => string): SiteDocument {
  const why = pageConflict(document.page, holder === null ? null : show(holder))
  document.document!.diagnostics.unshift(diagnostic(document.path, why, {line: 1, column: 1}))
  return {...document, woven: false}
}

/** FILE as the last weave kept it, if it did (woven, its page PAGE). */
function keptDocument(file: string, page: string, kept: KeptDocument | undefined): SiteDocument | undefined {
  if (!kept || kept.page !== page) return undefined
  return {path: file, page, title: kept.title, meta: kept.meta, woven: true, kept}
}

interface MadePages {
  pages: Map<string, Root>
  diagnostics: Diagnostic[]
  /** What each page made looked up in the site's map, its warnings, and the keys of its code's colours. */
  made: Map<string, {lookups: Lookups; diagnostics: Diagnostic[]; colours: string[]}>
}

/** The pages of the DOCUMENTS read (the kept ones' are on disk), and every document's warnings, in order. */
async function makePages(
  documents: readonly SiteDocument[],
  site: SiteMap,
  colours: Colours,
  show: (file: string) => string,
): Promise<MadePages> {
  const result: MadePages = {pages: new Map(), diagnostics: [], made: new Map()}
  await colours.colour(documents.flatMap((document) => (document.woven ? (document.document?.blocks ?? []) : [])))
  for (const {document, kept, woven} of documents) {
    if (kept) result.diagnostics.push(...keptDiagnostics(kept))
    if (!document) continue
    const warnings = [...document.diagnostics]
    if (woven) {
      const lookups: Lookups = {}
      const page = pageOf(document, site.recording(lookups), colours, show, warnings)
      // Code an #+INCLUDE: named is known once its page is made: coloured then, and the page made again.
      const missed = colours.takeMissed()
      if (missed.length > 0) await colours.colour(missed)
      result.pages.set(document.page, missed.length > 0 ? pageOf(document, site, colours, show, []) : page)
      result.made.set(document.page, {lookups, diagnostics: warnings, colours: colours.takeAsked()})
    }
    result.diagnostics.push(...warnings)
  }
  return result
}

/** Keep DOCUMENT in RECORD for the next weave: as it was kept, or, woven now, what MADE and HTML say of its page, and its SEARCH entries. */
function keep(
  record: WeaveRecord,
  document: SiteDocument,
  made: MadePages,
  html: Map<string, string>,
  search: SearchEntry[],
): void {
  if (document.kept) return record.keep(document.path, document.kept)
  // A document refused its page shares it with the one that has it: nothing of it is kept.
  if (!document.woven) return
  const page = made.made.get(document.page)
  const content = html.get(document.page)
  const read = document.document!
  if (!page || content === undefined || !read.meta) return
  const included = [...read.includes.values()].map((include) => [include.file, stampOf(include.file)] as const)
  record.keep(document.path, {
    stamps: Object.fromEntries([[document.path, document.stamp ?? null], ...included]),
    page: document.page,
    title: document.title,
    meta: read.meta,
    headings: read.headings.map((heading) => ({title: heading.title, anchor: heading.anchor, id: heading.id ?? null})),
    fileIds: read.fileIds,
    search,
    lookups: page.lookups,
    diagnostics: plainDiagnostics(page.diagnostics),
    colours: page.colours,
    pageBytes: Buffer.byteLength(content),
  })
}

/** What the index is made of: the documents in load order, their edges, titles and pages. */
function indexInputs(documents: readonly SiteDocument[], graph: DocumentGraph): string {
  const said = documents.map((document) => [document.path, document.page, document.title, document.woven])
  return JSON.stringify([graph.order, [...graph.dependencies], said])
}

/** Where DOCUMENT's IDs lead (its file-level ones to its page, a heading's to the heading), and its headings' titles. */
function placeTargets({document, kept, page}: SiteDocument, site: SiteMap): void {
  const headings = document?.headings ?? kept!.headings
  for (const heading of headings) site.addHeading(page, heading.title, heading.anchor)
  for (const id of document?.fileIds ?? kept!.fileIds) site.addId(id, {page})
  for (const heading of headings) if (heading.id) site.addId(heading.id, {page, anchor: heading.anchor})
}

/** DOCUMENT's page: its blocks rendered first, then its prose around them; link warnings go to DIAGNOSTICS. */
function pageOf(
  document: WeaveDocument,
  site: SiteLookup,
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
function htmlOf(root: Root): string {
  return `${unified().use(rehypeStringify, {allowDangerousHtml: true}).stringify(root)}\n`
}
