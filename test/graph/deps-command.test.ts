/**
 * `passepartout deps` and `passepartout check` as real processes on a project
 * on disk: the load order, its JSON and DOT forms, and graph errors at the
 * DEPENDS_ON line with exit status 1.
 */
import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

function run(args: string[], cwd: string) {
  const result = spawnSync(cli, [...args, '--no-frames'], {cwd, encoding: 'utf8'})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

const project = (files: Record<string, string>) => tempProject(files, 'passepartout-deps-')

const skills = {
  'org/skills/policy.org': '#+TITLE: Policy\n',
  'org/skills/bouncer.org': ':PROPERTIES:\n:ID: bouncer-id\n:END:\n#+DEPENDS_ON: policy\n',
  'org/skills/shell "guard".org': '#+DEPENDS_ON: [[id:bouncer-id][the bouncer]]\n',
}

describe('passepartout deps', () => {
  it('prints the load order, one document a line', () => {
    const result = run(['deps'], project(skills))
    expect(result).toMatchObject({status: 0, stderr: ''})
    expect(result.stdout).toBe('org/skills/policy.org\norg/skills/bouncer.org\norg/skills/shell "guard".org\n')
  })

  it('prints the graph as JSON', () => {
    const report = JSON.parse(run(['deps', '--json'], project(skills)).stdout)
    expect(Object.keys(report)[0]).toBe('version')
    expect(report.version).toBe(1)
    expect(report.order).toEqual(['org/skills/policy.org', 'org/skills/bouncer.org', 'org/skills/shell "guard".org'])
    expect(report.documents).toContainEqual({path: 'org/skills/bouncer.org', ids: ['bouncer-id'], dependsOn: ['org/skills/policy.org'], broken: false})
    expect(report.diagnostics).toEqual([])
  })

  it("gives its diagnostics in the toolchain's one JSON form", () => {
    const dir = project({'org/a/x.org': '', 'org/b/x.org': '', 'org/c.org': '#+DEPENDS_ON: x\n'})
    const report = JSON.parse(run(['deps', '--json'], dir).stdout)
    expect(report.diagnostics).toEqual([
      {
        file: 'org/c.org',
        line: 1,
        column: 15,
        endLine: 1,
        endColumn: 16,
        severity: 'error',
        rule: 'graph/ambiguous-dependency',
        code: null,
        reason: "'x' names several documents (org/a/x.org, org/b/x.org)",
        note: null,
        expected: ['name one by an ID (id:X)'],
        url: 'docs/reference/rules.md#rule-graph-ambiguous-dependency',
      },
    ])
  })

  it('prints Graphviz DOT, quoting names, with an edge from each document to what it needs', () => {
    const dot = run(['deps', '--dot'], project(skills)).stdout
    expect(dot).toMatch(/^digraph passepartout \{\n/)
    expect(dot).toContain('  "org/skills/bouncer.org" -> "org/skills/policy.org";\n')
    expect(dot).toContain('  "org/skills/shell \\"guard\\".org" -> "org/skills/bouncer.org";\n')
    expect(dot.endsWith('}\n')).toBe(true)
  })

  it('reports a cycle at the DEPENDS_ON entry and exits 1', () => {
    const dir = project({'org/a.org': '#+TITLE: A\n#+DEPENDS_ON: b\n', 'org/b.org': '#+DEPENDS_ON: a\n'})
    const result = run(['deps'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr).toBe('org/a.org:2:15: error: documents depend on each other: org/a.org → org/b.org → org/a.org [graph/cycle]\n')
  })
})

describe('passepartout check', () => {
  it('reports graph errors with the type errors, and exits 1', () => {
    const dir = project({
      'org/a.org': '#+DEPENDS_ON: ghost\n#+begin_src typescript :tangle a.ts\nexport const a: number = "a"\n#+end_src\n',
    })
    const result = run(['check'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^org\/a\.org:1:15: error: unknown dependency 'ghost'.*\[graph\/unknown-dependency\]$/),
      "org/a.org:3:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
    ])
    expect(result.stdout).toMatch(/^tangled 1 block from 1 document into 1 file \(0 unchanged\) in \d+ ms\nchecked 1 TypeScript file: 2 errors, 0 warnings in \d+ ms\n$/)
  })

  it('prints the report as JSON with --json: the tangle part, the files checked, every diagnostic in one form', () => {
    const dir = project({
      'org/a.org': '#+DEPENDS_ON: ghost\n#+begin_src typescript :tangle a.ts\nexport const a: number = "a"\n#+end_src\n',
    })
    const result = run(['check', '--json'], dir)
    expect(result.status).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(Object.keys(report)[0]).toBe('version')
    expect(report).toMatchObject({version: 1, checkedFiles: 1, errors: 2, warnings: 0})
    expect(report.tangle).toMatchObject({blocks: 1, documents: [{path: 'org/a.org', failed: false, targets: [{path: 'org/a.ts', status: 'written'}]}], pruned: []})
    expect(report.diagnostics).toEqual([
      expect.objectContaining({file: 'org/a.org', line: 1, column: 15, severity: 'error', rule: 'graph/unknown-dependency', code: null, url: 'docs/reference/rules.md#rule-graph-unknown-dependency'}),
      {
        file: 'org/a.org',
        line: 3,
        column: 14,
        endLine: null,
        endColumn: null,
        severity: 'error',
        rule: 'ts',
        code: 'TS2322',
        reason: "Type 'string' is not assignable to type 'number'.",
        note: null,
        expected: null,
        url: 'docs/reference/rules.md#rule-ts',
      },
    ])
  })

  it('reports the same problems when the tangle cache answers for the documents', () => {
    const dir = project({
      'node_modules/.keep': '',
      'org/a.org': '#+begin_src typescript :tangle a.ts\nexport const a: number = "a"\n#+end_src\n',
      'org/b.org': '#+begin_src typescript :tangle b.ts\nexport const b: number = 1\n#+end_src\n',
    })
    const first = run(['check'], dir)
    const second = run(['check'], dir)
    expect(second.stdout).toMatch(/\(2 unchanged\)/)
    expect(second.stderr).toBe(first.stderr)
    expect(second.stderr).toBe("org/a.org:2:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]\n")
  })

  it('checks a document named with the documents it depends on, and no other', () => {
    const block = (target: string, code: string) => `#+begin_src typescript :tangle ${target}\n${code}\n#+end_src\n`
    const dir = project({
      'org/skills/policy.org': block('policy.ts', 'export const limit: number = 1'),
      'org/skills/bouncer.org': `#+DEPENDS_ON: policy\n${block('bouncer.ts', 'export const twice: number = 2')}`,
      'org/skills/guard.org': `#+DEPENDS_ON: bouncer\n${block('guard.ts', 'export const thrice: number = 3')}`,
      'org/elsewhere.org': block('elsewhere.ts', 'export const broken: number = "one"'),
    })
    const result = run(['check', '--json', 'org/skills/guard.org'], dir)
    expect(result).toMatchObject({status: 0, stderr: ''})
    const report = JSON.parse(result.stdout)
    expect(report.tangle.documents.map((document: {path: string}) => document.path)).toEqual([
      'org/skills/policy.org',
      'org/skills/bouncer.org',
      'org/skills/guard.org',
    ])
    expect(report).toMatchObject({checkedFiles: 3, errors: 0})
    // The document's own problems are found as before; a dependency no document answers is still one.
    const lone = project({'org/a.org': `#+DEPENDS_ON: ghost\n${block('a.ts', 'export const a: number = "a"')}`})
    expect(run(['check', 'org/a.org'], lone).stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^org\/a\.org:1:15: error: unknown dependency 'ghost'.*\[graph\/unknown-dependency\]$/),
      "org/a.org:3:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]",
    ])
  })

  it('exits 0 on a clean project', () => {
    const dir = project({'org/a.org': '#+begin_src typescript :tangle a.ts\nexport const a: number = 1\n#+end_src\n'})
    expect(run(['check'], dir)).toMatchObject({status: 0, stderr: ''})
  })
})
