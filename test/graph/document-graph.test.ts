/**
 * The document graph: the IDs a document holds, the entries of its
 * #+DEPENDS_ON: lines, how they resolve, the load order, and each error at
 * the place of the entry that causes it.
 */
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {buildGraph, dependentsOf} from '../../tools/graph/document-graph.ts'
import {dependencyEntries, documentMeta} from '../../tools/org/document-meta.ts'
import {readOrg} from '../../tools/org/parse.ts'

const base = '/project'
const org = (...lines: string[]) => `${lines.join('\n')}\n`
const meta = (file: string, text: string) => documentMeta(path.join(base, file), readOrg(text).root)

/** The graph of FILES (name → text): its order and its messages, relative to the project. */
function graph(files: Record<string, string>) {
  const result = buildGraph(
    Object.entries(files).map(([file, text]) => meta(file, text)),
    {base},
  )
  return {
    order: result.order.map((file) => path.relative(base, file)),
    messages: result.diagnostics.map((message) => formatDiagnostic(message, base)),
    rules: result.diagnostics.map((message) => `${path.relative(base, message.file!)}:${message.line}:${message.column} ${message.ruleId}`),
    broken: [...result.broken].map((file) => path.relative(base, file)).sort(),
    result,
  }
}

describe('identity', () => {
  it('collects the IDs of the file-level drawer and of every heading, whatever the case of the key', () => {
    const doc = meta('a.org', org(':PROPERTIES:', ':ID: file-id', ':END:', '#+TITLE: A', '* One', ':PROPERTIES:', ':id: one', ':END:', '** Two', ':PROPERTIES:', ':ID:', ':END:'))
    expect(doc.ids.map((entry) => [entry.id, entry.position.start.line])).toEqual([
      ['file-id', 2],
      ['one', 7],
    ])
  })

  it('does not read a drawer after a keyword line as the file-level drawer, as Org 9.5', () => {
    expect(meta('a.org', org('#+TITLE: A', ':PROPERTIES:', ':ID: lost', ':END:')).ids).toEqual([])
  })
})

describe('#+DEPENDS_ON: entries', () => {
  it('reads id:, bare words and Org links, with the column of each', () => {
    const entries = dependencyEntries('#+DEPENDS_ON: bouncer id:policy-core\t[[id:vault][the vault]] [[id:x]]', 4)
    expect(entries.map((entry) => [entry.kind, entry.name, `${entry.position.start.line}:${entry.position.start.column}`])).toEqual([
      ['word', 'bouncer', '4:15'],
      ['id', 'policy-core', '4:23'],
      ['id', 'vault', '4:38'],
      ['id', 'x', '4:62'],
    ])
  })

  it('reads every line, anywhere in the file, and accepts an empty one', () => {
    const doc = meta('a.org', org('#+DEPENDS_ON: b', '* Later', '#+depends_on: c d', '#+DEPENDS_ON:'))
    expect(doc.dependsOn.map((entry) => `${entry.name}@${entry.position.start.line}`)).toEqual(['b@1', 'c@3', 'd@3'])
  })

  it('ignores lines inside blocks', () => {
    expect(meta('a.org', org('#+begin_src org', '#+DEPENDS_ON: b', '#+end_src')).dependsOn).toEqual([])
  })
})

