/**
 * A real browser for the tests: the system's headless Chromium, driven over the DevTools protocol by puppeteer-core
 * (which downloads no browser of its own). One browser per test file (`browserForFile`), launched before its first
 * test and closed after its last; each page it opens collects what went wrong in it (console errors, uncaught
 * exceptions, failed requests), so a test can assert there was nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import puppeteer, {type Browser, type HTTPRequest, type HTTPResponse, type Page} from 'puppeteer-core'
import {afterAll, beforeAll} from 'vitest'

/** How long the browser may take to start, and a page to load or a selector to appear, in ms. */
export interface BrowserDeadlines {
  launchMs: number
  navigationMs: number
}

/**
 * Deadlines that only catch a browser or a page that hangs: Chromium starts in about a second here and a page of a
 * static site loads in a fraction of that, but the machine is shared and sometimes loaded many times over.
 */
export const DEADLINES: BrowserDeadlines = {launchMs: 30_000, navigationMs: 15_000}

/** The names Chromium is installed under: Debian's package says `chromium`, others `chromium-browser`. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser']

/**
 * The Chromium the tests drive: PASSEPARTOUT_CHROMIUM when set (a setting of the tests alone, the product runs no
 * browser), else the first of `chromium`, `chromium-browser` on PATH; undefined when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PASSEPARTOUT_CHROMIUM) return env.PASSEPARTOUT_CHROMIUM
  const folders = (env.PATH ?? '').split(path.delimiter).filter(Boolean)
  for (const name of CHROMIUM_NAMES)
    for (const folder of folders) {
      const file = path.join(folder, name)
      if (isExecutableFile(file)) return file
    }
  return undefined
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/** The line a test file prints when it skips its browser tests, as the Emacs client's do without Emacs. */
export function skippedLine(what: string): string {
  return `${what} were skipped: Chromium is not installed (neither chromium nor chromium-browser on PATH, nor PASSEPARTOUT_CHROMIUM)`
}

/** Something that went wrong in a page: what kind, what was said, and the URL it concerns. */
export interface PageProblem {
  kind: 'console' | 'exception' | 'request'
  text: string
  url: string
}

/** The anchors of each document loaded so far, by its URL without fragment; undefined: it did not load. */
export type KnownAnchors = Map<string, ReadonlySet<string> | undefined>

/** A link of a page: its `href` as written, the URL it resolves to, and what was found when it was followed. */
export interface PageLink {
  href: string
  url: string
  /**
   * `found`: the document loaded and has the anchor (or none was asked); `no-document`: it did not load (a missing
   * file, an HTTP error, nothing within the navigation deadline); `no-anchor`: it loaded without an element of the fragment's id (or an `<a name>` of it);
   * `not-followed`: another site or scheme (`mailto:`, another host), which the tests do not reach.
   */
  target: 'found' | 'no-document' | 'no-anchor' | 'not-followed'
}

/** A headless Chromium of one test file. */
export class TestBrowser {
  private constructor(
    private readonly browser: Browser,
    readonly deadlines: BrowserDeadlines,
  ) {}

  /**
   * Start EXECUTABLE headless. We run as root in CI and on the development machine, and Chromium refuses to start as
   * root inside its sandbox: --no-sandbox, which is safe here as it only loads the sites the tests write. Puppeteer
   * kills it at the deadline (with what it printed in the error), and when the test's process exits or is
   * interrupted (its handlers of SIGINT, SIGTERM and SIGHUP, removed when the browser is closed).
   */
  static async launch(executable: string, deadlines: BrowserDeadlines = DEADLINES): Promise<TestBrowser> {
    try {
      const browser = await puppeteer.launch({
        executablePath: executable,
        headless: true,
        args: ['--no-sandbox'],
        timeout: deadlines.launchMs,
      })
      return new TestBrowser(browser, deadlines)
    } catch (error) {
      const deadline = `its deadline ${deadlines.launchMs} ms`
      throw new Error(`Chromium (${executable}) did not start (${deadline}): ${messageOf(error)}`)
    }
  }

