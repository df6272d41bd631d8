/**
 * The documents of the detangle corpus, tangled by Emacs 28 itself (runs when `emacs` is installed): each
 * `expected.org` gives exactly the edited files. The corpus's own test holds detangle to `expected.org`; this one
 * holds `expected.org` to Emacs, so that what detangle writes is what Emacs tangles back, not only our tangler.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {emacsAvailable, tangleWithEmacs, writeDocuments} from '../differential/harness.ts'

const casesFolder = path.join(import.meta.dirname, 'cases')
const going = fs.readdirSync(casesFolder).filter((name) => fs.existsSync(path.join(casesFolder, name, 'expected.org')))

describe.skipIf(!emacsAvailable())('the documents detangle makes, tangled by Emacs', () => {
  it('give the edited files, byte for byte', () => {
    const documents = new Map(
      going.map((name) => [name, fs.readFileSync(path.join(casesFolder, name, 'expected.org'), 'utf8')]),
    )
    const dirs = writeDocuments(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-detangle-emacs-')), documents)
    const failed = tangleWithEmacs(dirs)
    const differences: string[] = []
    going.forEach((name, k) => {
      if (failed.get(dirs[k]!) !== undefined) differences.push(`${name}: Emacs failed (${failed.get(dirs[k]!)})`)
      const edited = path.join(casesFolder, name, 'edited')
      for (const file of fs.readdirSync(edited, {recursive: true, encoding: 'utf8'})) {
        const tangled = path.join(dirs[k]!, file)
        if (!fs.existsSync(tangled) || !fs.readFileSync(tangled).equals(fs.readFileSync(path.join(edited, file))))
          differences.push(`${name}: ${file}`)
      }
    })
    expect(differences).toEqual([])
  }, 120_000)
})
