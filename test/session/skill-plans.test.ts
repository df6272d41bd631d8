/**
 * The plans of skill documents kept between processes (skill-plans.ts): a kept plan is taken only while
 * what decided it is as it was, the project its document is in among them. Real files in a temporary folder.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {fileStamp, planMeta, SkillPlans} from '../../tools/session/skill-plans.ts'
import {planFile} from '../../tools/tangle/run-document.ts'
import {olderThan} from '../support/file-age.ts'

const skill = [
  '#+begin_src typescript :tangle ../../generated/skills/note.ts :mkdirp yes',
  'export const note = 1',
  '#+end_src',
  '',
].join('\n')

/** A folder with org/skills/note.org (and node_modules, so that its state stays in it), a package.json or not. */
function folder(withPackage: boolean): {dir: string; file: string} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-plans-'))
  const file = path.join(dir, 'org/skills/note.org')
  fs.mkdirSync(path.dirname(file), {recursive: true})
  fs.mkdirSync(path.join(dir, 'node_modules'))
  fs.writeFileSync(file, skill)
  if (withPackage) fs.writeFileSync(path.join(dir, 'package.json'), '{}')
  return {dir, file}
}

describe('a kept skill plan', () => {
  it.each([
    {when: 'a package.json is written above a document outside any project', before: true, failed: true},
    {when: "the project's package.json is removed", before: false, failed: false},
  ])('is planned again when $when', async ({before, failed}) => {
    const {dir, file} = folder(!before)
    await olderThan(file, 60)
    const stamp = fileStamp(file)!
    const plan = planFile(file, [])
    expect(plan.failed).toBe(failed)
    SkillPlans.open(dir, 'build-1', [])!.keep(file, stamp, {plan, meta: planMeta(plan)})
    expect(SkillPlans.open(dir, 'build-1', [])!.get(file, stamp)?.plan.failed).toBe(failed)

    if (before) fs.writeFileSync(path.join(dir, 'package.json'), '{}')
    else fs.rmSync(path.join(dir, 'package.json'))
    expect(SkillPlans.open(dir, 'build-1', [])!.get(file, stamp)).toBeUndefined()
  })
})
