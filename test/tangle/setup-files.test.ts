/**
 * `#+SETUPFILE:` beyond what the cases show: the warnings at their lines, the
 * refusal of setup files over the network, the depth limit, and the cache,
 * which reads a document again when one of its setup files changed.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {planDocument} from '../../tools/tangle/tangle-document.ts'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

const folder = (files: Record<string, string>) => tempProject(files, 'passepartout-setup-')

const plan = (dir: string) => {
  const file = path.join(dir, 'doc.org')
  return planDocument(file, fs.readFileSync(file), {boundary: {root: dir, allowed: []}})
}
const rules = (messages: {ruleId?: string | null; line?: number | null; column?: number | null}[]) => messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`)
const block = '#+begin_src typescript\nx\n#+end_src\n'

describe('#+SETUPFILE:', () => {
  it('warns at the line of a setup file that cannot be read, and of one already being read', () => {
    const dir = folder({'doc.org': `#+SETUPFILE: gone.org\n#+SETUPFILE: a.org\n${block}`, 'a.org': '#+SETUPFILE: b.org\n', 'b.org': '#+SETUPFILE: a.org\n#+PROPERTY: header-args :tangle out.ts\n'})
    const result = plan(dir)
    expect(rules(result.diagnostics)).toEqual(['1:1 org/setupfile-unreadable', '2:1 org/setupfile-cycle'])
    expect(result.targets.map((target) => target.fileName)).toEqual(['out.ts'])
    expect(result.inputs.map((input) => path.basename(input))).toEqual(['gone.org', 'a.org', 'b.org'])
  })

  it('refuses a setup file Org would fetch over the network, writing nothing', () => {
    const dir = folder({'doc.org': `#+SETUPFILE: https://example.com/setup.org\n#+PROPERTY: header-args :tangle out.ts\n${block}`})
    const result = plan(dir)
    expect(result.failed).toBe(true)
    expect(rules(result.diagnostics)).toEqual(['1:1 tangle/unsupported'])
  })

  it('stops at 50 setup files deep, in time linear in the chain', () => {
    const files: Record<string, string> = {'doc.org': `#+SETUPFILE: s0.org\n${block}`}
    for (let k = 0; k < 200; k++) files[`s${k}.org`] = `#+SETUPFILE: s${k + 1}.org\n`
    const result = plan(folder(files))
    expect(result.failed).toBe(true)
    expect(rules(result.diagnostics)).toEqual(['1:1 tangle/unsupported'])
  })

  it('tangles a document again when its setup file changed, the cache notwithstanding', () => {
    const dir = folder({'node_modules/.keep': '', 'org/doc.org': `#+SETUPFILE: setup.org\n${block}`, 'org/setup.org': '#+PROPERTY: header-args :tangle ../one.ts\n'})
    const past = new Date(Date.now() - 60_000)
    for (const file of ['org/doc.org', 'org/setup.org']) fs.utimesSync(path.join(dir, file), past, past)
    const tangle = () => spawnSync(cli, ['tangle', 'org/doc.org'], {cwd: dir, encoding: 'utf8'})
    expect(tangle().status).toBe(0)
    expect(tangle().stdout).toMatch(/\(1 unchanged\)/)
    fs.writeFileSync(path.join(dir, 'org/setup.org'), '#+PROPERTY: header-args :tangle ../two.ts\n')
    fs.utimesSync(path.join(dir, 'org/setup.org'), past, new Date(Date.now() - 30_000))
    expect(tangle().status).toBe(0)
    expect(fs.readFileSync(path.join(dir, 'two.ts'), 'utf8')).toBe('x\n')
  })
})
