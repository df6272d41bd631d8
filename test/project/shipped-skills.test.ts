/**
 * The shipped skills in a project of one's own, driven by this repository's `bin/passepartout` as the
 * installation: booted from the installation beside the project's skills, a project document of a shipped
 * skill's name replacing it (said at boot), passepartout.json turning one off (a mandatory one, or a name that is
 * none, refused at its place), and each skill's origin said by `skills` and `status`. The project holds no copy.
 */
import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readProjectConfig} from '../../generated/core/config.ts'
import {diagnosticJson} from '../../tools/diagnostics.ts'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

/** The environment of a person's shell: every shipped skill boots (the tests' own cores boot none). */
const {SHIPPED_SKILLS: _, ...rest} = process.env
const environment = {...rest, NO_COLOR: '1'}

const passepartout = (args: string[], cwd: string) =>
  spawnSync(cli, [...args, '--no-frames'], {cwd, encoding: 'utf8', env: environment})

/** A skill document NAME of the project that defines a skill of its name and nothing else. */
const skill = (name: string) =>
  [
    `#+TITLE: ${name}`,
    `#+begin_src typescript :tangle ../../generated/skills/${name}.ts :mkdirp yes`,
    "import {defineSkill} from 'passepartout'",
    `defineSkill({name: '${name}', trigger: () => false})`,
    '#+end_src',
    '',
  ].join('\n')

const settings = `{
  // off: the shell guard; not off: the policy, which is mandatory; nothing: a name that is no shipped skill
  "skills": {
    "shell-guard": false,
    "policy": false,
    "scribbe": false,
  },
}
`

const dir = tempProject({
  'org/skills/mine.org': skill('mine'),
  'org/skills/scribe.org': skill('scribe'),
  'passepartout.json': settings,
})

describe('passepartout skills in a project of its own', () => {
  it("boots the shipped skills beside the project's, each with its origin; says the one replaced and the switches refused", () => {
    const result = passepartout(['skills', '--json'], dir)
    const report = JSON.parse(result.stdout) as {
      skills: {name: string; origin: string; status: string}[]
      replaced: string[]
      problems: {file: string; line: number; column: number; rule: string; reason: string}[]
      failures: unknown[]
    }
    expect(report.skills.map(({name, origin, status}) => [name, origin, status])).toEqual([
      ['bouncer', 'shipped', 'ready'],
      ['mine', 'project', 'ready'],
      ['policy', 'shipped', 'ready'],
      ['scribe', 'project', 'ready'],
    ])
    expect(report.replaced).toEqual(['org/skills/scribe.org replaces the shipped scribe'])
    expect(report.problems.map(({file, line, column, rule}) => `${file}:${line}:${column} ${rule}`)).toEqual([
      'passepartout.json:5:5 config/invalid',
      'passepartout.json:6:5 config/invalid',
    ])
    expect(report.problems.map((problem) => problem.reason)).toEqual([
      expect.stringMatching(/^skills\.policy cannot be off: 'policy' is mandatory/),
      expect.stringMatching(/^'scribbe' is no shipped skill \(they are bouncer, policy, scribe, shell-guard\)/),
    ])
    expect([report.failures, result.status]).toEqual([[], 0])
  })

  it('prints the origin of each in the table, then the replacement, then the summary', () => {
    const lines = passepartout(['skills'], dir).stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^skill +origin +status +load ms +first error$/)
    expect(lines[1]).toMatch(/^bouncer +shipped +ready +\d+\.\d$/)
    expect(lines[4]).toMatch(/^scribe +project +ready +\d+\.\d$/)
    expect(lines.slice(5, 6)).toEqual(['org/skills/scribe.org replaces the shipped scribe'])
    expect(lines.at(-1)).toMatch(/^skills: 4 ready \(\d+ ms\)$/)
  })
})

/** A problem as `skills --json` prints it (diagnosticJson): the file relative to the project, the place, the rule. */
type Problem = {file: string; line: number; column: number; rule: string; reason: string}
const placed = ({file, line, column, rule}: Problem) => `${file}:${line}:${column} ${rule}`

