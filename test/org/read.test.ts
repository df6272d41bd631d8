/**
 * The Org reader: what it recognises, with what positions, and which problems
 * it reports. Assertions are on node fields, places and rule ids.
 */
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import type {Headline, Keyword, NamedElement, OrgNode, OrgRoot, PropertyDrawer, SrcBlock} from '../../tools/org/ast.ts'
import {blockBody, readOrg} from '../../tools/org/parse.ts'
import {orgParse} from '../../tools/org/plugin.ts'

const org = (...lines: string[]) => `${lines.join('\n')}\n`
const nodes = <T extends OrgNode['type']>(root: OrgRoot, type: T) => root.children.filter((node) => node.type === type) as Extract<OrgNode, {type: T}>[]
const blocks = (text: string) => nodes(readOrg(text).root, 'srcBlock') as SrcBlock[]
const headlines = (text: string) => nodes(readOrg(text).root, 'headline') as Headline[]
const rules = (text: string | Uint8Array) => readOrg(text).problems.map((p) => `${p.ruleId}@${p.place.start.line}`)

describe('headlines', () => {
  it('splits level, TODO keyword, priority, title and tags', () => {
    const [h] = headlines(org('** TODO [#A] Approval gate [1/2]   :core:gates:'))
    expect(h).toMatchObject({level: 2, todo: 'TODO', priority: '[#A]', title: 'Approval gate [1/2]', tags: ['core', 'gates']})
  })

  it('reads COMMENT after the TODO keyword, case-sensitively, and the ARCHIVE tag', () => {
    const hs = headlines(org('* COMMENT a', '* TODO COMMENT b', '* Comment c', '* COMMENTS d', '* e :ARCHIVE:', '* f :archive:'))
    expect(hs.map((h) => [h.commented, h.archived])).toEqual([
      [true, false],
      [true, false],
      [false, false],
      [false, false],
      [false, true],
      [false, false],
    ])
  })

  it('takes TODO keywords from #+TODO lines, key specs removed', () => {
    const hs = headlines(org('#+TODO: NEXT(n) WAIT(w@/!) | GONE', '* NEXT one', '* TODO two'))
    expect(hs.map((h) => [h.todo, h.title])).toEqual([
      ['NEXT', 'one'],
      [null, 'TODO two'],
    ])
  })

  it('has no title for a headline of tags or nothing', () => {
    expect(headlines(org('* :a:b:', '* ', '* TODO')).map((h) => [h.title, h.todo])).toEqual([
      [null, null],
      [null, null],
      [null, 'TODO'],
    ])
  })

  it('links each headline to the nearest preceding one with a lower level', () => {
    const hs = headlines(org('* a', '*** b', '** c', '* d', '** e'))
    expect(hs.map((h) => h.parent)).toEqual([-1, 0, 0, -1, 3])
  })

  it('needs a space after the stars', () => {
    expect(headlines(org('*bold*', '*', '*\ttab'))).toEqual([])
  })
})

describe('keywords', () => {
  it('reads any #+KEY: line, key upper-cased and value trimmed', () => {
    const {root} = readOrg(org('#+title:  Skill  ', '#+DEPENDS_ON: id:core policy', '#+DEPENDS_ON: bouncer', '#+Custom_Key: x'))
    expect((nodes(root, 'keyword') as Keyword[]).map((k) => [k.key, k.value])).toEqual([
      ['TITLE', 'Skill'],
      ['DEPENDS_ON', 'id:core policy'],
      ['DEPENDS_ON', 'bouncer'],
      ['CUSTOM_KEY', 'x'],
    ])
  })

  it('ignores keyword-looking lines inside blocks', () => {
    const {root} = readOrg(org('#+begin_example', '#+PROPERTY: header-args :tangle x', '#+end_example', '#+begin_src sh', '#+TITLE: no', '#+end_src'))
    expect(nodes(root, 'keyword')).toEqual([])
  })
})

describe('property drawers', () => {
  it('reads the drawer under a headline, after a planning line', () => {
    const {root} = readOrg(org('* Task', 'SCHEDULED: <2026-11-21 Sat>', ':PROPERTIES:', ':ID:       abc', ':header-args:typescript+: :comments link', ':END:'))
    const [drawer] = nodes(root, 'propertyDrawer') as PropertyDrawer[]
    expect(drawer!.headline).toBe(0)
    expect(drawer!.properties.map((p) => [p.key, p.value, p.position.start.line])).toEqual([
      ['ID', 'abc', 4],
      ['header-args:typescript+', ':comments link', 5],
    ])
  })

  it('reads a file-level drawer only at the very top, after comment lines at most', () => {
    expect(nodes(readOrg(org('# comment', ':PROPERTIES:', ':ID: file', ':END:')).root, 'propertyDrawer')).toHaveLength(1)
    const late = readOrg(org('#+TITLE: x', ':PROPERTIES:', ':ID: file', ':END:'))
    expect(nodes(late.root, 'propertyDrawer')).toEqual([])
    expect(late.problems.map((p) => [p.ruleId, p.place.start.line])).toEqual([['org/ignored-property-drawer', 2]])
  })

  it('ignores a drawer that is not directly under its headline, with a warning there', () => {
    expect(rules(org('* A', '', ':PROPERTIES:', ':ID: x', ':END:'))).toEqual(['org/ignored-property-drawer@3'])
  })

  it('rejects a drawer with a line that is not a property', () => {
    const {root} = readOrg(org('* A', ':PROPERTIES:', 'not a property', ':END:'))
    expect(nodes(root, 'propertyDrawer')).toEqual([])
  })
})

