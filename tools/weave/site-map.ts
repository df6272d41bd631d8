/**
 * Where everything of a woven site lives: the page of each document (its path under the site's folder, from
 * the document's path under the folder woven: `org/core/turn.org` → `org/core/turn.html`), the anchor of each
 * `:ID:`, and of each heading by its title. Every link of a page is relative to that page, so that the site reads the same from `file://`
 * and from any static server, wherever it is put.
 */
import path from 'node:path'
import {isInside} from '../project.ts'

/** The site's folder for the pages of documents outside the folder woven. */
const OUTSIDE = 'outside'

/** A place of the site: a page (its path under the site's folder, with `/`) and an anchor in it, if any. */
export interface SitePlace {
  page: string
  anchor?: string
}

/** What a page looks up in the map to make its links. */
export interface SiteLookup {
  pageOf(document: string): string | undefined
  idPlace(id: string): SitePlace | undefined
  headingAnchor(page: string, title: string): string | undefined
}

/**
 * Each answer the map gave a page, by question (`id`, `page` or `heading`, then what was asked, each part after a
 * NUL: no part holds one), none as null: a page
 * whose document did not change is made again only when one of these answers did (weave-record.ts).
 */
export type Lookups = Record<string, SitePlace | string | null>

export class SiteMap implements SiteLookup {
  private readonly pages = new Map<string, string>()
  private readonly ids = new Map<string, SitePlace>()
  /** Each page's headings by title: where `[[file:doc.org::*Title]]` leads. */
  private readonly headings = new Map<string, Map<string, string>>()
  /** Each file of the site taken, by its path in lower case: by a document, or (null) by the site itself. */
  private readonly taken = new Map<string, string | null>()

  /**
   * BASE: the folder whose documents are woven; a page's path under the site mirrors the document's under it.
   * SITE_FILES: the site's own files (its index, style sheet, scripts), which no page may be.
   */
  constructor(
    private readonly base: string,
    siteFiles: readonly string[] = [],
  ) {
    for (const file of siteFiles) this.taken.set(file.toLowerCase(), null)
  }

  /** The page the Org file DOCUMENT (absolute) would have: its path under the site, `.org` (in any case) made `.html`. */
  pagePathOf(document: string): string {
    return `${this.placeOf(document)
      .split(path.sep)
      .join('/')
      .replace(/\.org$/i, '')}.html`
  }

  /**
   * Who has the file PAGE already: a document (its path), null for the site's own file, undefined for nobody.
   * Compared without case: a site copied to a case-insensitive disk (macOS's, Windows's) holds one file of
   * `A.html` and `a.html`, the second written over the first.
   */
  holderOf(page: string): string | null | undefined {
    return this.taken.get(page.toLowerCase())
  }

  /** The page of the Org file DOCUMENT (absolute), made known to the map. */
  addDocument(document: string): string {
    const page = this.pagePathOf(document)
    this.pages.set(document, page)
    this.taken.set(page.toLowerCase(), document)
    return page
  }

  /**
   * Where DOCUMENT goes under the site: where it is under the folder woven, or, outside it (named on the command
   * line), under outside/ by its whole path: never above the site's folder.
   */
  private placeOf(document: string): string {
    if (isInside(document, this.base)) return path.relative(this.base, document)
    const absolute = path.resolve(document)
    return path.join(OUTSIDE, absolute.slice(path.parse(absolute).root.length))
  }

  /** The page of DOCUMENT, when it is woven. */
  pageOf(document: string): string | undefined {
    return this.pages.get(document)
  }

  /** Say that the ID ID is at PLACE; the first place said keeps it (a second is the graph's duplicate-id error). */
  addId(id: string, place: SitePlace): void {
    if (!this.ids.has(id)) this.ids.set(id, place)
  }

  idPlace(id: string): SitePlace | undefined {
    return this.ids.get(id)
  }

  /** Say that PAGE has a heading titled TITLE at ANCHOR; the first of a title keeps it, as Org's search finds it. */
  addHeading(page: string, title: string, anchor: string): void {
    let titles = this.headings.get(page)
    if (!titles) this.headings.set(page, (titles = new Map()))
    if (!titles.has(title)) titles.set(title, anchor)
  }

  /** The anchor of the heading of PAGE titled TITLE, if any. */
  headingAnchor(page: string, title: string): string | undefined {
    return this.headings.get(page)?.get(title)
  }

  /** The map as a page sees it, each answer it gives written down in LOOKUPS. */
  recording(lookups: Lookups): SiteLookup {
    const said = <T extends SitePlace | string>(question: string, answer: T | undefined): T | undefined => {
      lookups[question] = answer ?? null
      return answer
    }
    return {
      pageOf: (document) => said(`page\0${document}`, this.pageOf(document)),
      idPlace: (id) => said(`id\0${id}`, this.idPlace(id)),
      headingAnchor: (page, title) => said(`heading\0${page}\0${title}`, this.headingAnchor(page, title)),
    }
  }

  /** Whether the map answers each question of LOOKUPS as it did. */
  answersAsIn(lookups: Lookups): boolean {
    return Object.entries(lookups).every(([question, answer]) => {
      const [kind, asked = '', title = ''] = question.split('\0')
      const now =
        kind === 'id' ? this.idPlace(asked) : kind === 'page' ? this.pageOf(asked) : this.headingAnchor(asked, title)
      return JSON.stringify(now ?? null) === JSON.stringify(answer)
    })
  }
}

/**
 * The href that leads from the page FROM to PLACE: relative, with the anchor. Each part of the path and the anchor
 * is percent-encoded: a file name or an ID is the document's text, and its `#`, `?`, `%` or `name:` would be read
 * as a fragment, a query, an escape or a scheme (a page `javascript:alert(1).org` linked as script).
 */
export function hrefTo(from: string, place: SitePlace): string {
  const anchor = place.anchor === undefined ? '' : `#${encodeURIComponent(place.anchor)}`
  if (place.page === from) return anchor === '' ? encodeURIComponent(path.posix.basename(from)) : anchor
  const relative = path.posix.relative(path.posix.dirname(from), place.page)
  return `${relative.split('/').map(encodeURIComponent).join('/')}${anchor}`
}

/** The folder of the site's root seen from the page PAGE (`../../` from `org/core/turn.html`), empty at the root. */
export function rootFrom(page: string): string {
  return '../'.repeat(page.split('/').length - 1)
}
