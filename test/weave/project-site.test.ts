/**
 * This project's own documents woven (every .org file under org/, as `passepartout weave` does by default), into a
 * folder of the test's: every internal link of every page leads to a file of the site and an anchor on its page,
 * and every document has its page.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {isError} from '../../tools/diagnostics.ts'
import {listOrgFiles} from '../../tools/project.ts'
import {weave, type WeaveReport} from '../../tools/weave/weave.ts'
import {brokenLinks} from './site-links.ts'

const repo = path.resolve(import.meta.dirname, '../..')
let out: string
let report: WeaveReport

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-site-'))
  report = await weave({files: listOrgFiles(path.join(repo, 'org')), base: repo, out})
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
