/**
 * The Emacs conformance corpus (../shared/conformance): every case tangled
 * in-process and compared byte for byte, and the corpus's own check.sh run
 * against the command line, as the acceptance criterion states it.
 */
import {execFileSync} from 'node:child_process'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {expectCaseToMatchEmacs, listCases, runCase} from './support/cases.ts'

const repo = path.resolve(import.meta.dirname, '..')
const corpus = process.env.PASSEPARTOUT_CONFORMANCE ?? path.resolve(repo, '../shared/conformance')
const cases = listCases(path.join(corpus, 'cases'))
const available = cases.length > 0

describe.skipIf(!available)(`conformance corpus (${available ? corpus : 'not found: skipped'})`, () => {
  it.each(cases)('%s', (name) => expectCaseToMatchEmacs(path.join(corpus, 'cases', name)))

  it('check.sh reports every case passed for the command line', () => {
    const output = execFileSync('bash', [path.join(corpus, 'check.sh'), `${path.join(repo, 'bin/passepartout')} tangle`], {encoding: 'utf8'})
    expect(output).toMatch(new RegExp(`^${cases.length} passed, 0 failed$`, 'm'))
  }, 300_000)

  it('refuses the out-of-scope cases with a clear error and writes nothing', async () => {
    const outOfScope = listCases(path.join(corpus, 'out-of-scope'))
    expect(outOfScope.length).toBeGreaterThan(0)
    for (const name of outOfScope) {
      const result = await runCase(path.join(corpus, 'out-of-scope', name))
      expect(result.failed, name).toBe(true)
      expect([...result.written.keys()], name).toEqual([])
      expect(result.report.diagnostics.some((d) => d.ruleId === 'tangle/needs-evaluation')).toBe(true)
    }
  })
})

if (!available) {
  describe('conformance corpus', () => {
    // On a developer's machine the corpus may be elsewhere; CI runs beside ../shared, so there its absence is a failure.
    if (process.env.CI) {
      it('is there', () => {
        expect.fail(`no conformance cases at ${corpus}: CI must run with ../shared beside the clone (or PASSEPARTOUT_CONFORMANCE set)`)
      })
    } else it.skip(`skipped: no cases at ${corpus}`, () => {})
  })
}