describe('source blocks', () => {
  it('reads language, switches, header arguments, #+NAME and every #+HEADER line', () => {
    const [b] = blocks(org('#+NAME: first', '#+name: second', '#+HEADER: :a 1', '#+HEADERS: :b 2', '#+BEGIN_SRC typescript -n -r :tangle x.ts :noweb yes', 'body', '#+END_SRC'))
    expect(b).toMatchObject({language: 'typescript', switches: '-n -r', parameters: ':tangle x.ts :noweb yes', name: 'second'})
    expect(b!.headers.map((h) => h.value)).toEqual([':a 1', ':b 2'])
    expect(b!.open.start.line).toBe(5)
    expect(b!.close.start.line).toBe(7)
    expect(b!.position.start.line).toBe(1)
  })

  it('takes the first word as the language, and none when the line has only header arguments after a tab', () => {
    expect(blocks(org('#+begin_src :tangle x', 'a', '#+end_src')).map((b) => [b.language, b.parameters])).toEqual([[':tangle', 'x']])
    expect(blocks(org('#+begin_src\tsh :tangle x', 'a', '#+end_src')).map((b) => b.language)).toEqual([null])
  })

  it('keeps every body line raw with its line', () => {
    const text = org('* H', '  #+begin_src sh', '  ,* escaped', '\ttab', '  #+end_src')
    const [b] = blocks(text)
    expect(blockBody(b!, text.split('\n'))).toEqual([
      {value: '  ,* escaped', line: 3},
      {value: '\ttab', line: 4},
    ])
  })

  it('warns about a #+begin_src without #+end_src before the next headline, and reads no block', () => {
    const text = org('* A', '#+begin_src sh', 'x', '* B', '#+end_src')
    expect(blocks(text)).toEqual([])
    expect(rules(text)).toEqual(['org/unterminated-block@2'])
  })

  it('does not read blocks inside example blocks, but does inside drawers, lists and quotes', () => {
    const text = org(
      '#+begin_example',
      '#+begin_src sh',
      'no',
      '#+end_src',
      '#+end_example',
      ':LOGBOOK:',
      '#+begin_src sh',
      'drawer',
      '#+end_src',
      ':END:',
      '- item',
      '  #+begin_src sh',
      '  list',
      '  #+end_src',
      '#+begin_quote',
      '#+begin_src sh',
      'quote',
      '#+end_src',
      '#+end_quote',
    )
    expect(blocks(text).map((b) => blockBody(b, text.split('\n'))[0]!.value.trim())).toEqual(['drawer', 'list', 'quote'])
  })

  it('closes a block only with a line that is exactly #+end_src (any case)', () => {
    const text = org('#+begin_src sh', '#+end_srcx', 'more', '#+END_SRC  ')
    const [b] = blocks(text)
    expect(blockBody(b!, text.split('\n')).map((l) => l.value)).toEqual(['#+end_srcx', 'more'])
  })

  it('attaches nothing across a blank line, and warns when a block follows', () => {
    const text = org('#+NAME: lost', '', '#+begin_src sh', 'x', '#+end_src')
    expect(blocks(text)[0]!.name).toBeNull()
    expect(rules(text)).toEqual(['org/detached-affiliated-keyword@1'])
  })

  it('numbers blocks and gives each the ordinal of its headline', () => {
    const bs = blocks(org('#+begin_src sh', '#+end_src', '* A', '#+begin_src sh', '#+end_src'))
    expect(bs.map((b) => [b.index, b.headline])).toEqual([
      [0, -1],
      [1, 0],
    ])
  })
})

describe('named elements', () => {
  it('records other elements that carry a #+NAME', () => {
    const {root} = readOrg(org('#+NAME: table', '| a | b |', '', '#+NAME: list', '- x', '', '#+TBLNAME: call', '#+CALL: f()'))
    expect((nodes(root, 'namedElement') as NamedElement[]).map((n) => [n.name, n.element])).toEqual([
      ['table', 'table'],
      ['list', 'plain-list'],
      ['call', 'babel-call'],
    ])
  })
})

describe('decoding', () => {
  it('reads CRLF files as Emacs does, with the same line positions', () => {
    const {root} = readOrg(Buffer.from('* A\r\n#+begin_src sh\r\nx\r\n#+end_src\r\n'))
    expect(root.data.eol).toBe('crlf')
    expect(nodes(root, 'srcBlock')).toHaveLength(1)
  })

  it('keeps CRs when line endings are mixed, so the block is not closed', () => {
    const {root} = readOrg(Buffer.from('* A\n#+begin_src sh\r\nx\r\n#+end_src\r\n'))
    expect(root.data.eol).toBe('lf')
    expect(nodes(root, 'srcBlock')).toEqual([])
  })

  it('falls back to Latin-1 for bytes that are not UTF-8, and drops a UTF-8 BOM', () => {
    expect(readOrg(Buffer.from([0x2a, 0x20, 0xe9, 0x0a])).root.data).toMatchObject({encoding: 'latin-1', text: '* é\n'})
    expect(readOrg(Buffer.from('\ufeff* A\n')).root.data.text).toBe('* A\n')
  })
})

describe('the unified plugin', () => {
  it('parses a file and reports problems as messages with place and rule', () => {
    const file = new VFile({path: 'doc.org', value: org('* A', '#+begin_src sh', 'x')})
    const tree = unified().use(orgParse).parse(file) as OrgRoot
    expect(tree.type).toBe('root')
    expect(file.messages.map((m) => [m.ruleId, m.line, m.column, m.fatal])).toEqual([['org/unterminated-block', 2, 1, false]])
  })
})
