/**
 * The browser harness of test/support/browser.ts, on a small static site this file writes: a clean site reports no
 * problem and every link found; each page broken on purpose (a link to a missing page, a missing anchor, a console
 * error, a thrown exception, a 404) reports what broke it. Skipped, with one line saying so, without Chromium.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  type KnownAnchors,
  type PageLink,
  type PageProblem,
  TestBrowser,
  browserForFile,
  findChromium,
  skippedLine,
} from './support/browser.ts'
import {type ServedSite, serveFolder} from './support/static-site.ts'

/** An HTML page of TITLE whose head holds HEAD and body BODY. */
function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`
}

const CLEAN_SITE: Record<string, string> = {
  'index.html': html(
    'Index',
    [
      '<h1 id="top">Index</h1>',
      '<a href="page.html">the page</a> <a href="page.html#section">its section</a> <a href="#top">top</a>',
      '<a href="sub/">the sub-folder</a> <a name="old-style"></a> <a href="#old-style">an anchor by name</a>',
      '<a href="mailto:someone@example.org">mail</a>',
      '<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="page.html#section"><text>a node</text></a></svg>',
      '<button id="button">press</button> <input id="field">',
    ].join('\n'),
    '<link rel="stylesheet" href="style.css"><script src="script.js" defer></script><link rel="icon" href="data:,">',
  ),
  'page.html': html('Page', '<h2 id="section">Section</h2><a href="index.html#top">back</a>'),
  'sub/index.html': html('Sub', '<a href="../page.html#section">up</a>'),
  'style.css': 'h1 { color: rebeccapurple }\n',
  // The page's behaviour the tests drive: a press adds an element, a typed text is echoed.
  'script.js': [
    `document.getElementById('button').addEventListener('click', () => {`,
    `  const done = document.createElement('p'); done.id = 'pressed'; document.body.append(done)`,
    `})`,
    `document.getElementById('field').addEventListener('input', (event) => { document.title = event.target.value })`,
  ].join('\n'),
}

interface Broken {
  name: string
  page: string
  problems?: Partial<PageProblem>[]
  links?: Partial<PageLink>[]
}

/** Pages broken on purpose, each in one way, beside the clean site; served over HTTP. */
const BROKEN: Broken[] = [
  {name: 'a link to a missing page', page: html('b', '<a href="missing.html">x</a>'), links: [{target: 'no-document'}]},
  {
    name: 'a link to a missing anchor of another page',
    page: html('b', '<a href="page.html#nowhere">x</a>'),
    links: [{href: 'page.html#nowhere', target: 'no-anchor'}],
  },
  {
    name: 'a link to a missing anchor of its own',
    page: html('b', '<a href="#nowhere">x</a>'),
    links: [{target: 'no-anchor'}],
  },
  {
    name: 'a console error',
    page: html('b', '<script>console.error("broken on purpose")</script>'),
    problems: [{kind: 'console', text: 'broken on purpose'}],
  },
  {
    name: 'a thrown exception',
    page: html('b', '<script>throw new Error("thrown on purpose")</script>'),
    problems: [{kind: 'exception', text: expect.stringContaining('thrown on purpose')}],
  },
  {
    name: 'a promise rejected and not handled',
    page: html('b', '<script>Promise.reject(new Error("rejected on purpose"))</script>'),
    problems: [{kind: 'exception', text: expect.stringContaining('rejected on purpose')}],
  },
  {
    name: 'a stylesheet answered with a 404',
    page: html('b', '', '<link rel="stylesheet" href="missing.css">'),
    problems: [{kind: 'request', text: 'HTTP 404', url: expect.stringMatching(/\/missing\.css$/)}],
  },
  {
    name: 'a script answered with a 404',
    page: html('b', '<script src="missing.js"></script>'),
    problems: [{kind: 'request', text: 'HTTP 404', url: expect.stringMatching(/\/missing\.js$/)}],
  },
]

const chromium = findChromium()
if (!chromium) console.log(skippedLine("the browser harness's tests"))

describe('the Chromium the tests drive', () => {
  let folder: string
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-chromium-'))
    for (const name of ['one/chromium', 'two/chromium-browser', 'three/chromium']) {
      fs.mkdirSync(path.join(folder, path.dirname(name)), {recursive: true})
      fs.writeFileSync(path.join(folder, name), '#!/bin/sh\n', {mode: name.startsWith('three') ? 0o644 : 0o755})
    }
  })
  afterAll(() => fs.rmSync(folder, {recursive: true, force: true}))

  // Each row: PASSEPARTOUT_CHROMIUM, PATH (folders of the test's folder), what is found (in the test's folder).
  it.each([
    ['PASSEPARTOUT_CHROMIUM, whatever PATH holds', '/opt/c/chrome', 'one', '/opt/c/chrome'],
    ['chromium first', undefined, 'two:one', 'one/chromium'],
    ['chromium-browser when there is no chromium', undefined, 'two', 'two/chromium-browser'],
    ['no file that cannot be run', undefined, 'three:two', 'two/chromium-browser'],
    ['none', undefined, 'three', undefined],
    ['none without PATH', undefined, undefined, undefined],
  ])('finds %s', (_name, setting, folders, expected) => {
    const inFolder = (list: string) =>
      list
        .split(':')
        .map((entry) => path.join(folder, entry))
        .join(path.delimiter)
    const found = findChromium({
      ...(setting === undefined ? {} : {PASSEPARTOUT_CHROMIUM: setting}),
      ...(folders === undefined ? {} : {PATH: inFolder(folders)}),
    })
    expect(found).toBe(expected === undefined || expected.startsWith('/') ? expected : path.join(folder, expected))
  })

  // The deadline only ends the wait for one that never answers: one that exits is reported when it does.
  it.each([
    [
      'exits at once',
      '#!/bin/sh\necho "no display" >&2\nexit 1\n',
      60_000,
      /did not start \(its deadline 60000 ms\): .*no display/s,
    ],
    [
      'never answers',
      `#!/bin/sh\nexec ${process.execPath} -e 'setTimeout(() => {}, 60_000)'\n`,
      1000,
      /did not start \(its deadline 1000 ms\): .*Timed out after 1000 ms/s,
    ],
  ])('says which Chromium did not start when it %s', async (_name, script, launchMs, message) => {
    const executable = path.join(folder, 'stuck-chromium')
    fs.writeFileSync(executable, script, {mode: 0o755})
    const launched = TestBrowser.launch(executable, {launchMs, navigationMs: 1000})
    await expect(launched).rejects.toThrow(message)
    await expect(launched).rejects.toThrow(executable)
  })
})