describe('passepartout skills on switches the file gets wrong', () => {
  // What the command and the running core say of the file is what its reader says: the table asks the reader, the
  // first row the command too (each run of it boots a core with the shipped skills).
  it.each([
    ['a switch that is no true or false', '{"skills": {"scribe": "off"}}', '1:13', /^skills\.scribe is not valid/],
    [
      'a switch given twice',
      '{"skills": {"scribe": false, "scribe": true}}',
      '1:30',
      /'skills\.scribe' is given twice/,
    ],
    ['skills that are no object of switches', '{"skills": ["scribe"]}', '1:2', /^skills is not valid/],
  ])('says %s at its place, as the running core does', (_, settings, place, reason) => {
    const project = tempProject({'org/skills/mine.org': skill('mine'), 'passepartout.json': settings})
    const problems = readProjectConfig(project).problems.map((problem) => diagnosticJson(problem, project) as Problem)
    expect(problems.map(placed)).toEqual([`passepartout.json:${place} config/invalid`])
    expect(problems[0]!.reason).toMatch(reason)
  })

  it('says them as the command prints them', () => {
    const project = tempProject({
      'org/skills/mine.org': skill('mine'),
      'passepartout.json': '{"skills": {"scribe": "off"}}',
    })
    const report = JSON.parse(passepartout(['skills', '--json'], project).stdout) as {problems: Problem[]}
    expect(report.problems.map(placed)).toEqual(['passepartout.json:1:13 config/invalid'])
    expect(report.problems[0]!.reason).toMatch(/^skills\.scribe is not valid/)
  })
})

describe('a skill of the project that depends on a shipped skill turned off', () => {
  it('fails, said to depend on a skill turned off, not on one unknown', () => {
    const mine = skill('mine').replace('#+TITLE: mine\n', '#+TITLE: mine\n#+DEPENDS_ON: scribe\n')
    const project = tempProject({'org/skills/mine.org': mine, 'passepartout.json': '{"skills": {"scribe": false}}'})
    const report = JSON.parse(passepartout(['skills', '--json'], project).stdout) as {
      skills: {name: string; status: string; errors: {line: number; column: number; rule: string; reason: string}[]}[]
    }
    const failed = report.skills.find((entry) => entry.name === 'mine')!
    expect(failed.status).toBe('failed')
    expect(failed.errors.map(({line, column, rule, reason}) => [line, column, rule, reason])).toEqual([
      [2, 15, 'graph/unknown-dependency', expect.stringMatching(/'scribe'.*shipped skill.*turned off/)],
    ])
  })
})

describe('the running core of a project of its own', () => {
  let core: ReturnType<typeof spawn>
  let said = ''
  beforeAll(async () => {
    core = spawn(cli, ['run', '--no-watch', '--no-frames'], {cwd: dir, env: environment})
    core.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()))
    core.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()))
    const deadline = Date.now() + 60_000
    while (!/health: /.test(said) && core.exitCode === null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50))
  })
  afterAll(async () => {
    if (core.exitCode === null && core.signalCode === null) {
      core.kill('SIGTERM')
      await new Promise((resolve) => core.once('exit', resolve))
    }
  })

  it('says at boot which shipped skill a document of the project replaces', () => {
    expect(said).toContain('org/skills/scribe.org replaces the shipped scribe\n')
    expect(said).toMatch(/skills: 4 ready/)
  })

  it('says the origin of each skill in its status, as a table and in JSON', () => {
    expect(passepartout(['status'], dir).stdout).toMatch(/^bouncer +shipped +ready/m)
    const report = JSON.parse(passepartout(['status', '--json'], dir).stdout) as {
      skills: {name: string; origin: string}[]
    }
    expect(report.skills.map(({name, origin}) => `${name} ${origin}`)).toEqual([
      'bouncer shipped',
      'mine project',
      'policy shipped',
      'scribe project',
    ])
  })
})

describe("the installation's shipped documents", () => {
  it('are read, never tangled or written, by the commands run on a project', () => {
    const repo = path.resolve(import.meta.dirname, '../..')
    const files = ['org/skills', 'generated/skills'].flatMap((folder) =>
      fs.readdirSync(path.join(repo, folder)).map((entry) => path.join(repo, folder, entry)),
    )
    const stamps = () => files.map((file) => `${file} ${fs.statSync(file).mtimeMs}`)
    const before = stamps()
    for (const command of [['check'], ['skills'], ['run', '--once', '--no-watch']]) passepartout(command, dir)
    expect(stamps()).toEqual(before)
  })
})

describe('the check of a project of its own', () => {
  it('takes a dependency on a shipped skill for one a document answers: the core boots it beside', () => {
    const mine = skill('mine').replace('#+TITLE: mine\n', '#+TITLE: mine\n#+DEPENDS_ON: policy bouncer\n')
    const checked = passepartout(['check'], tempProject({'org/skills/mine.org': mine}))
    expect(checked.stderr).toBe('')
    expect(checked.status).toBe(0)
  })
})
