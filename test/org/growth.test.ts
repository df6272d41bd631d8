/**
 * The reader and the planner are linear in their input: on each shape that
 * once made them quadratic (a run of blanks before a last character, which a
 * `[ \t]+$` regular expression backtracks over once per blank; a file whose
 * lines end with CR alone), a character costs no more in a large input than
 * in a small one.
 *
 * A ratio, not a timing, and one that a loaded machine does not blur: each
 * shape is read at a size and at 16 times that size, and what one character
 * cost at each is compared. Linear code costs about as much per character at
 * both (less at the large size, where the fixed costs are spread thinner);
 * quadratic code costs 16 times as much at the large one. The limit, 4, lies
 * halfway between (as ratios go): a busy moment would have to slow the large
 * size 4 times more than the small one to fail linear code. The cost is CPU
 * time, which a process waiting for a core is not charged; each size is
 * measured five times, the two in turn, each time over enough readings to
 * take 10 ms, and the cheapest kept. The sizes are small enough that quadratic
 * code fails in seconds, not minutes (128 K blanks took 42 s to trim with the
 * old expression).
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {decodeOrg} from '../../tools/org/decode.ts'
import {headlineLevel, headlineParts, isBlank} from '../../tools/org/syntax.ts'
import {planDocument} from '../../tools/tangle/tangle-document.ts'

const blanks = (n: number) => ' '.repeat(n)

const boundary = {root: '/', allowed: []}
const plan = (text: string) => void planDocument('/tmp/passepartout-growth/a.org', text, {boundary})

/** What makes a text of the shape at a size, its small size, and what reads it (the planner unless said). */
type Shape = [make: (n: number) => string, small: number, read?: (text: string) => void]

const CR_ONLY = '* h\r#+begin_src typescript :tangle no\rx\r#+end_src\r'

/**
 * A run of blanks is small: the expression's backtracking costs much a step (16 K blanks, the large size,
 * took it 0.65 s). A search for LF from each CR costs little a step (the engine's own scan) and shows only on
 * larger files, which the planner as a whole reads a little worse than linearly (a character cost it twice as
 * much at 1.3 MB as at 80 KB, here): the decoder that finds the line endings is measured alone.
 */
const SHAPES: Record<string, Shape> = {
  'blanks in a headline': [(n) => `* title${blanks(n)}x\n`, 1000],
  'blanks before tags': [(n) => `* title${blanks(n)}:tag:x\n`, 1000],
  'blanks before real tags': [(n) => `* title${blanks(n)}:tag:\n`, 1000],
  'blanks in a property value': [(n) => `* h\n:PROPERTIES:\n:header-args: :exports code${blanks(n)}x\n:END:\n`, 1000],
  'blanks in #+NAME': [(n) => `#+NAME: block${blanks(n)}x\n#+begin_src typescript\nx\n#+end_src\n`, 1000],
  'blanks in a keyword': [(n) => `#+TITLE: t${blanks(n)}x\n`, 1000],
  'blanks in #+PROPERTY': [(n) => `#+PROPERTY: header-args :exports code${blanks(n)}x\n`, 1000],
  'blanks in header arguments': [(n) => `#+begin_src typescript :exports code${blanks(n)}x\nx\n#+end_src\n`, 1000],
  'CR-only line endings': [(n) => CR_ONLY.repeat(n / CR_ONLY.length), 20_000, decodeOrg],
}

const GROWTH = 16
const LIMIT = 4

/** The CPU time (microseconds) of READ reading TEXT, REPEAT times. */
function cpuTime(read: (text: string) => void, text: string, repeat: number): number {
  const before = process.cpuUsage()
  for (let n = 0; n < repeat; n++) read(text)
  const used = process.cpuUsage(before)
  return used.user + used.system
}

/** The cheapest CPU time a character of each text over five measures, SMALL's and LARGE's in turn. */
function perCharacter(read: (text: string) => void, small: string, large: string): [number, number] {
  // Each measure reads its text as many times as take 10 ms (once when once takes longer).
  const repeats = [small, large].map((text) => Math.max(1, Math.ceil(10_000 / Math.max(cpuTime(read, text, 1), 1))))
  const best = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
  for (let measure = 0; measure < 5; measure++) {
    ;[small, large].forEach((text, k) => {
      best[k] = Math.min(best[k]!, cpuTime(read, text, repeats[k]!) / (repeats[k]! * text.length))
    })
  }
  return best as [number, number]
}

describe('growth', () => {
  const title = `%s: a character costs under ${LIMIT}x as much in ${GROWTH}x the input`
  it.each(Object.entries(SHAPES))(title, (_, [make, size, read = plan]) => {
    const [small, large] = perCharacter(read, make(size), make(GROWTH * size))
    expect(large / small).toBeLessThan(LIMIT)
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
