/**
 * The lines of its file each block's body fills (`TargetPlan.spans`, assemble.ts): what a woven page says a block
 * tangles to. One row a way Org puts lines around a body: padding between blocks or none, link comments, a
 * shebang, an empty body, a body a noweb reference grows; each row's spans hold exactly the body's lines.
 */
import {describe, expect, it} from 'vitest'
import {planDocument} from '../../tools/tangle/tangle-document.ts'

const FILE = '/tmp/passepartout-spans-out.ts'

/** A document of BLOCKS, each `[header arguments after :tangle, body lines]`. */
const document = (blocks: [string, string[]][]) =>
  [
    '* A',
    ...blocks.flatMap(([header, body]) => [
      `#+begin_src typescript :tangle ${FILE} ${header}`.trimEnd(),
      ...body,
      '#+end_src',
    ]),
    '',
  ].join('\n')

/** Each row: its blocks, and the lines each one's span holds in the file. */
const ROWS: {name: string; blocks: [string, string[]][]; held: string[][]}[] = [
  {
    name: 'padded blocks',
    blocks: [
      ['', ['one']],
      ['', ['two', 'three']],
    ],
    held: [['one'], ['two', 'three']],
  },
  {
    name: ':padline no',
    blocks: [
      ['', ['one']],
      [':padline no', ['two']],
    ],
    held: [['one'], ['two']],
  },
  {
    name: ':comments link',
    blocks: [
      [':comments link', ['one']],
      [':comments link', ['two']],
    ],
    held: [['one'], ['two']],
  },
  {name: 'a shebang', blocks: [[':shebang "#!/usr/bin/env node"', ['one']]], held: [['one']]},
  {
    name: 'an empty body',
    blocks: [
      ['', []],
      ['', ['two']],
    ],
    held: [[''], ['two']],
  },
  {
    name: 'a noweb reference',
    blocks: [
      [':noweb yes', ['before', '  <<inner>>', 'after']],
      [':tangle no :noweb-ref inner', ['x', 'y']],
    ],
    held: [['before', '  x', '  y', 'after']],
  },
]

describe('block spans', () => {
  it.each(ROWS)('$name: each span holds its block body', ({blocks, held}) => {
    const [target] = planDocument('/tmp/passepartout-spans/doc.org', document(blocks), {
      boundary: {root: '/', allowed: []},
    }).targets
    const lines = target!.content.split('\n')
    expect(target!.spans.map(({first, last}) => lines.slice(first - 1, last))).toEqual(held)
  })
})
