/**
 * Random Org documents that exercise tangling: headlines (TODO, COMMENT,
 * ARCHIVE, tags), property drawers and #+PROPERTY lines with header-args,
 * blocks with random header arguments, names, #+HEADER lines, noweb
 * references, comma escapes, indentation with tabs, lists and other blocks.
 * Deterministic for a seed, so a failing document can be regenerated.
 */

/** A small, fast, seedable PRNG (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

class Dice {
  constructor(readonly next: () => number) {}
  int(max: number): number {
    return Math.floor(this.next() * max)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
}

const LANGUAGES = ['typescript', 'typescript', 'typescript', 'sh', 'python', 'emacs-lisp', 'js', 'ts', 'css', 'elisp'] as const
const TARGETS = ['a.ts', 'b.ts', 'yes', 'no', './a.ts', 'out/c.ts', 'out/d.sh', 'e.txt', '"quoted name.ts"', 'out/sub/../f.ts'] as const
const NAMES = ['alpha', 'beta', 'gamma', 'Delta', 'steps', 'imports'] as const
const WORDS = [
  'Intent',
  'Contract',
  'Registry',
  'Gate',
  'Loader',
  'notes',
  'Parse [1/2] input',
  'Act  now',
  'TODO later',
  'COMMENT',
  'Archive',
  'Done [50%]',
  'Use [x] brackets',
  'Path a/../b',
  'Back\\slash',
  'naïve ✓ 検査',
  'emoji 😀 title',
  'tabs\tinside',
  'comment lower',
  '<<alpha>>',
] as const

export function generateDocument(seed: number): string {
  const dice = new Dice(random(seed))
  const text = documentLines(dice).join('\n')
  const ending = dice.chance(0.9) ? `${text}\n` : text
  return dice.chance(0.05) ? ending.replaceAll('\n', '\r\n') : ending
}

/** A generated document with some of its lines deleted, duplicated, swapped or cut. */
export function mutateDocument(seed: number): string {
  const dice = new Dice(random(seed ^ 0x5bd1e995))
  const lines = generateDocument(seed).split('\n')
  for (let k = 1 + dice.int(4); k > 0; k--) {
    if (lines.length === 0) break
    const at = dice.int(lines.length)
    const roll = dice.int(4)
    if (roll === 0) lines.splice(at, 1)
    else if (roll === 1) lines.splice(at, 0, lines[dice.int(lines.length)]!)
    else if (roll === 2) lines.splice(at, 1, lines[at]!.slice(0, dice.int(lines[at]!.length + 1)))
    else {
      const other = dice.int(lines.length)
      ;[lines[at], lines[other]] = [lines[other]!, lines[at]!]
    }
  }
  return lines.join('\n')
}

function documentLines(dice: Dice): string[] {
  const out: string[] = []
  if (dice.chance(0.5)) out.push(`#+TITLE: Document ${dice.int(1000)}`)
  if (dice.chance(0.2)) out.push(':PROPERTIES:', `:header-args: ${headerArgs(dice, 2)}`, ':END:')
  for (let k = dice.int(3); k > 0; k--) out.push(`#+PROPERTY: ${dice.pick(['header-args', 'header-args+', 'header-args:typescript', 'header-args:typescript+', 'header-args:sh'])} ${headerArgs(dice, 2)}`)
  if (dice.chance(0.1)) out.push('#+TODO: TODO WAIT | DONE')
  if (dice.chance(0.3)) out.push('Preamble text.', ...block(dice))
  const sections = 1 + dice.int(5)
  for (let s = 0; s < sections; s++) {
    out.push(heading(dice))
    if (dice.chance(0.1)) out.push('SCHEDULED: <2026-11-21 Sat>')
    if (dice.chance(0.35)) {
      out.push(':PROPERTIES:')
      for (let k = 1 + dice.int(2); k > 0; k--) {
        out.push(`:${dice.pick(['header-args', 'header-args+', 'header-args:typescript', 'header-args:typescript+', 'header-args:sh', 'CUSTOM_ID', 'ID'])}: ${dice.chance(0.7) ? headerArgs(dice, 2) : dice.pick([...NAMES, 'cid'])}`)
      }
      out.push(':END:')
    }
    for (let k = dice.int(4); k > 0; k--) out.push(...element(dice))
  }
  return out
}

function heading(dice: Dice): string {
  const stars = '*'.repeat(1 + dice.int(3))
  const todo = dice.chance(0.2) ? `${dice.pick(['TODO', 'DONE', 'WAIT'])} ` : ''
  const comment = dice.chance(0.12) ? 'COMMENT ' : ''
  const priority = dice.chance(0.1) ? '[#A] ' : ''
  const title = dice.chance(0.05) ? '' : dice.pick(WORDS)
  const tags = dice.chance(0.15) ? `   :${dice.pick(['ARCHIVE', 'x', 'noexport', 'a:b'])}:` : ''
  return `${stars} ${todo}${priority}${comment}${title}${tags}`
}

