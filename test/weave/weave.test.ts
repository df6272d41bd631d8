/**
 * `weave` on a project of three documents on disk: a noweb reference, an `[[id:…]]` link across documents, a
 * `[[file:….org]]` link, a `#+DEPENDS_ON:` edge, and an id no document holds. One weave, in this process, shared
 * by the tests that read its pages (as the weave built them, hast); the files it wrote are read from disk.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {tangle} from '../../tools/tangle/tangle.ts'
import {weave, type WeaveReport} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'
import {brokenLinks, elements, idsOf, textOf} from './site-links.ts'

const ALPHA = `:PROPERTIES:
:ID: alpha-doc
:END:
#+TITLE: Alpha
* Intent
Alpha leans on [[id:beta-heading][Beta's heading]], and on [[id:nowhere][a place no one holds]].
* Implementation
#+begin_src typescript :tangle ../generated/alpha.ts :mkdirp yes :noweb yes
export function alpha(): number {
  <<alpha-body>>
}
#+end_src

#+NAME: alpha-body
#+begin_src typescript
const one = 1
return one
#+end_src
`

const BETA = `#+TITLE: Beta
#+DEPENDS_ON: id:alpha-doc
* A heading of Beta
:PROPERTIES:
:ID: beta-heading
:END:
#+begin_src typescript :tangle ../generated/beta.ts :mkdirp yes
export const first = 1
#+end_src

#+begin_src typescript :tangle ../generated/beta.ts
export const second = 2
export const third = 3
#+end_src
`

const GAMMA = `#+TITLE: Gamma
See [[file:alpha.org][the first document]], and [[file:beta.org::*A heading of Beta][a heading of the second]].
#+INCLUDE: "../parts/part.org"
#+INCLUDE: "../parts/snippet.ts" src typescript :lines "2-4"
#+INCLUDE: "../parts/missing.org"
#+INCLUDE: "../parts/script.py" src python

#+begin_src sh
echo not tangled
#+end_src
`

let project: string
let out: string
let report: WeaveReport

beforeAll(async () => {
  project = tempProject(
    {
      'org/alpha.org': ALPHA,
      'org/beta.org': BETA,
      'org/gamma.org': GAMMA,
      'parts/part.org': 'Included /prose/.\n',
      'parts/script.py': 'def main():\n    return 1\n',
      'parts/snippet.ts': 'const zero = 0\nconst one = 1\nconst two = 2\nconst three = 3\n',
    },
    'passepartout-weave-',
  )
  out = path.join(project, 'generated', 'site')
  const files = ['alpha', 'beta', 'gamma'].map((name) => path.join(project, 'org', `${name}.org`))
  await tangle({files})
  report = await weave({files, base: project, out})
})

const page = (name: string) => report.pages.get(`org/${name}.html`)!
const figures = (name: string) => elements(page(name)).filter((element) => element.tagName === 'figure')
const caption = (figure: ReturnType<typeof figures>[number]) =>
  textOf(elements(figure).find((element) => element.tagName === 'figcaption')!)

describe('weave', () => {
  it('writes a page a document, the index, the style sheet and the search', () => {
    const written = ['index.html', 'org/alpha.html', 'org/beta.html', 'org/gamma.html']
    for (const file of [...written, 'weave.css', 'weave-search.js', 'weave-index.js'])
      expect(fs.existsSync(path.join(out, file)), file).toBe(true)
    expect(fs.readFileSync(path.join(out, 'org/alpha.html'), 'utf8')).toMatch(/^<!doctype html>/)
  })

  it('leaves no internal link leading nowhere: every href a file of the site, every anchor on its page', () => {
    expect(brokenLinks(out, report.pages)).toEqual([])
  })

  it('says where each block tangles, the lines tangle wrote', () => {
    const tangled = (file: string) => fs.readFileSync(path.join(project, file), 'utf8').split('\n')
    const [firstBeta, secondBeta] = figures('beta')
    expect(caption(firstBeta!)).toContain('generated/beta.ts:1')
    expect(caption(secondBeta!)).toContain('generated/beta.ts:3-4')
    expect(tangled('generated/beta.ts').slice(2, 4)).toEqual(['export const second = 2', 'export const third = 3'])
    const [alpha, body] = figures('alpha')
    expect(caption(alpha!)).toContain('tangles to generated/alpha.ts:1-4')
    expect(caption(body!)).toContain('through a reference into generated/alpha.ts:2-3')
    expect(tangled('generated/alpha.ts').slice(1, 3)).toEqual(['  const one = 1', '  return one'])
    expect(caption(figures('gamma')[0]!)).toContain('not tangled')
  })

  it('links a noweb reference to the block it names, and that block back to its user', () => {
    const [alpha, body] = figures('alpha')
    const reference = elements(alpha!).find(
      (element) => element.tagName === 'a' && textOf(element) === '<<alpha-body>>',
    )
    expect(reference?.properties.href).toBe(`#${body!.properties.id}`)
    const back = elements(body!).find((element) => String(element.properties.className).includes('used-in-link'))
    expect(back?.properties.href).toBe(`#${alpha!.properties.id}`)
  })

  it('leads an id link to the page and heading holding the ID, and a file link to its page', () => {
    const link = elements(page('alpha')).find(
      (element) => textOf(element) === "Beta's heading" && element.tagName === 'a',
    )
    expect(link?.properties.href).toBe('beta.html#beta-heading')
    expect(idsOf(page('beta')).has('beta-heading')).toBe(true)
    const file = elements(page('gamma')).find(
      (element) => textOf(element) === 'the first document' && element.tagName === 'a',
    )
    expect(file?.properties.href).toBe('alpha.html')
    const heading = elements(page('gamma')).find((element) => textOf(element) === 'a heading of the second')
    expect(heading?.properties.href).toBe('beta.html#beta-heading')
  })

  it('says an id no document holds as a warning at the link, and shows its text unlinked', () => {
    const said = report.diagnostics.map((message) => formatDiagnostic(message, project))
    expect(said).toContain(
      "org/alpha.org:6:60: warning: no woven document holds the ID 'nowhere': the page shows the link's text, unlinked [weave/unknown-id]",
    )
    expect(
      elements(page('alpha')).some((element) => element.tagName === 'a' && textOf(element) === 'a place no one holds'),
    ).toBe(false)
  })

  it('shows what #+INCLUDE: names: Org text as prose, a file as a block of its language, :lines as Org counts them', () => {
    const gamma = elements(page('gamma'))
    expect(gamma.some((element) => element.tagName === 'em' && textOf(element) === 'prose')).toBe(true)
    const included = gamma.find((element) => element.tagName === 'pre' && textOf(element).includes('const one'))
    expect(textOf(included!)).toBe('const one = 1\nconst two = 2')
    expect(elements(included!).some((element) => String(element.properties.className).startsWith('t-token-'))).toBe(
      true,
    )
    // A language no block of the documents uses is coloured too.
    const python = gamma.find((element) => element.tagName === 'pre' && textOf(element).startsWith('def main'))
    expect(elements(python!).some((element) => String(element.properties.className).startsWith('t-token-'))).toBe(true)
  })

  it('says an #+INCLUDE: of a file that cannot be read as a warning at its line', () => {
    const places = report.diagnostics.map(
      (message) => `${path.relative(project, String(message.file))}:${message.line} ${message.ruleId}`,
    )
    expect(places).toEqual(['org/alpha.org:6 weave/unknown-id', 'org/gamma.org:5 weave/include-unreadable'])
  })

  it('draws the #+DEPENDS_ON: graph on the index, each document a link to its page', () => {
    const svg = fs.readFileSync(path.join(out, 'index.html'), 'utf8')
    expect(svg).toContain('<svg')
    for (const name of ['alpha', 'beta', 'gamma']) expect(svg).toContain(`xlink:href="org/${name}.html"`)
    expect(svg).toMatch(/<title>org\/beta.org&#45;&gt;org\/alpha.org<\/title>/)
  })

  it('indexes headings, block names and declared identifiers for the search', () => {
    const script = fs.readFileSync(path.join(out, 'weave-index.js'), 'utf8')
    const entries = JSON.parse(script.slice(script.indexOf('=') + 1)) as string[][]
    expect(entries).toContainEqual(['alpha', 'identifier', 'org/alpha.html#code-1', 'Alpha'])
    expect(entries).toContainEqual(['alpha-body', 'block', 'org/alpha.html#code-alpha-body', 'Alpha'])
    expect(entries).toContainEqual(['A heading of Beta', 'heading', 'org/beta.html#beta-heading', 'Beta'])
  })

  it('writes only the files whose bytes change', async () => {
    const files = ['alpha', 'beta', 'gamma'].map((name) => path.join(project, 'org', `${name}.org`))
    const again = await weave({files, base: project, out})
    expect(again.written).toEqual([])
    fs.appendFileSync(files[2]!, '\nOne more line.\n')
    const after = await weave({files, base: project, out})
    expect(after.written).toEqual(['org/gamma.html'])
  })
})

describe('weave of a document that does not read', () => {
  it('says its error at the Org line, writes the other pages, and lists it unlinked', async () => {
    const broken = '#+TITLE: Broken\n#+begin_src typescript :tangle ../nowhere/x.ts\nexport {}\n#+end_src\n'
    const folder = tempProject({
      'org/fine.org': '#+TITLE: Fine\nSome /prose/.\n',
      'org/broken.org': broken,
    })
    const site = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-site-'))
    const files = ['broken', 'fine'].map((name) => path.join(folder, 'org', `${name}.org`))
    const result = await weave({files, base: folder, out: site})
    expect(
      result.diagnostics.map(
        (message) => `${path.relative(folder, String(message.file))}:${message.line} ${message.ruleId}`,
      ),
    ).toEqual(['org/broken.org:2 tangle/missing-directory'])
    expect(fs.existsSync(path.join(site, 'org/fine.html'))).toBe(true)
    expect(fs.existsSync(path.join(site, 'org/broken.html'))).toBe(false)
    expect(brokenLinks(site, result.pages)).toEqual([])
  })
})