describe.skipIf(!chromium)('a browser for the tests', () => {
  const browser = browserForFile(chromium)
  let folder: string
  let site: ServedSite
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-site-'))
    const pages = Object.fromEntries(BROKEN.map((broken, index) => [`broken-${index}.html`, broken.page]))
    for (const [name, text] of Object.entries({...CLEAN_SITE, ...pages})) {
      fs.mkdirSync(path.dirname(path.join(folder, name)), {recursive: true})
      fs.writeFileSync(path.join(folder, name), text)
    }
    site = await serveFolder(folder)
  })
  afterAll(async () => {
    await site?.close()
    fs.rmSync(folder, {recursive: true, force: true})
  })
  const fileUrl = (name: string) => pathToFileURL(path.join(folder, name)).href

  it.each([
    ['file://', () => fileUrl('index.html')],
    ['http://127.0.0.1', () => `${site.url}index.html`],
  ])('finds no problem and every link of a clean site over %s', async (_scheme, url) => {
    const page = await browser().open(url())
    const links = await page.links()
    expect(links.map(({href, target}) => [href, target])).toEqual([
      ['page.html', 'found'],
      ['page.html#section', 'found'],
      ['#top', 'found'],
      ['sub/', 'found'],
      ['#old-style', 'found'],
      ['mailto:someone@example.org', 'not-followed'],
      ['page.html#section', 'found'],
    ])
    expect(links[1]?.url).toBe(new URL('page.html#section', url()).href)
    expect(page.problems).toEqual([])
    await page.close()
  })

  it('loads each document that links name once, however many links name it, and not its own', async () => {
    const page = await browser().open(`${site.url}index.html`)
    const before = site.requests.length
    await page.links()
    // page.html for three links, the sub-folder's page (and what they load); index.html's anchors are looked up in it.
    const followed = site.requests.slice(before).filter((request) => /(\.html|\/)$/.test(request))
    expect(followed.sort()).toEqual(['/page.html', '/sub/'])
    await page.close()
  })

  it('loads a document once for the links of many pages given the same record of what was loaded', async () => {
    const known: KnownAnchors = new Map()
    const before = site.requests.length
    const index = await browser().open(`${site.url}index.html`)
    await index.links(known)
    await index.close()
    const sub = await browser().open(`${site.url}sub/`)
    expect(await sub.links(known)).toEqual([expect.objectContaining({href: '../page.html#section', target: 'found'})])
    await sub.close()
    // index.html and sub/ as opened; page.html and sub/ for index.html's links, page.html not again for sub/'s.
    const loaded = site.requests.slice(before).filter((request) => /(\.html|\/)$/.test(request))
    expect(loaded.sort()).toEqual(['/index.html', '/page.html', '/sub/', '/sub/'])
    expect([...known.keys()].sort()).toEqual([`${site.url}index.html`, `${site.url}page.html`, `${site.url}sub/`])
  })

  it.each(BROKEN.map((broken, index) => ({...broken, index})))('sees $name', async ({index, problems, links}) => {
    const page = await browser().open(`${site.url}broken-${index}.html`)
    expect(await page.links()).toEqual((links ?? []).map((link) => expect.objectContaining(link)))
    expect(page.problems).toEqual((problems ?? []).map((problem) => expect.objectContaining(problem)))
    await page.close()
  })

  it('sees a missing stylesheet and a link to a missing file over file://', async () => {
    fs.writeFileSync(
      path.join(folder, 'broken-file.html'),
      html('b', '<a href="nowhere.html">x</a>', '<link rel="stylesheet" href="nowhere.css">'),
    )
    const page = await browser().open(fileUrl('broken-file.html'))
    expect(page.problems).toEqual([{kind: 'request', text: 'net::ERR_FILE_NOT_FOUND', url: fileUrl('nowhere.css')}])
    expect(await page.links()).toEqual([{href: 'nowhere.html', url: fileUrl('nowhere.html'), target: 'no-document'}])
    await page.close()
  })

  it("takes the browser's own request for a site's /favicon.ico for none of the page's", async () => {
    // A site of its own, at an origin the browser has not asked for an icon yet: it asks once the page has loaded.
    const fresh = await serveFolder(folder)
    try {
      const page = await browser().open(`${fresh.url}page.html`)
      const icon = await page.page.waitForResponse((response) => response.url() === `${fresh.url}favicon.ico`)
      expect(icon.status()).toBe(404)
      expect(page.problems).toEqual([])
      await page.close()
    } finally {
      await fresh.close()
    }
  })

  it('says which page did not load', async () => {
    await expect(browser().open(`${site.url}missing.html`)).rejects.toThrow(/missing\.html did not load: HTTP 404/)
    await expect(browser().open(fileUrl('missing.html'))).rejects.toThrow(/did not load: net::ERR_FILE_NOT_FOUND/)
  })

  it('clicks, types, waits for an element and evaluates in the page', async () => {
    const page = await browser().open(`${site.url}index.html`)
    await page.click('#button')
    await page.waitFor('#pressed')
    await page.type('#field', 'typed')
    expect(await page.evaluate('document.title')).toBe('typed')
    expect(await page.evaluate((a: number, b: number) => a + b, 2, 3)).toBe(5)
    expect(page.problems).toEqual([])
    await page.close()
  })

  it('gives up waiting for an element that never comes, at its deadline', async () => {
    const page = await browser().open(`${site.url}page.html`)
    await expect(page.waitFor('#never', 500)).rejects.toThrow(
      /^no element of #never in http:.*page\.html within 500 ms/,
    )
    await page.close()
  })

  it('writes a screenshot as a PNG', async () => {
    const page = await browser().open(`${site.url}index.html`)
    const file = path.join(folder, 'shots', 'index.png')
    await page.screenshot(file)
    const bytes = fs.readFileSync(file)
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    // The IHDR chunk's width and height: the viewport's, not nothing.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([800, 600])
    await page.close()
  })
})
