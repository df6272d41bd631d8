/**
 * The colours kept from one weave to the next (colours.ts): a second weave of unchanged documents colours
 * nothing and writes the same pages; an edited block alone is coloured again; a damaged file is a miss, never a
 * wrong colour; the folder keeps the colours of the pages on disk, no more. The project has a node_modules/, so its
 * state folder is its own.
 */
import fs from 'node:fs'
import path from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import {stateFolder} from '../../tools/tangle/cache.ts'
import {weave} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'

const DOCUMENT = `#+TITLE: Colours
#+begin_src typescript
export const one = 1
#+end_src

#+begin_src elisp
(defun two () 2)
#+end_src

#+begin_src text
not coloured
#+end_src
#+INCLUDE: "../parts/three.ts" src typescript
`

let project: string
let files: string[]
let out: string
let folder: string
/** The colours kept, by the name of their file. */
const kept = () =>
  Object.fromEntries(
    fs.readdirSync(folder).map((name) => [name, JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8'))]),
  ) as Record<string, string[][]>
const site = () => fs.readFileSync(path.join(out, 'org/colours.html'), 'utf8')

beforeEach(() => {
  project = tempProject({
    'node_modules/.keep': '',
    'org/colours.org': DOCUMENT,
    'parts/three.ts': 'export const three = 3\n',
  })
  files = [path.join(project, 'org', 'colours.org')]
  out = path.join(project, 'generated', 'site')
  folder = stateFolder(project, 'weave-colours')
})

describe('the colours kept', () => {
  it('colour nothing on a second weave of the same documents, and make the same pages', async () => {
    const first = await weave({files, base: project, out})
    expect(first.coloured).toBe(3)
    const page = site()
    expect(page).toContain('t-token-')
    const second = await weave({files, base: project, out})
    expect(second.coloured).toBe(0)
    expect(second.written).toEqual([])
    expect(site()).toBe(page)
  })

  it('colour an edited block alone, and keep only what the last weave used', async () => {
    await weave({files, base: project, out})
    fs.writeFileSync(files[0]!, DOCUMENT.replace('export const one = 1', 'export const uno = 1'))
    const edited = await weave({files, base: project, out})
    expect(edited.coloured).toBe(1)
    expect(site()).toContain('uno')
    expect(Object.keys(kept())).toHaveLength(3)
  })

  it.each([
    ['a file that is not JSON', () => damageFile('[["export const'), 1],
    ['a file that is empty', () => damageFile(''), 1],
    ['an entry whose text is not its block', () => damageEntry(() => ['export const two = 2', '']), 1],
    ['an entry whose class is not a token', () => damageEntry((line) => [textOf(line), '<script>']), 1],
    ['an entry that is not a list of lines', () => damageEntry(() => 'a line' as never), 1],
  ])('take %s as a miss, coloured again the same', async (_, damage, coloured) => {
    await weave({files, base: project, out})
    const page = site()
    damage()
    fs.rmSync(path.join(out, 'org/colours.html'))
    const again = await weave({files, base: project, out})
    expect(again.coloured).toBe(coloured)
    expect(site()).toBe(page)
  })
})

/** A kept line's text: its tokens' texts, without their classes. */
const textOf = (line: string[]) => line.filter((_, index) => index % 2 === 0).join('')

/** The name of the file of the colours of `export const one = 1`. */
const fileOfOne = () => Object.entries(kept()).find(([, lines]) => textOf(lines[0]!) === 'export const one = 1')![0]

/** Replace the first line of the colours of `export const one = 1` by what DAMAGED makes of it. */
function damageEntry(damaged: (line: string[]) => string[]): void {
  const name = fileOfOne()
  const lines = kept()[name]!
  lines[0] = damaged(lines[0]!)
  fs.writeFileSync(path.join(folder, name), JSON.stringify(lines))
}

/** Replace the file of the colours of `export const one = 1` by TEXT. */
function damageFile(text: string): void {
  fs.writeFileSync(path.join(folder, fileOfOne()), text)
}
