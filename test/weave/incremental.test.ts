/**
 * A weave after one document is saved (weave-record.ts): it reads that document alone, writes its page, the
 * search's entries when they changed, and the pages whose links looked up what changed, no other file; a document
 * whose heading another's link names makes both pages again. Three documents on disk, a real project folder with
 * node_modules/ (its own state folder), a build named as the launcher names it.
 */
import fs from 'node:fs'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {stateFile} from '../../tools/tangle/cache.ts'
import {weave, type WeaveOptions} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'

const ALPHA = `#+TITLE: Alpha
* Intent
Alpha leans on [[file:beta.org::*A heading of Beta][Beta's heading]].
#+begin_src typescript
export const alpha = 1
#+end_src
`
const BETA = `#+TITLE: Beta
* A heading of Beta
:PROPERTIES:
:ID: beta-heading
:END:
Some prose.
`
const GAMMA = `#+TITLE: Gamma
See [[id:beta-heading][the heading]].
`

let project: string
let options: WeaveOptions
const page = (name: string) => path.join(options.out, `org/${name}.html`)
const site = ['index.html', 'org/alpha.html', 'org/beta.html', 'org/gamma.html', 'weave-index.js']

/** The mtime of each file of the site, by its path under the site. */
const mtimes = () => Object.fromEntries(site.map((file) => [file, fs.statSync(path.join(options.out, file)).mtimeMs]))
/** The files of the site whose mtime moved since BEFORE. */
const moved = (before: Record<string, number>) => site.filter((file) => mtimes()[file] !== before[file])

/** Save FILE with TEXT, its mtime surely another than the last (a file system's clock may count whole seconds). */
function save(file: string, text: string): void {
  const before = fs.statSync(file).mtimeMs
  fs.writeFileSync(file, text)
  fs.utimesSync(file, new Date(), new Date(before + 2000))
}

beforeAll(async () => {
  project = tempProject({
    'node_modules/.keep': '',
    'org/alpha.org': ALPHA,
    'org/beta.org': BETA,
    'org/gamma.org': GAMMA,
  })
  const files = ['alpha', 'beta', 'gamma'].map((name) => path.join(project, 'org', `${name}.org`))
  options = {files, base: project, out: path.join(project, 'generated', 'site'), build: 'test-build'}
  await weave(options)
})

describe('a weave after a save', () => {
  it('reads nothing when nothing changed, and writes nothing', async () => {
    const before = mtimes()
    const again = await weave(options)
    expect(again.read).toEqual([])
    expect(again.written).toEqual([])
    expect(again.unchanged).toHaveLength(7)
    expect(moved(before)).toEqual([])
  })

  it('reads the document saved alone, and writes its page alone when no entry of the map changed', async () => {
    const before = mtimes()
    save(options.files[1]!, BETA.replace('Some prose.', 'Other prose.'))
    const after = await weave(options)
    expect(after.read).toEqual([options.files[1]])
    expect(after.written).toEqual(['org/beta.html'])
    expect(moved(before)).toEqual(['org/beta.html'])
    expect(fs.readFileSync(page('beta'), 'utf8')).toContain('Other prose.')
  })

  it('makes again the page whose link names a heading renamed, and the search, not the page whose ID link did not move', async () => {
    const before = mtimes()
    save(options.files[1]!, BETA.replace('A heading of Beta', 'A heading renamed'))
    const after = await weave(options)
    expect(after.read).toEqual([options.files[0], options.files[1]])
    // Alpha's block kept its colours through the weave that read Beta alone.
    expect(after.coloured).toBe(0)
    expect(after.written.sort()).toEqual(['org/alpha.html', 'org/beta.html', 'weave-index.js'])
    expect(moved(before)).toEqual(['org/alpha.html', 'org/beta.html', 'weave-index.js'])
    // Alpha's link now names no heading: it leads to Beta's page.
    expect(fs.readFileSync(page('alpha'), 'utf8')).toContain('href="beta.html"')
  })

  it('makes the page again when the page on disk is not the one written', async () => {
    fs.writeFileSync(page('gamma'), 'edited')
    const after = await weave(options)
    expect(after.read).toEqual([options.files[2]])
    expect(fs.readFileSync(page('gamma'), 'utf8')).toContain('beta.html#beta-heading')
  })

  it('says the warnings of a document it did not read, as the weave that read it did', async () => {
    save(options.files[2]!, `${GAMMA}And [[id:nowhere][nowhere]].\n`)
    const first = await weave(options)
    const second = await weave(options)
    expect(second.read).toEqual([])
    const said = (report: typeof first) => report.diagnostics.map((message) => `${message.line} ${message.ruleId}`)
    expect(said(second)).toEqual(said(first))
    expect(said(second)).toEqual(['3 weave/unknown-id'])
  })

  it.each([
    ['not JSON', '{"format": 1, "documents": {'],
    ['of another format', '{"format": 0, "documents": {}}'],
    ['of another build', null],
  ])('reads every document when the record is %s', async (_, text) => {
    await weave(options)
    if (text !== null) fs.writeFileSync(stateFile(project, 'weave'), text)
    const after = await weave(text === null ? {...options, build: 'another-build'} : options)
    expect(after.read).toEqual(options.files)
    expect(after.written).toEqual([])
  })
})
