/**
 * Differential test against Emacs (runs when `emacs` is installed): random
 * documents, and mutated ones, tangled by Emacs 28 and by passepartout must
 * give the same files, modes and failures.
 */
import {describe, expect, it} from 'vitest'
import {generateDocument, mutateDocument} from './differential/generate.ts'
import {compare, emacsAvailable} from './differential/harness.ts'

const available = emacsAvailable()

describe.skipIf(!available)('tangling agrees with Emacs 28 on random documents', () => {
  it.each([
    ['generated', generateDocument],
    ['mutated', mutateDocument],
  ] as const)('%s documents', async (_kind, make) => {
    const documents = new Map<string, string>()
    for (let seed = 1; seed <= 300; seed++) documents.set(`seed-${seed}`, make(seed))
    const result = await compare(documents)
    expect(result.differences.map((d) => `${d.name}: ${d.reason}`)).toEqual([])
    expect(result.emacsErrors).toBeGreaterThan(0)
  }, 300_000)
})

if (!available) {
  describe('tangling agrees with Emacs 28 on random documents', () => {
    it.skip('skipped: emacs is not installed', () => {})
  })
}
