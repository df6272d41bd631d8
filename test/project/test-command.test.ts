/**
 * `passepartout test` in a project of one's own: the project is tangled and checked, then the Test Suites its own
 * documents tangle run with the installation's vitest, `passepartout/testing` the installation's runtime; never
 * the installation's own tests. Real processes on real folders, the project sharing nothing with this repository
 * but the installation.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

/** This process's environment without what vitest tells its own workers: the command runs a vitest of its own. */
const environment = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(VITEST|NO_COLOR$|FORCE_COLOR$)/.test(name)),
)

const passepartout = (args: string[], cwd: string, colour: NodeJS.ProcessEnv = {NO_COLOR: '1'}) =>
  spawnSync(cli, [...args, '--no-frames'], {cwd, encoding: 'utf8', env: {...environment, ...colour}})

/** A skill document NAME with a tool, and a Test Suite that calls the tool and expects EXPECTED. */
const skill = (name: string, expected: string) =>
  [
    `#+TITLE: ${name}`,
    '* Implementation',
    `#+begin_src typescript :tangle ../../generated/skills/${name}.ts :mkdirp yes`,
    "import {defineSkill, defineTool} from 'passepartout'",
    "import {z} from 'zod'",
    `defineSkill({name: '${name}', trigger: () => false})`,
    `defineTool({name: '${name}', description: 'Greets.', params: z.object({who: z.string()}), run: ({who}) => \`hello \${who}\`})`,
    '#+end_src',
    '* Test Suite',
    `#+begin_src typescript :tangle ../../generated/skills/${name}.test.ts :mkdirp yes`,
    "import {bootSkills} from 'passepartout/testing'",
    "import {expect, it} from 'vitest'",
    `it('greets', async () => {`,
    `  expect(await (await bootSkills()).tool('${name}', {who: 'Ada'})).toEqual({ok: true, output: '${expected}'})`,
    '})',
    '#+end_src',
    '',
  ].join('\n')

/** A document of a word function and its Test Suite, whose two tests fail: one by its `expect`, one in the function. */
const words = [
  '#+TITLE: words',
  '* Implementation',
  '#+begin_src typescript :tangle ../../generated/skills/words.ts :mkdirp yes',
  '/** WORD said loudly: there is nothing to say loudly in an empty word. */',
  'export function shout(word: string): string {',
  "  if (word === '') throw new Error('nothing to shout')",
  '  return `${word.toUpperCase()}!`',
  '}',
  '#+end_src',
  '* Test Suite',
  '#+begin_src typescript :tangle ../../generated/skills/words.test.ts :mkdirp yes',
  "import {expect, it} from 'vitest'",
  "import {shout} from './words.ts'",
  '',
  "it('shouts', () => {",
  "  expect(shout('hey')).toBe('HEY')",
  '})',
  '',
  "it('shouts nothing', () => {",
  "  expect(shout('')).toBe('!')",
  '})',
  '#+end_src',
  '',
]

const project = tempProject({
  'org/skills/greeter.org': skill('greeter', 'hello Ada'),
  'org/skills/sour.org': skill('sour', 'goodbye Ada'),
  'org/skills/words.org': words.join('\n'),
})

/**
 * `passepartout test org/skills/greeter.org` in a terminal's environment, run once for the two tests that read it (a
 * run costs a check and a vitest): what it runs, and that it colours nothing in a pipe.
 */
let inTerminal: ReturnType<typeof passepartout> | undefined
const namedInTerminal = () =>
  (inTerminal ??= passepartout(['test', 'org/skills/greeter.org'], project, {TERM: 'xterm'}))

it("runs the Test Suites of the documents named, and only the project's, with the installation's vitest", () => {
  const result = namedInTerminal()
  expect(result.stdout).toContain('generated/skills/greeter.test.ts')
  expect(result.stdout).not.toContain('sour.test.ts')
  expect(result.stdout).not.toContain('words.test.ts')
  expect(result.stdout).toMatch(/Test Files +1 passed \(1\)/)
  expect(result.status).toBe(0)
})

it("leaves in the project nothing of vitest's: its cache goes to the project's cache folder", () => {
  expect(namedInTerminal().status).toBe(0)
  expect(fs.existsSync(path.join(project, 'node_modules'))).toBe(false)
})

/**
 * `passepartout test` on the whole project, coloured as FORCE_COLOR asks, run once for the three tests that read it
 * (a run costs a check and a vitest): what it runs, where it places a failure, and that it colours when told. What
 * it printed is read without its colours where the words matter.
 */
let whole: ReturnType<typeof passepartout> | undefined
const everyColoured = () => (whole ??= passepartout(['test'], project, {FORCE_COLOR: '1'}))

it("runs every Test Suite of the project's documents, its exit status vitest's", () => {
  const result = everyColoured()
  expect(stripVTControlCharacters(result.stdout)).toMatch(/Test Files +2 failed \| 1 passed \(3\)/)
  expect(result.status).toBe(1)
})

it('places a failing test at its Org line and column, with the Org lines around it, and so the code it calls', () => {
  const result = everyColoured()
  const printed = stripVTControlCharacters(result.stdout + result.stderr)
  // Line 16 is the failing `expect`, line 6 the `throw` of the function the other test calls.
  const expectLine = words[15]!
  expect(printed).toContain(`❯ org/skills/words.org:16:${expectLine.indexOf('toBe') + 1}\n`)
  expect(printed).toContain(`16| ${expectLine}\n`)
  expect(printed).toMatch(/❯ shout org\/skills\/words\.org:6:\d+\n/)
  expect(printed).not.toMatch(/generated\/skills\/words(\.test)?\.ts:/)
  expect(result.status).toBe(1)
})

it('runs no test in a project that does not check, and says why at the Org line', () => {
  const broken = tempProject({'org/skills/greeter.org': skill('greeter', 'hello Ada').replace('({who})', '({whom})')})
  const result = passepartout(['test'], broken)
  expect(result.stderr).toMatch(/^org\/skills\/greeter\.org:7:\d+: error TS\d+: .*\[ts\]$/m)
  expect(result.stdout).not.toContain('Test Files')
  expect(result.status).toBe(1)
})

it('colours what vitest prints as the other commands colour theirs: not in a pipe, unless FORCE_COLOR says so', () => {
  const escape = '\x1b['
  // vitest alone colours a pipe too (tinyrainbow colours whatever the stream, but for a dumb terminal).
  expect(namedInTerminal().stdout).not.toContain(escape)
  expect(everyColoured().stdout).toContain(escape)
})

it("checks a project's tests against the vitest that runs them, the installation's, when it holds a vitest of its own", () => {
  // A vitest of another version in the project's node_modules, which declares no `describe`; the installation's does.
  const own = tempProject({
    'org/skills/greeter.org': skill('greeter', 'hello Ada')
      .replace("import {expect, it} from 'vitest'", "import {describe, expect, it} from 'vitest'")
      .replace("it('greets',", "describe('greeter', () => it('greets',")
      .replace('\n})\n#+end_src', '\n}))\n#+end_src'),
    'node_modules/vitest/package.json': JSON.stringify({name: 'vitest', version: '0.1.0', types: 'index.d.ts'}),
    'node_modules/vitest/index.d.ts': 'export declare const it: any, expect: any\n',
  })
  const result = passepartout(['test'], own)
  expect(result.stderr).toBe('')
  expect(result.stdout).toMatch(/Test Files +1 passed \(1\)/)
  expect(result.status).toBe(0)
})
