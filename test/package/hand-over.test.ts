/**
 * Which `passepartout` answers in a folder (bin/launch.mjs `projectInstallation`): the one a project installed for
 * itself, nearest the folder, when it is another installation than the one run; a table of layouts, made of real
 * folders and links. (package.test.ts runs the hand-over itself, between two installations npm made.)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, expect, it} from 'vitest'

const repo = path.resolve(import.meta.dirname, '..', '..')
const {projectInstallation} = (await import(pathToFileURL(path.join(repo, 'bin', 'launch.mjs')).href)) as {
  projectInstallation(cwd: string): string | undefined
}

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-hand-over-')))
afterAll(() => fs.rmSync(base, {recursive: true, force: true}))

/** Another installation: a folder whose bin/passepartout the links below lead to. */
const other = path.join(base, 'other-installation')
fs.mkdirSync(path.join(other, 'bin'), {recursive: true})
fs.writeFileSync(path.join(other, 'bin', 'passepartout'), '')

/** A project in a folder of its own under BASE whose node_modules/.bin/passepartout links to TARGET, if any. */
function project(name: string, target?: string, inner = ''): string {
  const root = path.join(base, name)
  fs.mkdirSync(path.join(root, 'node_modules', '.bin'), {recursive: true})
  fs.writeFileSync(path.join(root, 'package.json'), '{}')
  if (target) fs.symlinkSync(target, path.join(root, 'node_modules', '.bin', 'passepartout'))
  fs.mkdirSync(path.join(root, inner), {recursive: true})
  return path.join(root, inner)
}

/** A package of a workspace (a package.json of its own) whose root installed another installation. */
function workspacePackage(): string {
  const inner = project('workspace', path.join(other, 'bin', 'passepartout'), 'packages/a')
  fs.writeFileSync(path.join(inner, 'package.json'), '{}')
  return inner
}

const own = (name: string) => path.join(base, name, 'node_modules', '.bin', 'passepartout')

it.each<[string, () => string, string | undefined]>([
  ['a folder in no project', () => fs.mkdtempSync(path.join(base, 'plain-')), undefined],
  ['a project that installed none', () => project('none'), undefined],
  [
    'a project whose own links to the one run (npm link)',
    () => project('linked', path.join(repo, 'bin', 'passepartout')),
    undefined,
  ],
  [
    'a project with another installation',
    () => project('another', path.join(other, 'bin', 'passepartout')),
    own('another'),
  ],
  [
    'a folder inside that project',
    () => project('deep', path.join(other, 'bin', 'passepartout'), 'org/skills'),
    own('deep'),
  ],
  ['a workspace package, its installation at the root', () => workspacePackage(), own('workspace')],
  [
    'a project whose own leads nowhere',
    () => project('broken', path.join(base, 'gone', 'bin', 'passepartout')),
    undefined,
  ],
])('%s', (_, folder, answers) => {
  expect(projectInstallation(folder())).toBe(answers)
})
