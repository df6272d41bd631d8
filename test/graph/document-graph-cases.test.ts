/**
 * More of the document graph, beside document-graph.test.ts: entries read
 * through the Org reader with their columns, what each kind of entry resolves
 * to, edges named twice, IDs repeated inside one document, and dependents
 * across a cycle.
 */
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildGraph, dependentsOf} from '../../tools/graph/document-graph.ts'
import {documentMeta} from '../../tools/org/document-meta.ts'
import {readOrg} from '../../tools/org/parse.ts'

const base = '/project'
const org = (...lines: string[]) => `${lines.join('\n')}\n`
const meta = (file: string, text: string | Uint8Array) => documentMeta(path.join(base, file), readOrg(text).root)
const relative = (file: string) => path.relative(base, file)

function graph(files: Record<string, string>) {
  const result = buildGraph(
    Object.entries(files).map(([file, text]) => meta(file, text)),
    {base},
  )
  return {
    result,
    order: result.order.map(relative),
    places: result.diagnostics.map((message) => `${relative(message.file!)}:${message.line}:${message.column} ${message.ruleId}`),
    dependencies: (file: string) => (result.dependencies.get(path.join(base, file)) ?? []).map(relative),
  }
}

describe('entries through the reader', () => {
  it('gives each entry of each line its own place, columns in UTF-16 code units', () => {
    const doc = meta('a.org', org('#+TITLE: A', '#+DEPENDS_ON: id:x [[id:y][a label with spaces]]', '* 😀', '  #+depends_on:\t😀 [[id:z]] w'))
    expect(doc.dependsOn.map((entry) => `${entry.kind}:${entry.name}@${entry.position.start.line}:${entry.position.start.column}`)).toEqual([
      'id:x@2:15',
      'id:y@2:20',
      'word:😀@4:17',
      'id:z@4:20',
      'word:w@4:29',
    ])
  })

  it('reads the file-level drawer and DEPENDS_ON after a UTF-8 byte-order mark at the same columns', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(org(':PROPERTIES:', ':ID: top', ':END:', '#+DEPENDS_ON: b'))])
    const doc = meta('a.org', bytes)
    expect(doc.ids.map((entry) => entry.id)).toEqual(['top'])
    expect(doc.dependsOn.map((entry) => entry.position.start)).toEqual([expect.objectContaining({line: 4, column: 15})])
  })

  it('reads no ID from a drawer that is not the first thing in the file', () => {
    expect(meta('a.org', org('#+TITLE: A', ':PROPERTIES:', ':ID: lost', ':END:')).ids).toEqual([])
    expect(meta('a.org', org('* H', 'text', ':PROPERTIES:', ':ID: lost', ':END:')).ids).toEqual([])
  })
})

