/**
 * `passepartout weave` as a process, on a project where one document does not read: its error at the Org line,
 * the other document's page written, the summary on stdout, exit status 1; -o puts the site where it says.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

describe('passepartout weave', () => {
  it('says a document that does not read at its line, weaves the others, and exits 1', () => {
    const project = tempProject(
      {
        'org/broken.org': '#+TITLE: Broken\n#+begin_src typescript :tangle ../nowhere/x.ts\nexport {}\n#+end_src\n',
        'org/fine.org': '#+TITLE: Fine\nSome /prose/.\n',
      },
      'passepartout-weave-',
    )
    const result = spawnSync(cli, ['weave', '--no-frames', '-o', 'site'], {cwd: project, encoding: 'utf8'})
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^org\/broken\.org:2:1: error: .* \[tangle\/missing-directory\]$/m)
    expect(result.stdout).toMatch(
      /^wove 1 document into site\/ \(5 files written, 0 unchanged, 1 not woven\) in \d+ ms\n$/,
    )
    expect(fs.existsSync(path.join(project, 'site', 'org', 'fine.html'))).toBe(true)
    expect(fs.existsSync(path.join(project, 'site', 'org', 'broken.html'))).toBe(false)
    expect(fs.existsSync(path.join(project, 'generated', 'site'))).toBe(false)
  })
})
