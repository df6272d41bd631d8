/**
 * Our own conformance cases (test/cases): one folder per rule, expected files
 * produced by Emacs 28 with ../shared/conformance/regenerate.sh test/cases.
 */
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {expectation, expectCaseToMatchEmacs, listCases} from './support/cases.ts'

const dir = path.join(import.meta.dirname, 'cases')

describe('passepartout cases (expected files written by Emacs 28)', () => {
  it.each(listCases(dir))('%s', (name) => expectCaseToMatchEmacs(path.join(dir, name)))
})

describe('our error cases', () => {
  it.each(listCases(dir).filter((name) => expectation(path.join(dir, name)).error))('%s names the rule it expects in case.md', (name) => {
    expect(expectation(path.join(dir, name)).rule).toMatch(/^[a-z]+\/[a-z-]+$/)
  })
})
