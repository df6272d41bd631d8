/**
 * A project of one's own, outside the installation: a fresh folder holding copies of the shipped skills is checked
 * and run by this repository's `bin/passepartout`, `passepartout`, `passepartout/testing` and `vitest` resolving
 * to the installation (the first finding: 25 errors `Cannot find module 'passepartout'`, and a core that
 * would not start).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {DEFAULT_COMPILER_OPTIONS} from '../../tools/check/checker.ts'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {installationOptions, packageFolder} from '../../tools/installation.ts'
import {listOrgFiles} from '../../tools/project.ts'
import {ProjectSession} from '../../tools/session/project-session.ts'
import {tempProject} from '../support/temp-project.ts'

const repo = path.resolve(import.meta.dirname, '../..')
const cli = path.join(repo, 'bin', 'passepartout')

/** The shipped skill documents NAMES, as copies at their place in a project. */
const copies = (...names: string[]) =>
  Object.fromEntries(
    names.map((name) => [
      `org/skills/${name}.org`,
      fs.readFileSync(path.join(repo, 'org/skills', `${name}.org`), 'utf8'),
    ]),
  )

/** A person's shell: the shipped skills boot beside the project's (the tests' own cores boot none). */
const {SHIPPED_SKILLS: _, ...shell} = process.env

const passepartout = (args: string[], cwd: string) =>
  spawnSync(cli, [...args, '--no-frames'], {cwd, encoding: 'utf8', env: shell})

it('checks and runs a fresh folder holding copies of the shipped skills, their imports found in the installation', () => {
  const dir = tempProject(copies('policy', 'bouncer', 'shell-guard'))
  const checked = passepartout(['check'], dir)
  expect(checked.stderr).toBe('')
  expect(checked.status).toBe(0)
  const ran = passepartout(['run', '--once', '--no-watch'], dir)
  expect(ran.stderr).toBe('')
  expect(ran.stdout).toContain('org/skills/shell-guard.org replaces the shipped shell-guard\n')
  expect(ran.stdout).toMatch(/skills: 4 ready/)
  expect(ran.status).toBe(0)
})

/** A skill of its own, which imports the skill API, and its test, which imports the testing API, vitest and Node. */
const ownSkill = [
  '#+begin_src typescript :tangle ../../generated/skills/own.ts :mkdirp yes',
  "import {defineSkill} from 'passepartout'",
  "defineSkill({name: 'own', trigger: () => false})",
  '#+end_src',
  '#+begin_src typescript :tangle ../../generated/skills/own.test.ts :mkdirp yes',
  "import fs from 'node:fs'",
  "import {bootSkills} from 'passepartout/testing'",
  "import {expect, it} from 'vitest'",
  "it('boots', async () => expect(fs.existsSync('.') && (await bootSkills()).skills).toBeDefined())",
  '#+end_src',
  '',
].join('\n')

const sessions: ProjectSession[] = []
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close()
})

/** The problems of checking DIR's documents, as printed, with the native compiler or the warm one (WARM_ONLY). */
async function problems(dir: string, warmOnly: boolean): Promise<string[]> {
  const session = new ProjectSession({project: dir, warmOnly})
  sessions.push(session)
  const report = await session.check(listOrgFiles(path.join(dir, 'org')))
  expect(report.checker).toBe(warmOnly ? 'warm' : 'native')
  return report.diagnostics.map((message) => formatDiagnostic(message, dir))
}

/** A skill that uses Node's globals, and the browser's `document`, which the skill host has not (line 5). */
const globals = [
  '#+begin_src typescript :tangle ../../generated/skills/globals.ts :mkdirp yes',
  "import {defineSkill} from 'passepartout'",
  "const url = new URL('https://example.org/').href",
  "setTimeout(() => console.log(url, new TextEncoder().encode('x'), typeof fetch, structuredClone({})), 1)",
  'const page = document.title',
  "defineSkill({name: 'globals', trigger: () => page === ''})",
  '#+end_src',
  '',
].join('\n')