  /** A new page at URL (file:// or http://127.0.0.1), once it has loaded; its problems are collected from the start. */
  async open(url: string): Promise<TestPage> {
    const page = await this.browser.newPage()
    page.setDefaultTimeout(this.deadlines.navigationMs)
    page.setDefaultNavigationTimeout(this.deadlines.navigationMs)
    const opened = new TestPage(page, this)
    const failure = await page.goto(url, {waitUntil: 'load'}).then(
      (response) => (response && !response.ok() ? `HTTP ${response.status()}` : undefined),
      (error: unknown) => messageOf(error),
    )
    if (failure === undefined) return opened
    await page.close()
    throw new Error(`${url} did not load: ${failure}`)
  }

  /**
   * The anchors of the document at URL (the ids of its elements and the names of its `<a>`), in a page of its own
   * closed after; undefined when it does not load.
   */
  async anchorsOf(url: string): Promise<Set<string> | undefined> {
    const page = await this.browser.newPage()
    page.setDefaultNavigationTimeout(this.deadlines.navigationMs)
    try {
      const response = await page.goto(url, {waitUntil: 'load'}).catch(() => undefined)
      if (response === undefined || (response !== null && !response.ok())) return undefined
      return new Set(await page.evaluate(pageAnchors))
    } finally {
      await page.close()
    }
  }

  async close(): Promise<void> {
    await this.browser.close()
  }
}

/** A page of the browser, and what went wrong in it since it was opened. */
export class TestPage {
  readonly problems: PageProblem[] = []
  /** Run a function in the page with arguments (JSON-like values) and give back its result. */
  readonly evaluate: Page['evaluate']

  constructor(
    readonly page: Page,
    private readonly browser: TestBrowser,
  ) {
    this.evaluate = page.evaluate.bind(page)
    page.on('console', (message) => {
      // A resource that did not load is said again on the console; it is reported once, from the network's events.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        this.problems.push({kind: 'console', text: message.text(), url: message.location().url ?? page.url()})
    })
    page.on('pageerror', (error) => this.problems.push({kind: 'exception', text: messageOf(error), url: page.url()}))
    page.on('response', (response) => this.onResponse(response))
    page.on('requestfailed', (request) => this.onRequestFailed(request))
  }

  private onResponse(response: HTTPResponse): void {
    if (response.status() < 400 || isBrowsersOwn(response.request())) return
    this.problems.push({kind: 'request', text: `HTTP ${response.status()}`, url: response.url()})
  }

  /** A request that got no answer: one that did get an HTTP error was reported then, and is cancelled after it. */
  private onRequestFailed(request: HTTPRequest): void {
    if (isBrowsersOwn(request) || this.problems.some((p) => p.kind === 'request' && p.url === request.url())) return
    this.problems.push({kind: 'request', text: request.failure()?.errorText ?? 'failed', url: request.url()})
  }

  async click(selector: string): Promise<void> {
    await this.page.click(selector)
  }

  /** Type TEXT into the field of SELECTOR, key by key, as a person would. */
  async type(selector: string, text: string): Promise<void> {
    await this.page.type(selector, text)
  }

  /** Wait for an element of SELECTOR to be in the page, within MS (the navigation deadline unless said). */
  async waitFor(selector: string, ms = this.browser.deadlines.navigationMs): Promise<void> {
    await this.page.waitForSelector(selector, {timeout: ms}).catch((error: unknown) => {
      throw new Error(`no element of ${selector} in ${this.page.url()} within ${ms} ms: ${messageOf(error)}`)
    })
  }

  /**
   * Every link of the page (`<a href>`, and `<a xlink:href>` of its SVG), in the page's order, with what is found
   * when it is followed: each document it names is loaded once in a page of its own, whatever the number of links to
   * it, and its anchors looked up there; the page's own anchors are looked up in it. KNOWN, the anchors of the
   * documents loaded so far (given by the caller to check many pages of one site), is read first and filled.
   */
  async links(known: KnownAnchors = new Map()): Promise<PageLink[]> {
    const links = await this.page.evaluate(pageLinks)
    const here = new URL(this.page.url())
    if (!known.has(documentOf(here))) known.set(documentOf(here), new Set(await this.page.evaluate(pageAnchors)))
    for (const link of links) {
      const target = new URL(link.url)
      if (sameSite(target, here) && !known.has(documentOf(target)))
        known.set(documentOf(target), await this.browser.anchorsOf(documentOf(target)))
    }
    return links.map((link) => ({...link, target: targetOf(new URL(link.url), here, known)}))
  }

