/**
 * Two documents whose pages would be the same file, or a document whose page would be a file of the site itself
 * (`index.org` at the root: the site's index is index.html), never overwrite each other: the first keeps the page,
 * the second is refused at its line 1 and gets none. Names are compared without case, as a site copied to a
 * case-insensitive disk (macOS, Windows) holds one file of `A.html` and `a.html`.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {weave} from '../../tools/weave/weave.ts'
import {tempProject} from '../support/temp-project.ts'

const cases: {name: string; files: string[]; refused: string[]}[] = [
  {name: 'two documents of distinct pages', files: ['org/a.org', 'org/b.org'], refused: []},
  {name: 'a document named as the site index', files: ['index.org', 'org/a.org'], refused: ['index.org']},
  {name: 'names that differ in case', files: ['org/a.org', 'org/A.org'], refused: ['org/A.org']},
  {name: 'an extension that differs in case', files: ['org/a.org', 'org/a.ORG'], refused: ['org/a.ORG']},
  {name: 'a document named as a file of the site', files: ['weave-index.js.org'], refused: []},
]

describe('weave of documents whose pages would be one file', () => {
  it.each(cases)('$name', async ({files, refused}) => {
    const project = tempProject(
      Object.fromEntries(files.map((file) => [file, `#+TITLE: ${file}\n* In ${file}\n`])),
      'passepartout-weave-names-',
    )
    const out = path.join(project, 'site')
    const report = await weave({
      files: files.map((file) => path.join(project, file)),
      base: project,
      out,
    })
    const errors = report.diagnostics.filter((diagnostic) => diagnostic.ruleId === 'weave/page-conflict')
    expect(errors.map((error) => [path.relative(project, error.file ?? ''), error.line, error.fatal])).toEqual(
      refused.map((file) => [file, 1, true]),
    )
    expect(report.woven.map((document) => path.relative(project, document.path))).toEqual(
      files.filter((file) => !refused.includes(file)),
    )
    for (const document of report.woven)
      expect(fs.readFileSync(path.join(out, document.page), 'utf8')).toContain(
        `In ${path.relative(project, document.path)}`,
      )
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('weave-search.js')
  })
})