function element(dice: Dice): string[] {
  const roll = dice.next()
  if (roll < 0.55) return block(dice)
  if (roll < 0.6) return ['Some prose, with a <<target>> maybe.', '']
  if (roll < 0.65) return [dice.pick(['  Indented prose.', '\tTabbed prose.', 'see <<alpha>>', '   ', '#+DEPENDS_ON: core']), ...block(dice)]
  if (roll < 0.72) return ['- item one', ...block(dice).map((line) => `  ${line}`), '- item two']
  if (roll < 0.78) return ['#+begin_example', ...block(dice), '#+end_example']
  if (roll < 0.83) return [':LOGBOOK:', ...block(dice), ':END:']
  if (roll < 0.87) return ['#+begin_quote', ...block(dice), '#+end_quote']
  if (roll < 0.9) return [`#+begin_src ${dice.pick(LANGUAGES)} :tangle a.ts`, 'unterminated']
  if (roll < 0.94) return ['#+NAME: orphan', '', ...block(dice)]
  return ['', '']
}

function block(dice: Dice): string[] {
  const out: string[] = []
  if (dice.chance(0.3)) out.push(`#+${dice.pick(['NAME', 'name', 'NAME', 'SRCNAME'])}: ${dice.pick(NAMES)}`)
  for (let k = dice.chance(0.2) ? 1 + dice.int(2) : 0; k > 0; k--) out.push(`#+${dice.pick(['HEADER', 'HEADERS'])}: ${headerArgs(dice, 2)}`)
  const language = dice.chance(0.03) ? '' : dice.pick(LANGUAGES)
  const keyword = dice.pick(['#+begin_src', '#+begin_src', '#+BEGIN_SRC'])
  const args = headerArgs(dice, 4)
  const switches = dice.pick(['', '', '', '', ' -r', ' -i', ' -n', ' -r -l "[%s]"'])
  out.push(`${keyword}${language ? ` ${language}` : ''}${switches}${args ? ` ${args}` : ''}`)
  const indent = dice.pick(['', '', '  ', '\t', '    '])
  for (let k = dice.int(6); k > 0; k--) out.push(bodyLine(dice, indent))
  out.push(keyword === '#+BEGIN_SRC' ? '#+END_SRC' : '#+end_src')
  return out
}

function bodyLine(dice: Dice, indent: string): string {
  const roll = dice.next()
  if (roll < 0.1) return ''
  if (roll < 0.14) return dice.pick(['   ', '\t'])
  if (roll < 0.2) return `${indent}${dice.pick([',* escaped heading', ',#+begin_src x', ',,* two commas', ',plain comma'])}`
  if (roll < 0.35) return `${indent}${dice.pick(['', '  ', '// '])}<<${dice.pick(NAMES)}>>${dice.pick(['', ';', ' // after'])}`
  if (roll < 0.38) return `${indent}const shift = a<<b>>c;`
  if (roll < 0.4) return `${indent}${dice.pick(['<<alpha()>>', '<<beta>>', '<<cid>>', '// <<steps>> tail'])}`
  if (roll < 0.42) return `${indent}x (ref:label)`
  if (roll < 0.44) return `${indent}y [label]`
  const extra = dice.pick(['', '  ', '\t', '    '])
  return `${indent}${extra}${dice.pick(['export const x = 1;', 'if (ok) {', '}', 'return value;', 'echo hi', '(message "hi")', 'body { margin: 0; }'])}${dice.chance(0.1) ? '   ' : ''}`
}

function headerArgs(dice: Dice, max: number): string {
  const args: string[] = []
  for (let k = dice.int(max + 1); k > 0; k--) {
    const roll = dice.int(14)
    if (roll < 4) args.push(`:tangle ${dice.pick(TARGETS)}`)
    else if (roll < 6) args.push(`:comments ${dice.pick(['link', 'org', 'both', 'no', 'yes', 'noweb', 'both', 'org'])}`)
    else if (roll < 7) args.push(`:padline ${dice.pick(['no', 'yes'])}`)
    else if (roll < 9) args.push(`:noweb ${dice.pick(['yes', 'no', 'tangle', 'eval'])}`)
    else if (roll < 10) args.push(`:noweb-ref ${dice.pick(NAMES)}${dice.chance(0.3) ? ' :noweb-sep ", "' : ''}`)
    else if (roll < 11) args.push(dice.pick([':shebang "#!/bin/sh"', ':tangle-mode (identity #o600)', ':tangle-mode 493']))
    else if (roll < 12) args.push(':mkdirp yes')
    else if (roll < 13) args.push(dice.pick([':prologue "// p"', ':epilogue "// e"', ':var x=1', ':var y="s"', ':prologue "a\\nb"', ':noweb-sep "\\n\\n"', ':var z=alpha', ':var w=1.5']))
    else args.push(dice.pick([':TANGLE x.ts', ':mkdirp maybe', ':exports both', ':results silent']))
  }
  return args.join(' ')
}