  /** A PNG of the page as shown (its viewport) at FILE, folders made as needed. */
  async screenshot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), {recursive: true})
    await this.page.screenshot({path: file as `${string}.png`, type: 'png'})
  }

  async close(): Promise<void> {
    await this.page.close()
  }
}

/** Chromium asks a site for /favicon.ico on its own when a page names no icon: no request of the page's. */
function isBrowsersOwn(request: HTTPRequest): boolean {
  return request.resourceType() === 'other' && new URL(request.url()).pathname === '/favicon.ico'
}

function sameSite(target: URL, here: URL): boolean {
  return target.protocol === here.protocol && target.host === here.host
}

/** The URL of the document a link names: without its fragment. */
function documentOf(url: URL): string {
  return `${url.origin === 'null' ? `${url.protocol}//` : url.origin}${url.pathname}${url.search}`
}

/** The element a fragment names, as the browser looks it up: percent-decoded; empty when there is none. */
function anchorOf(url: URL): string {
  const fragment = url.hash.slice(1)
  try {
    return decodeURIComponent(fragment)
  } catch {
    return fragment
  }
}

/** What following URL from HERE finds: the empty fragment names the top of a document that loaded. */
function targetOf(url: URL, here: URL, known: KnownAnchors): PageLink['target'] {
  if (!sameSite(url, here)) return 'not-followed'
  const anchors = known.get(documentOf(url))
  if (anchors === undefined) return 'no-document'
  const anchor = anchorOf(url)
  return anchor === '' || anchors.has(anchor) ? 'found' : 'no-anchor'
}

/** What the functions run in the page use of its document (the tests are type-checked without the DOM's types). */
interface PageDocument {
  baseURI: string
  querySelectorAll(selector: string): ArrayLike<{getAttribute(name: string): string | null; id: string}>
}

/**
 * Run in the page: its links, as written and the URL each resolves to: `<a href>` of HTML, and `<a>` of SVG, whose
 * link is `href` or the older `xlink:href` (Graphviz writes the latter).
 */
function pageLinks(): {href: string; url: string}[] {
  const {document} = globalThis as unknown as {document: PageDocument}
  const anchors = Array.from(document.querySelectorAll('a'))
  const hrefs = anchors.map((a) => a.getAttribute('href') ?? a.getAttribute('xlink:href'))
  return hrefs
    .filter((href): href is string => href !== null)
    .map((href) => ({href, url: new URL(href, document.baseURI).href}))
}

/**
 * Run in the page: the names a fragment can give of its elements, as HTML finds a fragment's target: an element's
 * id, and an `<a>`'s name.
 */
function pageAnchors(): string[] {
  const {document} = globalThis as unknown as {document: PageDocument}
  const ids = Array.from(document.querySelectorAll('[id]'), (element) => element.id)
  const names = Array.from(document.querySelectorAll('a[name]'), (a) => a.getAttribute('name') ?? '')
  return [...ids, ...names]
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The browser of the calling test file: launched in its beforeAll, closed in its afterAll. Call it at the top of a
 * `describe` that is skipped when `findChromium()` finds none; the function it gives is called in the tests.
 */
export function browserForFile(
  executable: string | undefined,
  deadlines: BrowserDeadlines = DEADLINES,
): () => TestBrowser {
  let browser: TestBrowser | undefined
  beforeAll(async () => {
    if (executable === undefined) throw new Error('no Chromium to launch')
    browser = await TestBrowser.launch(executable, deadlines)
  }, deadlines.launchMs + 5_000)
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error('the browser of this file did not start')
    return browser
  }
}
