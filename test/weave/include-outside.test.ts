/**
 * `#+INCLUDE:` is held to the boundary tangle holds targets to: the project, and the folders allowOutside names.
 * A file outside it (a key under ~/.ssh, /etc/passwd) is not woven into a page a site would publish: a warning
 * at the #+INCLUDE line [weave/include-outside], and nothing in its place. A link in the project that leads out
 * is outside. One row a place, on real files.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {weave} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'

const SECRET = 'the-secret-text'

const ROWS: {name: string; include: (outside: string) => string; allow: boolean; shown: boolean}[] = [
  {name: 'a file of the project', include: () => '../notes.txt', allow: false, shown: true},
  {name: 'a file outside the project', include: (outside) => path.join(outside, 'key'), allow: false, shown: false},
  {name: 'a link in the project leading out', include: () => '../leak.txt', allow: false, shown: false},
  {
    name: 'a file of a folder allowed outside',
    include: (outside) => path.join(outside, 'key'),
    allow: true,
    shown: true,
  },
]

describe('#+INCLUDE: outside the project', () => {
  it.each(ROWS)('$name', async ({include, allow, shown}) => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-include-outside-'))
    fs.writeFileSync(path.join(outside, 'key'), `${SECRET}\n`)
    const text = `#+TITLE: Doc\nBefore.\n#+INCLUDE: "${include(outside)}" example\nAfter.\n`
    const project = tempProject({'org/doc.org': text, 'notes.txt': `${SECRET}\n`}, 'passepartout-weave-include-')
    fs.symlinkSync(path.join(outside, 'key'), path.join(project, 'leak.txt'))
    const files = [path.join(project, 'org/doc.org')]
    const report = await weave({
      files,
      base: project,
      out: path.join(project, 'site'),
      allowOutside: allow ? [outside] : [],
    })
    const page = fs.readFileSync(path.join(project, 'site', 'org', 'doc.html'), 'utf8')
    expect(page.includes(SECRET)).toBe(shown)
    expect(page).toContain('After.')
    const warnings = report.diagnostics.filter((diagnostic) => diagnostic.ruleId === 'weave/include-outside')
    expect(warnings.map((warning) => [warning.line, warning.fatal])).toEqual(shown ? [] : [[3, false]])
  })
})
