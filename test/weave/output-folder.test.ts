/**
 * `passepartout weave -o OUT` refuses, in one line and exit 2 as other usage errors, before anything is written,
 * an OUT whose site would go over what is not the site's: the project's root, a folder holding a document woven,
 * a folder inside a folder woven, a file; and the same reached through a link (resolved first). A folder of its
 * own, even one that does not exist yet, is taken.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

const cases: {name: string; args: string[]; refused: RegExp | null}[] = [
  {name: 'a folder of its own', args: ['-o', 'site'], refused: null},
  {name: 'a folder to be made under the project', args: ['-o', 'generated/other/site'], refused: null},
  {name: 'the project root', args: ['-o', '.'], refused: /-o \. is the project's own folder/},
  {name: 'the folder of the documents', args: ['-o', 'org'], refused: /-o org holds org\/a\.org, a document woven/},
  {name: 'a folder inside the folder woven', args: ['-o', 'org/site'], refused: /-o org\/site is inside org/},
  {name: 'a file', args: ['-o', 'notes.txt'], refused: /-o notes\.txt is a file, not a folder/},
  {name: 'a link to the project root', args: ['-o', 'root-link'], refused: /-o root-link is the project's own/},
  {name: 'a link to the documents', args: ['-o', 'org-link/site'], refused: /-o org-link\/site is inside org/},
]

describe('passepartout weave -o', () => {
  it.each(cases)('$name', ({args, refused}) => {
    const project = tempProject({'org/a.org': '#+TITLE: A\n* A\n', 'notes.txt': 'mine\n'}, 'passepartout-weave-o-')
    fs.symlinkSync(project, path.join(project, 'root-link'))
    fs.symlinkSync(path.join(project, 'org'), path.join(project, 'org-link'))
    const before = listing(project)
    const result = spawnSync(cli, ['weave', '--no-frames', ...args], {cwd: project, encoding: 'utf8'})
    if (refused === null) {
      expect(result.status).toBe(0)
      return expect(fs.existsSync(path.join(project, args[1]!, 'index.html'))).toBe(true)
    }
    expect(result.status).toBe(2)
    const [first] = result.stderr.split('\n')
    expect(first).toMatch(/^passepartout weave: /)
    expect(first).toMatch(refused)
    expect(result.stdout).toBe('')
    expect(listing(project)).toEqual(before)
  })
})

/** Every path under FOLDER (links not followed), with a file's bytes: what a refused weave must leave as it was. */
function listing(folder: string): string[] {
  return fs
    .readdirSync(folder, {recursive: true, encoding: 'utf8'})
    .filter((entry) => !entry.startsWith('node_modules'))
    .sort()
    .map((entry) => {
      const stat = fs.lstatSync(path.join(folder, entry))
      return stat.isFile() ? `${entry} ${fs.readFileSync(path.join(folder, entry), 'utf8')}` : entry
    })
}
