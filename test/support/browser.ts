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

  /** Whether URL loads, and whether the element of each of ANCHORS is in it, in a page of its own closed after. */
  async findAnchors(url: string, anchors: readonly string[]): Promise<Map<string, boolean> | undefined> {
    const page = await this.browser.newPage()
    page.setDefaultNavigationTimeout(this.deadlines.navigationMs)
    try {
      const response = await page.goto(url, {waitUntil: 'load'}).catch(() => undefined)
      if (response === undefined || (response !== null && !response.ok())) return undefined
      const found = await page.evaluate(hasAnchors, [...anchors])
      return new Map(anchors.map((anchor, index) => [anchor, found[index] ?? false]))
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
   * Every `<a href>` of the page, in the page's order, with what is found when it is followed: each document it
   * names is loaded once in a page of its own, whatever the number of links to it, and its anchors looked up there.
   */
  async links(): Promise<PageLink[]> {
    const links = await this.page.evaluate(pageLinks)
    const here = new URL(this.page.url())
    const anchorsOf = new Map<string, Set<string>>()
    for (const link of links) {
      const target = new URL(link.url)
      if (!sameSite(target, here)) continue
      const anchors = anchorsOf.get(documentOf(target)) ?? new Set<string>()
      anchors.add(anchorOf(target))
      anchorsOf.set(documentOf(target), anchors)
    }
    const found = new Map<string, Map<string, boolean> | undefined>()
    for (const [document, anchors] of anchorsOf)
      found.set(document, await this.browser.findAnchors(document, [...anchors]))
    return links.map((link) => ({...link, target: targetOf(new URL(link.url), here, found)}))
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

function targetOf(url: URL, here: URL, found: Map<string, Map<string, boolean> | undefined>): PageLink['target'] {
  if (!sameSite(url, here)) return 'not-followed'
  const anchors = found.get(documentOf(url))
  if (anchors === undefined) return 'no-document'
  return anchors.get(anchorOf(url)) ? 'found' : 'no-anchor'
}

/** What the functions run in the page use of its document (the tests are type-checked without the DOM's types). */
interface PageDocument {
  getElementById(id: string): unknown
  getElementsByName(name: string): ArrayLike<{tagName: string}>
  querySelectorAll(selector: string): ArrayLike<{getAttribute(name: string): string | null; href: string}>
}

/** Run in the page: its links, `href` as written and the URL it resolves to. */
function pageLinks(): {href: string; url: string}[] {
  const {document} = globalThis as unknown as {document: PageDocument}
  return Array.from(document.querySelectorAll('a[href]'), (a) => ({href: a.getAttribute('href') ?? '', url: a.href}))
}

/**
 * Run in the page: whether each fragment names an element, as HTML finds a fragment's target: an element of that
 * id, else an `<a>` of that name; the empty fragment names the top of the document.
 */
function hasAnchors(anchors: string[]): boolean[] {
  const {document} = globalThis as unknown as {document: PageDocument}
  const named = (name: string) => Array.from(document.getElementsByName(name)).some((e) => e.tagName === 'A')
  return anchors.map((anchor) => anchor === '' || document.getElementById(anchor) !== null || named(anchor))
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
