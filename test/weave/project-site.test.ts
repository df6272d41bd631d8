/**
 * This project's own documents woven (every .org file under org/, as `passepartout weave` does by default) once,
 * into a folder of the test's, read twice: as the weave built it (every internal link of every page's hast leads to
 * a file of the site and an anchor on its page, every document has its page), and in a real headless Chromium
 * (every page loads with no console error, exception or failed request; every link followed finds its page and
 * anchor; the graph, the search and the noweb links work as a reader uses them). Both read the same weave: it is
 * the file's cost, about 15 s of CPU, paid once. The browser's tests are skipped, with one line saying so, without
 * Chromium; the committed screenshot of the README is checked either way.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isError} from '../../tools/diagnostics.ts'
import {listOrgFiles} from '../../tools/project.ts'
import {INDEX_PAGE} from '../../tools/weave/index-page.ts'
import {weave, type WeaveReport} from '../../tools/weave/weave.ts'
import {
  type KnownAnchors,
  type PageLink,
  type TestPage,
  browserForFile,
  findChromium,
  skippedLine,
} from '../support/browser.ts'
import {SCREENSHOT, SCREENSHOT_FILE} from '../support/site-screenshot.ts'
import {type ServedSite, serveFolder} from '../support/static-site.ts'
import {brokenLinks} from './site-links.ts'

const repo = path.resolve(import.meta.dirname, '../..')
let out: string
let report: WeaveReport

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-site-'))
  report = await weave({files: listOrgFiles(path.join(repo, 'org')), base: repo, out})
})

afterAll(() => {
  if (out) fs.rmSync(out, {recursive: true, force: true})
})

describe("the weave of this project's org/", () => {
  it('gives every document a page, with no error', () => {
    expect(report.diagnostics.filter(isError)).toEqual([])
    expect(report.woven.map((document) => document.page)).toEqual(report.documents.map((document) => document.page))
    for (const document of report.woven) expect(fs.existsSync(path.join(out, document.page)), document.page).toBe(true)
  })

  it('leaves no internal link leading nowhere', () => {
    expect(brokenLinks(out, report.pages)).toEqual([])
  })
})

describe("the README's screenshot of the site", () => {
  it('is committed, a PNG of the width and height the script takes it at', () => {
    const bytes = fs.readFileSync(path.join(repo, SCREENSHOT_FILE))
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    // The IHDR chunk's width and height.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([SCREENSHOT.width, SCREENSHOT.height])
  })
})

const chromium = findChromium()
if (!chromium) console.log(skippedLine("the woven site's tests in a browser"))

/** What is wrong with a page's links: each not found, but a link to another site (none of ours to follow). */
function notFound(links: readonly PageLink[]): string[] {
  return links
    .filter(
      (link) => link.target !== 'found' && !(link.target === 'not-followed' && /^(https?|mailto):/.test(link.url)),
    )
    .map((link) => `${link.href} (${link.target})`)
}

/** The text of the element PAGE's location's fragment names (empty when there is none). */
async function anchoredText(page: TestPage): Promise<string> {
  return (await page.evaluate(
    'document.getElementById(decodeURIComponent(location.hash.slice(1)))?.textContent ?? ""',
  )) as string
}

/** Click the link of SELECTOR, and wait until the page is at its href: a link within the page moves no page. */
async function follow(page: TestPage, selector: string): Promise<string> {
  const href = (await page.evaluate(`document.querySelector(${JSON.stringify(selector)})?.href ?? null`)) as
    string | null
  if (href === null) throw new Error(`no link of ${selector} in ${page.page.url()}`)
  await page.click(selector)
  await page.page.waitForFunction(`location.href === ${JSON.stringify(href)}`)
  return href
}