describe('resolution and order', () => {
  it('puts dependencies first and breaks ties by path', () => {
    const {order, messages} = graph({
      'org/skills/zeta.org': org('#+DEPENDS_ON: policy'),
      'org/skills/alpha.org': org('#+DEPENDS_ON: id:bouncer-id'),
      'org/skills/bouncer.org': org(':PROPERTIES:', ':ID: bouncer-id', ':END:', '#+DEPENDS_ON: policy'),
      'org/skills/policy.org': org('#+TITLE: Policy'),
      'org/core/engine.org': org('#+TITLE: Engine'),
    })
    expect(messages).toEqual([])
    expect(order).toEqual(['org/core/engine.org', 'org/skills/policy.org', 'org/skills/bouncer.org', 'org/skills/alpha.org', 'org/skills/zeta.org'])
  })

  it('resolves a bare word to an ID before a file name', () => {
    const {result} = graph({
      'a.org': org('#+DEPENDS_ON: b'),
      'b.org': org('#+TITLE: B'),
      'c.org': org(':PROPERTIES:', ':ID: b', ':END:'),
    })
    expect(result.dependencies.get('/project/a.org')).toEqual(['/project/c.org'])
  })

  it('gives the same order whatever order the documents come in', () => {
    const files = {'b.org': org('#+DEPENDS_ON: a'), 'c.org': org(''), 'a.org': org(''), 'd.org': org('#+DEPENDS_ON: c a')}
    const reversed = Object.fromEntries(Object.entries(files).reverse())
    expect(graph(reversed).order).toEqual(graph(files).order)
    expect(graph(files).order).toEqual(['a.org', 'b.org', 'c.org', 'd.org'])
  })

  it('lists the dependents of a document, transitively, in load order', () => {
    const {result} = graph({'a.org': '', 'b.org': org('#+DEPENDS_ON: a'), 'c.org': org('#+DEPENDS_ON: b'), 'd.org': org('#+DEPENDS_ON: a'), 'e.org': ''})
    expect(dependentsOf(result, '/project/a.org').map((file) => path.basename(file))).toEqual(['b.org', 'c.org', 'd.org'])
  })

  it('orders a chain of 10,000 documents without overflowing the stack', () => {
    const documents = Array.from({length: 10_000}, (_, n) => meta(`d${String(n).padStart(5, '0')}.org`, n > 0 ? org(`#+DEPENDS_ON: d${String(n - 1).padStart(5, '0')}`) : ''))
    const result = buildGraph([...documents].reverse(), {base})
    expect(result.order[0]).toBe('/project/d00000.org')
    expect(result.order.at(-1)).toBe('/project/d09999.org')
    const cyclic = buildGraph([meta('d00000.org', org('#+DEPENDS_ON: d09999')), ...documents.slice(1)], {base})
    expect(cyclic.diagnostics.map((message) => message.ruleId)).toEqual(['graph/cycle'])
  })
})

describe('errors at the entry that causes them', () => {
  it('names the whole cycle, once, at the edge from its first document', () => {
    const {messages, broken, order} = graph({
      'a.org': org('#+TITLE: A', '#+DEPENDS_ON: b'),
      'b.org': org('#+DEPENDS_ON: c'),
      'c.org': org('#+DEPENDS_ON: a'),
      'd.org': org('#+DEPENDS_ON: c'),
      'e.org': '',
    })
    expect(messages).toEqual(['a.org:2:15: error: documents depend on each other: a.org → b.org → c.org → a.org [graph/cycle]'])
    expect(broken).toEqual(['a.org', 'b.org', 'c.org', 'd.org'])
    expect(order).toEqual(['e.org', 'a.org', 'b.org', 'c.org', 'd.org'])
  })

  it('reports an unknown dependency, a self-dependency and an ambiguous file name', () => {
    const {rules, broken} = graph({
      'a.org': org('#+DEPENDS_ON: id:nowhere nothing'),
      'b.org': org(':PROPERTIES:', ':ID: bee', ':END:', '#+DEPENDS_ON: id:bee'),
      'c.org': org('#+DEPENDS_ON: twin'),
      'one/twin.org': '',
      'two/twin.org': '',
    })
    expect(rules).toEqual(['a.org:1:15 graph/unknown-dependency', 'a.org:1:26 graph/unknown-dependency', 'b.org:4:15 graph/self-dependency', 'c.org:1:15 graph/ambiguous-dependency'])
    expect(broken).toEqual(['a.org', 'b.org', 'c.org'])
  })

  it('reports a duplicate ID at its second place, naming the first', () => {
    const {messages} = graph({
      'a.org': org('* A', ':PROPERTIES:', ':ID: same', ':END:'),
      'b.org': org('* B', ':PROPERTIES:', ':ID: same', ':END:'),
    })
    expect(messages).toEqual(["b.org:3:1: error: the ID 'same' is also at a.org:3:1; each ID names one place [graph/duplicate-id]"])
  })
})
