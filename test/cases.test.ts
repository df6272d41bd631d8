/**
 * Our own conformance cases (test/cases): one folder per rule, expected files
 * produced by Emacs 28 with ../shared/conformance/regenerate.sh test/cases.
 */
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {expectation, listCases, runCase} from './support/cases.ts'

const dir = path.join(import.meta.dirname, 'cases')

describe('passepartout cases (expected files written by Emacs 28)', () => {
  it.each(listCases(dir))('%s', (name) => {
    const caseDir = path.join(dir, name)
    const expected = expectation(caseDir)
    const result = runCase(caseDir)
    if (expected.error) {
      expect(result.failed).toBe(true)
      expect([...result.written.keys()]).toEqual([])
      return
    }
    expect(result.report.diagnostics.filter((d) => d.fatal).map((d) => d.reason)).toEqual([])
    expect([...result.written.keys()].sort()).toEqual([...expected.files.keys()].sort())
    for (const [file, bytes] of expected.files) expect(result.written.get(file)?.toString('latin1'), file).toBe(bytes.toString('latin1'))
  })
})
