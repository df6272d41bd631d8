/**
 * `weave` of a document written to attack its reader: HTML and script in its title, prose, IDs, names, block
 * languages and code, and links whose target is script (`javascript:`, `data:`, a scheme hidden behind spaces or
 * capitals). Only Org's own `#+HTML:` becomes markup; every other text stays text, and a link a page must not
 * follow is shown unlinked with a warning at its Org line. One weave, shared by the tests.
 */
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import {beforeAll, describe, expect, it} from 'vitest'
import {weave, type WeaveReport} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'
import {brokenLinks, elements, raws, textOf} from './site-links.ts'

const HOSTILE = `#+TITLE: Evil <script>alert('title')</script>
* Heading <img src=x onerror=alert(2)>
:PROPERTIES:
:ID: x"</script><script>alert(3)</script>\u2028
:END:
Prose <b>bold</b> <script>alert(4)</script>.
[[javascript:alert(5)][click]]
[[javascript:alert(6)]]
[[data:text/html,<script>alert(7)</script>][data]]
[[vbscript:msgbox(8)][vb]]
[[JaVaScRiPt:alert(9)][capitals]]
[[  javascript:alert(10)][spaces]]
[[https://example.com/"onmouseover="alert(11)][quotes]]
[[mailto:someone@example.com][mail]]
[[id:named-as-script][a heading of a document named as script]], [[file:a#b 100%.org][an awkward name]]

#+NAME: a"b</script><img onerror=alert(12)>
#+begin_src <img/onerror=alert(13)>
const x = "</script><script>alert(14)</script>"
#+end_src

#+HTML: <b class="author">the author's own HTML</b>
Snippets: @@html:<i class="author">kept</i>@@, @@latex:<script>alert(15)</script>@@, @@HTML:<script>alert(16)</script>@@.
`

let project: string
let report: WeaveReport

beforeAll(async () => {
  // Files named so that a path read as a URL is a scheme, a fragment, a query, an escape.
  const named = {
    'org/javascript:alert(1).org': '* Named\n:PROPERTIES:\n:ID: named-as-script\n:END:\n',
    'org/a#b 100%.org': '* Awkward\n',
  }
  project = tempProject({'org/evil.org': HOSTILE, ...named}, 'passepartout-weave-hostile-')
  const files = ['org/evil.org', ...Object.keys(named)].map((file) => path.join(project, file))
  report = await weave({files, base: project, out: path.join(project, 'site')})
})

const page = () => report.pages.get('org/evil.html')!
const links = () => elements(page()).filter((element) => element.tagName === 'a' || element.tagName === 'img')
const linkTo = (label: string) => links().find((element) => textOf(element) === label)

/** The scheme of URL as a browser reads it (leading spaces and controls, tabs and newlines ignored), lower-case. */
const schemeOf = (url: string) =>
  /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, ''))?.[1]?.toLowerCase()

describe('weave of a hostile document', () => {
  it('leads no link or image of the page to script', () => {
    const targets = links().map((element) => String(element.properties.href ?? element.properties.src ?? ''))
    expect(targets.filter((url) => ['javascript', 'vbscript', 'data'].includes(schemeOf(url) ?? ''))).toEqual([])
  })

  it('shows a link a page must not follow as its text, unlinked, with a warning at its Org line', () => {
    const unsafe = elements(page()).filter((element) =>
      (element.properties.className as string[] | undefined)?.includes('unknown-link'),
    )
    expect(unsafe.map(textOf)).toEqual(['click', 'javascript:alert(6)', 'data', 'vb', 'capitals', 'spaces'])
    const warnings = report.diagnostics.filter((diagnostic) => diagnostic.ruleId === 'weave/unsafe-link')
    expect(warnings.map((diagnostic) => diagnostic.line)).toEqual([7, 8, 9, 10, 11, 12])
  })

  it('leads a link to a page whose file name holds `:`, `#`, `%` or a space to that page', () => {
    expect(brokenLinks(path.join(project, 'site'), report.pages)).toEqual([])
    expect(linkTo('an awkward name')?.properties.href).toBe('a%23b%20100%25.html')
  })

  it('keeps the links a page may follow', () => {
    expect(linkTo('quotes')?.properties.href).toBe('https://example.com/"onmouseover="alert(11)')
    expect(linkTo('mail')?.properties.href).toBe('mailto:someone@example.com')
  })

  it('makes markup of the author’s #+HTML: only: no script of its own, no event handler, the rest its text', () => {
    const scripts = elements(page()).filter((element) => element.tagName === 'script')
    expect(scripts.map((script) => script.properties.src)).toEqual(['../weave-search.js'])
    const handlers = elements(page())
      .flatMap((element) => Object.keys(element.properties))
      .filter((key) => /^on/i.test(key))
    expect(handlers).toEqual([])
    expect(raws(page())).toEqual(['<b class="author">the author\'s own HTML</b>', '<i class="author">kept</i>'])
    expect(textOf(page() as never)).toContain('Prose <b>bold</b> <script>alert(4)</script>.')
  })

  it('leaves out an export snippet of another backend than html, as Org’s HTML export does', () => {
    const snippets = elements(page()).find((element) => textOf(element).startsWith('Snippets: '))
    expect(textOf(snippets!)).toBe('Snippets: , , .\n')
  })

  it('writes a search index that, run, only sets its entries, each text as written', () => {
    const window: {WEAVE_INDEX?: unknown[][]} = {}
    vm.runInNewContext(fs.readFileSync(path.join(project, 'site', 'weave-index.js'), 'utf8'), {window})
    expect(Object.keys(window)).toEqual(['WEAVE_INDEX'])
    const ofEvil = window.WEAVE_INDEX!.filter((entry) => String(entry[2]).startsWith('org/evil.html'))
    expect(ofEvil.map((entry) => entry.slice(0, 3))).toEqual([
      [
        'Heading <img src=x onerror=alert(2)>',
        'heading',
        'org/evil.html#x%22%3C%2Fscript%3E%3Cscript%3Ealert(3)%3C%2Fscript%3E%E2%80%A8',
      ],
      ['a"b</script><img onerror=alert(12)>', 'block', 'org/evil.html#code-a-b-script-img-onerror-alert-12'],
    ])
  })
})
