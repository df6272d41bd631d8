/**
 * `runDeps` called in the test's own process on a project on disk, stdout and
 * stderr captured: the load order, its JSON and DOT forms, the exit status,
 * and an unreadable file reported as `io/read` by the project session's graph.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest'
import {runDeps} from '../../tools/cli/deps-command.ts'
import {ProjectSession} from '../../tools/session/project-session.ts'

const made: string[] = []

function project(files: Record<string, string>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-run-deps-')))
  made.push(dir)
  for (const [file, text] of Object.entries({'package.json': '{}\n', ...files})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

/** Run `deps` with ARGS in DIR: its exit status and what it wrote. */
async function deps(dir: string, flags: {json?: boolean; dot?: boolean} = {}, args: string[] = []) {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true))
  const status = await runDeps(args, {json: flags.json ?? false, dot: flags.dot ?? false}, {cwd: dir, frames: false})
  vi.restoreAllMocks()
  return {status, stdout, stderr}
}

afterEach(() => vi.restoreAllMocks())
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, {recursive: true, force: true})
})

const skills = {
  'org/skills/policy.org': '#+TITLE: Policy\n',
  'org/skills/bouncer.org': ':PROPERTIES:\n:ID: bouncer-id\n:END:\n#+TITLE: Bouncer\n#+DEPENDS_ON: policy\n',
  'org/skills/shell.org': '#+DEPENDS_ON: [[id:bouncer-id][the bouncer]] policy\n',
  'org/core/engine.org': '#+TITLE: Engine\n',
}

describe('runDeps', () => {
  it('prints the load order relative to the working directory', async () => {
    const dir = project(skills)
    expect(await deps(dir)).toEqual({status: 0, stdout: 'org/core/engine.org\norg/skills/policy.org\norg/skills/bouncer.org\norg/skills/shell.org\n', stderr: ''})
    // Outside the working directory a path stays absolute.
    expect((await deps(path.join(dir, 'org/skills'))).stdout.split('\n')).toEqual([path.join(dir, 'org/core/engine.org'), 'policy.org', 'bouncer.org', 'shell.org', ''])
  })

  it('reads only the files and folders it is given', async () => {
    const dir = project(skills)
    expect((await deps(dir, {}, ['org/skills/policy.org', 'org/core'])).stdout).toBe('org/core/engine.org\norg/skills/policy.org\n')
  })

  it('prints the graph as JSON', async () => {
    const result = (await deps(project(skills), {json: true}))
    expect(result.status).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.order).toEqual(['org/core/engine.org', 'org/skills/policy.org', 'org/skills/bouncer.org', 'org/skills/shell.org'])
    expect(report.documents).toContainEqual(expect.objectContaining({path: 'org/skills/shell.org', ids: [], dependsOn: ['org/skills/bouncer.org', 'org/skills/policy.org']}))
    expect(report.documents).toContainEqual(expect.objectContaining({path: 'org/skills/bouncer.org', ids: ['bouncer-id'], dependsOn: ['org/skills/policy.org']}))
    expect(report.diagnostics).toEqual([])
  })

  it('prints DOT with an edge from each document to each of its dependencies', async () => {
    const {stdout} = (await deps(project({...skills, 'org/skills/say "hi"\\.org': '#+DEPENDS_ON: policy\n'}), {dot: true}))
    expect(stdout.startsWith('digraph passepartout {\n')).toBe(true)
    expect(stdout.endsWith('}\n')).toBe(true)
    const edges = stdout.split('\n').filter((line) => line.includes('->'))
    expect(edges).toEqual([
      '  "org/skills/bouncer.org" -> "org/skills/policy.org";',
      '  "org/skills/say \\"hi\\"\\\\.org" -> "org/skills/policy.org";',
      '  "org/skills/shell.org" -> "org/skills/bouncer.org";',
      '  "org/skills/shell.org" -> "org/skills/policy.org";',
    ])
  })

  it('still prints every document when there are errors, reports them on stderr and exits 1', async () => {
    const dir = project({
      'org/a.org': '#+DEPENDS_ON: b\n',
      'org/b.org': '#+TITLE: B\n#+DEPENDS_ON: ghost a\n',
      'org/c.org': '',
    })
    const result = (await deps(dir))
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('org/c.org\norg/a.org\norg/b.org\n')
    expect(result.stderr.split('\n').filter(Boolean).map((line) => line.replace(/: error: .*\[/, ' ['))).toEqual(['org/a.org:1:15 [graph/cycle]', 'org/b.org:2:15 [graph/unknown-dependency]'])
  })

  it('puts the places of errors in the JSON report', async () => {
    const report = JSON.parse((await deps(project({'org/a.org': '#+DEPENDS_ON: a\n'}), {json: true})).stdout)
    expect(report.diagnostics).toEqual([expect.objectContaining({file: 'org/a.org', line: 1, column: 15, severity: 'error', rule: 'graph/self-dependency'})])
  })
})

describe('the session graph', () => {
  it('leaves out a file it cannot read, with an io/read error, and orders the rest', async () => {
    const dir = project({'org/a.org': '', 'org/b.org': '#+DEPENDS_ON: a\n'})
    const {graph} = await new ProjectSession({project: dir}).graph([path.join(dir, 'org/b.org'), path.join(dir, 'org/gone.org'), path.join(dir, 'org/a.org')])
    expect(graph.order.map((file) => path.relative(dir, file))).toEqual(['org/a.org', 'org/b.org'])
    expect(graph.diagnostics.map((message) => [path.relative(dir, message.file!), message.ruleId])).toEqual([['org/gone.org', 'io/read']])
  })
})
