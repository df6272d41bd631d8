/**
 * Skill documents of one file name: which one holds the name (skill-twins.ts),
 * and the check's document graph, which resolves a `#+DEPENDS_ON:` word to
 * that one as the core does; what a removed document declared leaves the
 * session. Real documents in a temporary project, checked by a real session.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {ProjectSession} from '../../tools/session/project-session.ts'
import {skillTwins} from '../../tools/session/skill-twins.ts'
import {tempProject} from '../support/temp-project.ts'

const block = (target: string, ...lines: string[]) =>
  [`#+begin_src typescript :tangle ${target} :mkdirp yes`, ...lines, '#+end_src', ''].join('\n')
const graphProblems = (dir: string, diagnostics: Parameters<typeof formatDiagnostic>[0][]) =>
  diagnostics
    .filter((message) => String(message.ruleId).startsWith('graph/'))
    .map((message) => formatDiagnostic(message, dir))

describe('skill documents of one name', () => {
  it('are held by the one nearest the skills folder, then the first by path; the others are twins', () => {
    const skills = '/p/org/skills'
    const names = ['a/policy.org', 'policy.org', 'b/c/policy.org', 'x/bouncer.org', 'w/bouncer.org', 'lone.org']
    const twins = [...skillTwins(names.map((file) => path.join(skills, file)))].map((pair) =>
      pair.map((file) => path.relative(skills, file)),
    )
    expect(twins.sort()).toEqual([
      ['a/policy.org', 'policy.org'],
      ['b/c/policy.org', 'policy.org'],
      ['x/bouncer.org', 'w/bouncer.org'],
    ])
  })

  it('leave a #+DEPENDS_ON: word naming the holder in the check; others of one name stay ambiguous', async () => {
    const dir = tempProject({
      'org/skills/policy.org': block('../../generated/skills/policy.ts', 'export const one = 1'),
      'org/skills/sub/policy.org': block('../../../generated/skills/sub-policy.ts', 'export const two = 2'),
      'org/skills/bouncer.org':
        `#+DEPENDS_ON: policy\n${block('../../generated/skills/bouncer.ts', 'export const three = 3')}`,
      'org/notes/a/plan.org': 'A plan.\n',
      'org/notes/b/plan.org': 'Another plan.\n',
      'org/notes/todo.org': '#+DEPENDS_ON: plan\n',
    })
    const session = new ProjectSession({project: dir})
    const checked = await session.check(session.documents())
    expect(graphProblems(dir, checked.diagnostics)).toEqual([
      "org/notes/todo.org:1:15: error: 'plan' names several documents (org/notes/a/plan.org, org/notes/b/plan.org) " +
        '[graph/ambiguous-dependency]',
    ])
  })

  it('leave the session with what a removed one declared', async () => {
    const dir = tempProject({
      'org/notes/a/plan.org': 'A plan.\n',
      'org/notes/b/plan.org': 'Another plan.\n',
      'org/notes/todo.org': '#+DEPENDS_ON: plan\n',
    })
    const session = new ProjectSession({project: dir})
    expect(graphProblems(dir, (await session.check(session.documents())).diagnostics)).toHaveLength(1)
    const removed = path.join(dir, 'org/notes/b/plan.org')
    fs.rmSync(removed)
    await session.forget([removed])
    fs.writeFileSync(path.join(dir, 'org/notes/todo.org'), '#+DEPENDS_ON: plan\nStill.\n')
    try {
      expect(graphProblems(dir, (await session.recheck([path.join(dir, 'org/notes/todo.org')])).diagnostics)).toEqual([])
    } finally {
      // Its warm type checker's thread ends here: this file's process goes on to other files.
      await session.close()
    }
  })
})
