/**
 * The detangle corpus (test/detangle/cases/<name>/): each case an Org document (`input.org`), what it is about in
 * one line (`case.md`), generated files as someone edited them after the tangle (`edited/`), and either the Org
 * document detangle makes of them (`expected.org`) or the refusal it gives (`expected-refusal`: the line printed, of
 * which the place and the rule id are held, not the wording). A case with `changed.org` edits the document too,
 * after the tangle. Each case runs in a project of its own: tangled for real (so the record of what was written is
 * real), edited, detangled.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import type {Diagnostic} from '../../tools/diagnostics.ts'
import {ProjectSession} from '../../tools/session/project-session.ts'
import {tempProject} from '../support/temp-project.ts'

const casesFolder = path.join(import.meta.dirname, 'cases')
const cases = fs.readdirSync(casesFolder).sort()

describe('the detangle corpus', () => {
  it.each(cases)('%s', async (name) => {
    const folder = path.join(casesFolder, name)
    const work = tempProject({})
    const document = path.join(work, 'input.org')
    fs.copyFileSync(path.join(folder, 'input.org'), document)
    const session = new ProjectSession({project: work, cache: false})
    const tangled = await session.tangle([document])
    expect(tangled.diagnostics.map(String)).toEqual([])
    const edited = filesUnder(path.join(folder, 'edited'))
    for (const file of edited) fs.copyFileSync(path.join(folder, 'edited', file), path.join(work, file))
    const changed = path.join(folder, 'changed.org')
    if (fs.existsSync(changed)) fs.copyFileSync(changed, document)
    const before = fs.readFileSync(document)
    const report = await session.detangle(
      edited.map((file) => path.join(work, file)),
      (file) => path.relative(work, file),
    )
    const expectedOrg = path.join(folder, 'expected.org')
    if (fs.existsSync(expectedOrg)) {
      expect(report.refusals.map(String)).toEqual([])
      expect(fs.readFileSync(document, 'latin1')).toBe(fs.readFileSync(expectedOrg, 'latin1'))
      // The record follows: a tangle now replaces no edit and writes nothing.
      const again = await session.tangle([document])
      expect(again.diagnostics.map((message) => message.ruleId)).toEqual([])
      expect(again.outcomes.map((outcome) => outcome.status)).toEqual(again.outcomes.map(() => 'unchanged'))
    } else {
      const expected = fs.readFileSync(path.join(folder, 'expected-refusal'), 'utf8')
      expect(report.refusals.map((refusal) => placeAndRule(refusal, work))).toContain(placeAndRuleOf(expected))
      expect(report.changes).toEqual([])
      expect(fs.readFileSync(document)).toEqual(before)
    }
  })
})

/** The files under FOLDER, relative to it. */
function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
}

function placeAndRule(refusal: Diagnostic, work: string): string {
  return `${path.relative(work, refusal.file ?? '')}:${refusal.line}:${refusal.column} [${refusal.ruleId}]`
}

/** `input.org:14:1: error: … [detangle/shared-noweb]` as `input.org:14:1 [detangle/shared-noweb]`. */
function placeAndRuleOf(line: string): string {
  const place = /^([^:]+:\d+:\d+):/.exec(line)?.[1]
  const rule = /\[(detangle\/[a-z-]+)\]\s*$/.exec(line)?.[1]
  return `${place} [${rule}]`
}