describe.skipIf(!chromium)('the woven site of this project in Chromium', () => {
  const browser = browserForFile(chromium)
  let site: ServedSite
  beforeAll(async () => {
    site = await serveFolder(out)
  })
  afterAll(async () => {
    await site?.close()
  })
  // The anchors of each document loaded: a document is loaded once for the links of every page.
  const known = {http: new Map() as KnownAnchors}
  const at = {
    http: (page: string) => `${site.url}${page}`,
    file: (page: string) => pathToFileURL(path.join(out, page)).href,
  }

  // Over HTTP, as the site is served: every page, and every link of it followed. From file://, as docs/weaving.md
  // says to open it, the index and two pages, their links not followed: every link names a file, which both schemes
  // open alike, and is checked twice already (in what the weave built, above, and over HTTP); what only file:// can
  // break is a page's own loading (a script fetched, which file:// refuses: the search's entries are a script for
  // that). Following every link from file:// too cost 17 s of a run for nothing the others do not see.
  it('loads every page over http with no problem, and finds every link of it', async () => {
    const pages = [...report.pages.keys()].sort((a, b) => Number(a === INDEX_PAGE) - Number(b === INDEX_PAGE))
    const problems: string[] = []
    for (const name of pages) {
      const page = await browser().open(at.http(name))
      for (const problem of page.problems) problems.push(`${name}: ${problem.kind} ${problem.text} (${problem.url})`)
      for (const link of notFound(await page.links(known.http))) problems.push(`${name}: ${link}`)
      await page.close()
    }
    expect(problems).toEqual([])
  })

  it('loads the index and its pages from file:// with no problem, search included', async () => {
    const pages = [INDEX_PAGE, 'org/core/loader.html', 'org/core/skill-ledger.html']
    expect(pages.filter((name) => !report.pages.has(name))).toEqual([])
    const problems: string[] = []
    for (const name of pages) {
      const page = await browser().open(at.file(name))
      for (const problem of page.problems) problems.push(`${name}: ${problem.kind} ${problem.text} (${problem.url})`)
      await page.type('#weave-search', 'transpileSkill')
      await page.waitFor('#weave-results li a')
      await page.close()
    }
    expect(problems).toEqual([])
  })

  it("draws the index's graph: one node a link for each document, each found", async () => {
    const page = await browser().open(at.http(INDEX_PAGE))
    const nodes = (await page.evaluate(`Array.from(document.querySelectorAll('figure.graph svg g.node'),
      (node) => new URL(node.querySelector('a')?.getAttribute('xlink:href') ?? '', document.baseURI).href)`)) as string[]
    const documents = nodes.map((node) => node.replace(/#.*/, ''))
    expect(documents.sort()).toEqual(report.woven.map((document) => at.http(document.page)).sort())
    const links = await page.links(known.http)
    expect(nodes.map((node) => links.find((link) => link.url === node)?.target)).toEqual(nodes.map(() => 'found'))
    expect(page.problems).toEqual([])
    await page.close()
  })

  it('finds a block by an identifier its code declares, and leads to it', async () => {
    // A weave given no build reads every document: each woven one is in the report as read.
    const declaring = report.woven.flatMap((document) =>
      document.document!.blocks.filter((block) => block.identifiers.includes('transpileSkill'))
        .map((block) => `${at.http(document.page)}#${block.anchor}`),
    )
    expect(declaring).toHaveLength(1)
    const page = await browser().open(at.http('org/core/turn.html'))
    await page.type('#weave-search', 'transpileSkill')
    await page.waitFor('#weave-results li a')
    const first = '#weave-results li:first-child a'
    expect(await page.evaluate(`document.querySelector(${JSON.stringify(first)}).textContent`)).toBe('transpileSkill')
    expect(await follow(page, first)).toBe(declaring[0])
    expect(await anchoredText(page)).toMatch(/function transpileSkill\(/)
    expect(page.problems).toEqual([])
    await page.close()
  })

  it('leads from a noweb reference to the block it names, and from its "used in" back', async () => {
    const url = at.http('org/core/skill-ledger.html')
    const page = await browser().open(url)
    const user = (await page.evaluate(`document.querySelector('figure.block a.noweb').closest('figure').id`)) as string
    const named = await follow(page, `figure[id="${user}"] a.noweb`)
    const target = decodeURIComponent(new URL(named).hash.slice(1))
    expect(await page.evaluate('document.getElementById(location.hash.slice(1))?.tagName ?? null')).toBe('FIGURE')
    expect(target).not.toBe(user)
    expect(await follow(page, `figure[id="${target}"] .used-in a[href="#${user}"]`)).toBe(`${url}#${user}`)
    expect(page.problems).toEqual([])
    await page.close()
  })
})
