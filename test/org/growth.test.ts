/**
 * The reader and the planner are linear in their input: on each shape that
 * once made them quadratic (a run of blanks before a last character, which a
 * `[ \t]+$` regular expression backtracks over once per blank; a file whose
 * lines end with CR alone), four times the input must cost less than six
 * times the time. A ratio, not a timing: each size is timed five times, the
 * two in turn, and the fastest kept, so a busy machine slows both sizes alike.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {headlineLevel, headlineParts, isBlank} from '../../tools/org/syntax.ts'
import {planDocument} from '../../tools/tangle/tangle-document.ts'

const blanks = (n: number) => ' '.repeat(n)

const SHAPES: Record<string, (n: number) => string> = {
  'blanks in a headline': (n) => `* title${blanks(n)}x\n`,
  'blanks before tags': (n) => `* title${blanks(n)}:tag:x\n`,
  'blanks before real tags': (n) => `* title${blanks(n)}:tag:\n`,
  'blanks in a property value': (n) => `* h\n:PROPERTIES:\n:header-args: :exports code${blanks(n)}x\n:END:\n`,
  'blanks in #+NAME': (n) => `#+NAME: block${blanks(n)}x\n#+begin_src typescript\nx\n#+end_src\n`,
  'blanks in a keyword': (n) => `#+TITLE: t${blanks(n)}x\n`,
  'blanks in #+PROPERTY': (n) => `#+PROPERTY: header-args :exports code${blanks(n)}x\n`,
  'blanks in header arguments': (n) => `#+begin_src typescript :exports code${blanks(n)}x\nx\n#+end_src\n`,
  'CR-only line endings': (n) => '* h\r#+begin_src typescript :tangle no\rconst a = 1\r#+end_src\r'.repeat(n / 50),
}

/** The fastest of five plans of each text, SMALL's and LARGE's in turn: a busy moment of the machine falls on both. */
function fastest(small: string, large: string): [number, number] {
  const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] as [number, number]
  for (let run = 0; run < 5; run++) {
    ;[small, large].forEach((text, k) => {
      const started = performance.now()
      planDocument('/tmp/passepartout-growth/a.org', text, {boundary: {root: '/', allowed: []}})
      best[k] = Math.min(best[k]!, performance.now() - started)
    })
  }
  return best
}

describe('growth', () => {
  it.each(Object.entries(SHAPES))('%s: 4x the input costs under 6x the time', (_shape, make) => {
    const small = 250_000
    fastest(make(small / 10), make(small / 10))
    const [once, four] = fastest(make(small), make(4 * small))
    expect(four / Math.max(once, 1)).toBeLessThan(6)
  })
})

/**
 * The loops that replaced the regular expressions answer as they did: the old expressions, kept here as
 * the oracle, against the new code on many small headlines made of the characters that matter.
 */
const TAGS_AT_END = /[ \t]+(:[\p{L}\p{M}\p{Nl}\p{Nd}_@#%:]+:)[ \t]*$/u
const TAGS_ONLY = /^[ \t]*(:[\p{L}\p{M}\p{Nl}\p{Nd}_@#%:]+:)[ \t]*$/u
const TAG_LINE = /^\*+ (?:[^\n]*[ \t])?:([\p{L}\p{M}\p{Nl}\p{Nd}_@#%:]+):[ \t]*$/u

function oracle(line: string): {title: string | null; tags: string[]} {
  const level = headlineLevel(line)
  const rest = line.slice(level)
  const tagMatch = TAG_LINE.exec(line)
  const tags = tagMatch ? tagMatch[1]!.split(':').filter(Boolean) : []
  let title: string | null
  if ((isBlank(rest) || TAGS_ONLY.test(rest)) && (isBlank(rest) || /^[ \t]/.test(rest))) title = null
  else {
    const body = rest.slice(rest.length - rest.replace(/^ +/, '').length)
    const found = TAGS_AT_END.exec(body)
    title = found ? body.slice(0, found.index) : body.replace(/[ \t]+$/, '')
  }
  return {title, tags}
}

describe('headlines without regular expressions', () => {
  it('finds the same title and tags as the expressions did', () => {
    const piece = fc.constantFrom(' ', '\t', ':', 'a', 'é', '𝒜', '#', '@', 'x', '-', '*', '\u0301')
    fc.assert(
      fc.property(fc.integer({min: 1, max: 3}), fc.array(piece, {maxLength: 14}), (stars, chars) => {
        const line = `${'*'.repeat(stars)} ${chars.join('')}`
        const parts = headlineParts(line, [])
        expect({title: parts.title, tags: parts.tags}).toEqual(oracle(line))
      }),
      {numRuns: 20_000},
    )
  })
})
