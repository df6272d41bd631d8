/**
 * Every generated line keeps where it came from: the Org line and column of
 * its characters, through indentation removal and noweb expansion; lines Org
 * does not hold (comments, padding) have no origin.
 */
import {describe, expect, it} from 'vitest'
import {planDocument} from '../../tools/tangle/tangle-document.ts'
import {originAt} from '../../tools/tangle/text.ts'
import {OriginMap} from '../../tools/check/origin-map.ts'

const target = (text: string) => planDocument('/tmp/map/doc.org', text, {boundary: {root: '/', allowed: []}}).targets[0]!
const origins = (text: string, column = 0) => target(text).lines.slice(0, -1).map((line) => originAt(line, column) ?? null)

describe('line origins', () => {
  it('maps body lines to their Org lines, columns shifted by the removed indentation', () => {
    const text = ['* A', '#+begin_src typescript :tangle /tmp/passepartout-map-a.ts', '    const a = 1', '      + 2', '#+end_src', ''].join('\n')
    const lines = target(text).lines
    expect(lines.map((line) => line.text)).toEqual(['const a = 1', '  + 2', ''])
    expect(originAt(lines[0]!, 0)).toEqual({line: 3, column: 5})
    expect(originAt(lines[1]!, 2)).toEqual({line: 4, column: 7})
  })

  it('gives comment and padding lines no origin', () => {
    const text = ['* A', '#+begin_src typescript :tangle /tmp/passepartout-map-a.ts :comments link', 'one', '#+end_src', '#+begin_src typescript :tangle /tmp/passepartout-map-a.ts', 'two', '#+end_src', ''].join('\n')
    expect(origins(text)).toEqual([null, {line: 3, column: 1}, null, null, {line: 6, column: 1}])
  })

  it('maps expanded noweb lines into the referenced block, and the prefix to the reference line', () => {
    const text = [
      '* A',
      '#+NAME: checks',
      '#+begin_src typescript',
      'check(a)',
      'check(b)',
      '#+end_src',
      '#+begin_src typescript :tangle /tmp/passepartout-map-a.ts :noweb yes',
      'function f() {',
      '  <<checks>>',
      '}',
      '#+end_src',
      '',
    ].join('\n')
    const lines = target(text).lines
    expect(lines.map((line) => line.text)).toEqual(['function f() {', '  check(a)', '  check(b)', '}', ''])
    expect(originAt(lines[1]!, 0)).toEqual({line: 9, column: 1})
    expect(originAt(lines[2]!, 2)).toEqual({line: 5, column: 1})
    expect(originAt(lines[2]!, 8)).toEqual({line: 5, column: 7})
  })
})

describe('a position on a line Org does not hold', () => {
  // Two blocks of one target: a link comment, a body line, the end comment, the padding line, the next
  // block's comment, its body line. Glue lines (comments, padding) land on the nearest body line, looking
  // up first.
  const text = [
    '* A',
    '#+begin_src typescript :tangle /tmp/passepartout-map-glue.ts :comments link',
    'const a = 1',
    '#+end_src',
    '* B',
    '#+begin_src typescript :tangle /tmp/passepartout-map-glue.ts :comments link',
    'const b = 2',
    '#+end_src',
    '',
  ].join('\n')
  const map = () => new OriginMap('/tmp/map/doc.org', target(text).lines)

  it('lands on the body line above it when one is as near as the one below', () => {
    const lines = target(text).lines.map((line) => line.text)
    expect(lines.slice(0, 7)).toEqual(['// [[file:map/doc.org::*A][A:1]]', 'const a = 1', '// A:1 ends here', '', '// [[file:map/doc.org::*B][B:1]]', 'const b = 2', '// B:1 ends here'])
    // The padding line (4) is two lines from each body line: the one above wins.
    expect(map().originOf(4, 1)).toEqual({line: 3, column: 1})
    // The end comment of A (3) is next to A's body line, the start comment of B (5) next to B's.
    expect(map().originOf(3, 1)).toEqual({line: 3, column: 1})
    expect(map().originOf(5, 1)).toEqual({line: 7, column: 1})
  })

  it('lands on the first body line below it at the top of the file', () => {
    expect(map().originOf(1, 4)).toEqual({line: 3, column: 1})
  })
})
