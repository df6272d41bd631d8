/**
 * The README's table of rules is what a user reads when a diagnostic names a
 * rule (its `url` points at the row): it must list exactly the rules the
 * toolchain and the core raise (`RULES` in tools/diagnostics.ts), each with
 * its severity, and each row must carry the anchor the `url` names.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {RULES, ruleUrl} from '../tools/diagnostics.ts'

const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8')

interface Row {
  /** The rule ids the row names, in `code`. */
  ids: string[]
  /** The anchors (`<a id="…">`) in its first cell. */
  anchors: string[]
  /** `error`, `warning`, or `error or warning`. */
  severity: string
}

/** The rows of the table headed `| rule | severity | meaning |`. */
function rulesTable(text: string): Row[] {
  const lines = text.split('\n')
  const header = lines.findIndex((line) => line === '| rule | severity | meaning |')
  expect(header, 'the README has a rules table').toBeGreaterThan(-1)
  const rows: Row[] = []
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break
    const cells = /^\| (.*?) \| (.*?) \| .* \|$/.exec(line)
    expect(cells, line).not.toBeNull()
    const [, rule, severity] = cells!
    rows.push({ids: [...rule!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), anchors: [...rule!.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!), severity: severity!})
  }
  return rows
}

describe("the README's rules table", () => {
  const rows = rulesTable(readme)

  it('lists exactly the rule ids of RULES, each once', () => {
    const listed = rows.flatMap((row) => row.ids)
    expect([...listed].sort()).toEqual(Object.keys(RULES).sort())
    expect(new Set(listed).size).toBe(listed.length)
  })

  it('gives each rule the severity RULES gives it (first, where a rule may be either)', () => {
    for (const row of rows) {
      for (const id of row.ids) expect(row.severity.split(' or ')[0], id).toBe(RULES[id as keyof typeof RULES]?.[0])
    }
  })

  it("has in each row the anchor of each of its rules, the one a diagnostic's url names", () => {
    for (const row of rows) expect(row.anchors, row.ids.join(', ')).toEqual(row.ids.map((id) => ruleUrl(id).slice('README.md#'.length)))
  })
})