describe.each([
  ['native', false],
  ['warm', true],
] as const)("a project's imports of the installation (%s checker)", (_, warmOnly) => {
  /**
   * The problems of one project with no tsconfig.json of its own holding both documents, checked once for the two
   * tests, each of which reads its own document's: a checker costs its start and Node's types each project (2.5 s
   * of CPU the warm one).
   */
  let untyped: Promise<string[]> | undefined
  const withoutTsconfig = () =>
    (untyped ??= problems(tempProject({'org/skills/own.org': ownSkill, 'org/skills/globals.org': globals}), warmOnly))

  it('finds them with no tsconfig.json of its own', async () => {
    expect((await withoutTsconfig()).filter((problem) => !problem.startsWith('org/skills/globals.org:'))).toEqual([])
  })

  it("gives a skill Node's globals and not the browser's, which the skill host has not", async () => {
    expect((await withoutTsconfig()).filter((problem) => !problem.startsWith('org/skills/own.org:'))).toEqual([
      expect.stringMatching(/^org\/skills\/globals\.org:5:14: error TS2584: Cannot find name 'document'/),
    ])
  })

  it("finds them beside the project's own paths, read from the configuration its tsconfig.json extends", async () => {
    const tsconfig = {compilerOptions: {...DEFAULT_COMPILER_OPTIONS, types: ['node'], paths: {'#lib/*': ['./lib/*']}}}
    const dir = tempProject({
      'org/skills/own.org': ownSkill.replace(
        "import fs from 'node:fs'",
        "import fs from 'node:fs'\nimport {n} from '#lib/n.ts'\nvoid n",
      ),
      'lib/n.ts': 'export const n = 1\n',
      // Comments and a trailing comma, as a person writes a configuration; Node's types from the installation's.
      'base.json': `// the shared settings\n${JSON.stringify(tsconfig).replace(/}$/, ',}')}`,
      'tsconfig.json': JSON.stringify({
        extends: './base',
        compilerOptions: {typeRoots: [path.join(repo, 'node_modules/@types')]},
      }),
    })
    expect(await problems(dir, warmOnly)).toEqual([])
  })
})

describe('what the installation adds to a project', () => {
  it.each([
    ['the installation itself', repo, undefined],
    ['files outside any project under a tsconfig.json', undefined, '/notes/tsconfig.json'],
  ])('adds nothing for %s', (_, project, tsconfig) => {
    expect(installationOptions(project, tsconfig, repo)).toBeUndefined()
  })

  it("gives files outside any project, with no tsconfig.json, Node's types alone", () => {
    expect(installationOptions(undefined, undefined, repo)).toEqual({
      types: ['node'],
      typeRoots: [path.join(repo, 'node_modules/@types')],
      lib: ['ES2022'],
    })
  })

  it("maps each installed module to the installation's declarations, and gives Node's types", () => {
    expect(installationOptions(tempProject({}), undefined, repo)).toEqual({
      paths: {
        passepartout: [path.join(repo, 'generated/core/passepartout.ts')],
        'passepartout/testing': [path.join(repo, 'generated/core/testing.ts')],
        zod: [path.join(repo, 'node_modules/zod')],
        vitest: [path.join(repo, 'node_modules/vitest')],
        'fast-check': [path.join(repo, 'node_modules/fast-check')],
      },
      types: ['node'],
      typeRoots: [path.join(repo, 'node_modules/@types')],
      lib: ['ES2022'],
    })
  })
})

describe('the packages the installation gives', () => {
  /** A project whose node_modules holds zod of its own. */
  const owner = () => tempProject({'node_modules/zod/package.json': '{"name": "zod", "version": "4.0.0"}'})

  it.each([
    ['zod, from a project without it', 'zod', false, 'installation'],
    ['a module of zod, from a project without it', 'zod/v4', false, 'installation'],
    ['zod, from a project with its own', 'zod', true, 'project'],
    ['a package the installation does not give', 'date-fns', false, 'project'],
  ])('finds %s in the %s', (_, specifier, own, expected) => {
    const dir = own ? owner() : tempProject({})
    const folder = path.join(dir, 'generated', 'skills')
    expect(packageFolder(specifier, folder, repo)).toBe(expected === 'installation' ? repo : folder)
  })

  it('maps for the type check only those the project does not have', () => {
    const {paths} = installationOptions(owner(), undefined, repo) as {paths: Record<string, string[]>}
    expect(Object.keys(paths)).toEqual(['passepartout', 'passepartout/testing', 'vitest', 'fast-check'])
  })
})

/** A copy of this installation as a fresh clone is: no generated/ (nothing tangled yet), its own node_modules/ of links. */
function freshClone(): string {
  const copy = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'passepartout-clone-'))
  for (const entry of ['org', 'bin', 'tools', 'package.json', 'tsconfig.json'])
    fs.cpSync(path.join(repo, entry), path.join(copy, entry), {recursive: true})
  fs.mkdirSync(path.join(copy, 'node_modules'))
  for (const entry of fs.readdirSync(path.join(repo, 'node_modules')).filter((name) => name !== '.cache'))
    fs.symlinkSync(path.join(repo, 'node_modules', entry), path.join(copy, 'node_modules', entry))
  return copy
}

it("checks and tests a project with a fresh clone as the installation, whose core is tangled first (as run's is)", () => {
  const clone = freshClone()
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-clone-project-'))
  const run = (args: string[], cwd: string) =>
    spawnSync(path.join(clone, 'bin/passepartout'), args, {cwd, encoding: 'utf8', env: shell})
  expect(run(['init', 'demo'], parent).status).toBe(0)
  const project = path.join(parent, 'demo')
  const checked = run(['check', '--no-frames'], project)
  expect(checked.stderr).toBe('')
  expect(checked.status).toBe(0)
  expect(run(['test'], project).status).toBe(0)
})
