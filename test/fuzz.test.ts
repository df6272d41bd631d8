/**
 * Property-based tests: whatever the input (random text, random bytes,
 * Org-like fragments, mutated documents), the reader and the tangler never
 * throw, report problems only as diagnostics, and give the same result twice.
 * Plus inputs sized to break recursive or quadratic code.
 */
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {readOrg} from '../tools/org/parse.ts'
import {planDocument} from '../tools/tangle/tangle-document.ts'
import {generateDocument, mutateDocument} from './differential/generate.ts'

const orgFile = path.join(os.tmpdir(), 'passepartout-fuzz', 'doc.org')
const plan = (input: string | Uint8Array) => planDocument(orgFile, input, {boundary: {root: path.dirname(orgFile), allowed: []}})

/** Fragments of Org syntax, so that random documents hit the interesting paths. */
const fragment = fc.constantFrom(
  '* ', '** TODO ', '*** COMMENT ', ':ARCHIVE:', ' :a:b:', '\n', '\r\n', '\r', '\t', ' ', ',', '<<', '>>', '(', ')', '"', '\\',
  '#+begin_src typescript ', '#+BEGIN_SRC sh ', '#+end_src', '#+END_SRC', '#+begin_example', '#+end_example', '#+NAME: a',
  '#+HEADER: ', ':tangle a.ts ', ':tangle yes ', ':noweb yes ', ':noweb-ref a ', ':comments org ', ':comments link ',
  ':comments noweb ', ':padline no ', ':var x=1 ', ':prologue "p" ', '-r ', '-i ', '(ref:x)', ':PROPERTIES:', ':END:',
  ':header-args: ', ':header-args:typescript+: ', ':CUSTOM_ID: a', '#+PROPERTY: header-args ', '<<a>>', '<<a()>>', 'x',
  '\u0000', 'é', '😀', '- ', '| a |', ':LOGBOOK:',
)
const orgLike = fc.array(fragment, {maxLength: 200}).map((parts) => parts.join(''))

describe('the reader and the tangler never throw', () => {
  it('on random text', () => {
    fc.assert(fc.property(fc.string({unit: 'binary', maxLength: 400}), (text) => {
      readOrg(text)
      plan(text)
    }), {numRuns: 300})
  })

  it('on random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({maxLength: 400}), (bytes) => {
      readOrg(bytes)
      plan(bytes)
    }), {numRuns: 300})
  })

  it('on Org-like fragments, and the result is deterministic', () => {
    fc.assert(fc.property(orgLike, (text) => {
      const first = plan(text)
      const second = plan(text)
      expect(second.targets.map((t) => [t.path, t.content, t.mode])).toEqual(first.targets.map((t) => [t.path, t.content, t.mode]))
      expect(second.diagnostics.map(String)).toEqual(first.diagnostics.map(String))
      for (const message of first.diagnostics) expect(message.ruleId).toMatch(/^[a-z]+\/[a-z-]+$/)
    }), {numRuns: 400})
  })

  it('on generated and mutated documents', () => {
    fc.assert(fc.property(fc.integer({min: 1, max: 1_000_000}), fc.boolean(), (seed, mutate) => {
      const text = mutate ? mutateDocument(seed) : generateDocument(seed)
      const result = plan(text)
      if (result.failed) expect(result.targets).toEqual([])
    }), {numRuns: 300})
  })
})

describe('inputs that break recursive or quadratic code', () => {
  it('reads 10 MB of ever deeper headlines without overflowing the stack', () => {
    const text = Array.from({length: 4000}, (_, k) => `${'*'.repeat(k + 1)} h`)
      .join('\n')
      .padEnd(10 * 1024 * 1024, '\nline')
    const {root} = readOrg(text)
    expect(root.children.filter((node) => node.type === 'headline')).toHaveLength(4000)
    expect(plan(text).failed).toBe(false)
  })

  it('tangles many unterminated blocks and long lines (a quadratic scan would not finish)', () => {
    const text = `#+begin_src sh :noweb yes :tangle a.sh\n${'<<'.repeat(100_000)}\nx${'>> <<a'.repeat(20_000)}\n#+end_src\n${'#+begin_src sh :tangle a.sh\n'.repeat(50_000)}`
    const result = plan(text)
    expect(result.diagnostics.some((d) => d.ruleId === 'org/unterminated-block')).toBe(true)
  })
})