describe('resolution', () => {
  it('resolves id:, [[id:]] links and bare words by file name, each to its document', () => {
    const {dependencies, places} = graph({
      'org/skills/bouncer.org': org(':PROPERTIES:', ':ID: bouncer-id', ':END:'),
      'org/skills/policy.org': org('* Rules', ':PROPERTIES:', ':ID: rules', ':END:'),
      'org/skills/vault.org': '',
      'org/skills/shell.org': org('#+DEPENDS_ON: bouncer [[id:rules][the rules]]', '#+DEPENDS_ON: [[id:bouncer-id]] id:rules vault'),
    })
    expect(places).toEqual([])
    expect(dependencies('org/skills/shell.org')).toEqual(['org/skills/bouncer.org', 'org/skills/policy.org', 'org/skills/vault.org'])
  })

  it('takes an ID before a file name, so a word two files share is not ambiguous when it is an ID', () => {
    const {dependencies, places} = graph({
      'a.org': org('#+DEPENDS_ON: twin'),
      'one/twin.org': '',
      'two/twin.org': org(':PROPERTIES:', ':ID: twin', ':END:'),
    })
    expect(places).toEqual([])
    expect(dependencies('a.org')).toEqual(['two/twin.org'])
  })

  it('does not look up id: entries by file name', () => {
    expect(graph({'a.org': org('#+DEPENDS_ON: id:b'), 'b.org': ''}).places).toEqual(['a.org:1:15 graph/unknown-dependency'])
  })

  it('reports each entry that cannot resolve at its own column, on every line', () => {
    const {places, result} = graph({
      'a.org': org('#+DEPENDS_ON: b', '* Later', '#+DEPENDS_ON: b [[id:gone][a gone document]] twin'),
      'b.org': '',
      'x/twin.org': '',
      'y/twin.org': '',
    })
    expect(places).toEqual(['a.org:3:17 graph/unknown-dependency', 'a.org:3:46 graph/ambiguous-dependency'])
    expect([...result.broken].map(relative)).toEqual(['a.org'])
  })

  it('keeps one edge for a document named twice, and reports a self-dependency by ID', () => {
    const {dependencies, places} = graph({
      'a.org': org('#+DEPENDS_ON: b id:bee [[id:bee]]'),
      'b.org': org(':PROPERTIES:', ':ID: bee', ':END:', '#+DEPENDS_ON: [[id:bee][me]]'),
    })
    expect(dependencies('a.org')).toEqual(['b.org'])
    expect(places).toEqual(['b.org:4:15 graph/self-dependency'])
  })

  it('reports an ID repeated inside one document at its second place', () => {
    expect(graph({'a.org': org(':PROPERTIES:', ':ID: x', ':END:', '* H', ':PROPERTIES:', ':Id: x', ':END:')}).places).toEqual(['a.org:6:1 graph/duplicate-id'])
  })

  it('names both places of a duplicate ID as path:line:col', () => {
    const {result} = graph({'b.org': org('* B', ':PROPERTIES:', ':ID: same', ':END:'), 'a.org': org(':PROPERTIES:', ':ID: same', ':END:')})
    expect(result.diagnostics).toHaveLength(1)
    expect(result.diagnostics[0]).toMatchObject({file: '/project/b.org', line: 3, column: 1, ruleId: 'graph/duplicate-id'})
    expect(result.diagnostics[0]!.reason).toContain('a.org:2:1')
  })
})

describe('cycles and dependents', () => {
  it('reports one cycle per group of documents that reach each other, the shortest through its first document', () => {
    const {places, result} = graph({
      'a.org': org('#+DEPENDS_ON: c b'),
      'b.org': org('#+DEPENDS_ON: a'),
      'c.org': org('#+DEPENDS_ON: a'),
      'x.org': org('#+DEPENDS_ON: y'),
      'y.org': org('#+DEPENDS_ON: x'),
    })
    expect(places).toEqual(['a.org:1:17 graph/cycle', 'x.org:1:15 graph/cycle'])
    expect(result.diagnostics[0]!.reason).toContain('a.org → b.org → a.org')
    expect(result.diagnostics[1]!.reason).toContain('x.org → y.org → x.org')
  })

  it('names a long cycle whole, from its first document by path', () => {
    const {result} = graph({'c.org': org('#+DEPENDS_ON: a'), 'b.org': org('#+DEPENDS_ON: c'), 'a.org': org('#+DEPENDS_ON: d'), 'd.org': org('#+DEPENDS_ON: b')})
    expect(result.diagnostics.map((message) => message.reason)).toEqual([expect.stringContaining('a.org → d.org → b.org → c.org → a.org')])
  })

  it('lists the dependents of a document on a cycle, and none for a document nothing needs', () => {
    const {result} = graph({'a.org': org('#+DEPENDS_ON: b'), 'b.org': org('#+DEPENDS_ON: a'), 'c.org': org('#+DEPENDS_ON: b'), 'd.org': ''})
    expect(dependentsOf(result, '/project/a.org').map(relative)).toEqual(['b.org', 'c.org'])
    expect(dependentsOf(result, '/project/d.org')).toEqual([])
  })

  it('finds the dependents along a chain of 10,000 documents in load order', () => {
    const name = (n: number) => `d${String(n).padStart(5, '0')}`
    const documents = Array.from({length: 10_000}, (_, n) => meta(`${name(n)}.org`, n > 0 ? org(`#+DEPENDS_ON: ${name(n - 1)}`) : ''))
    const result = buildGraph(documents, {base})
    const dependents = dependentsOf(result, '/project/d09990.org')
    expect(dependents.map((file) => path.basename(file, '.org'))).toEqual(Array.from({length: 9}, (_, k) => name(9991 + k)))
  })
})
