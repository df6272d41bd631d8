/**
 * Skill documents as the project session reads them for the core: their
 * modules from the tangle, the refusals of the sandbox rules, and their load
 * order. Real documents in a temporary project.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {sandboxRulesOf, SandboxVerdicts} from '../../tools/check/sandbox-verdicts.ts'
import {formatDiagnostic} from '../../tools/diagnostics.ts'
import {ProjectSession} from '../../tools/session/project-session.ts'
import {API_VERSION, skillGraph} from '../../tools/session/skill-documents.ts'
import {checkersGone, checkersOf} from '../support/checker-processes.ts'
import {olderThan} from '../support/file-age.ts'
import {tempProject} from '../support/temp-project.ts'

const project = (files: Record<string, string>) => tempProject(files, 'passepartout-skills-')

const block = (target: string, ...lines: string[]) =>
  ['#+begin_src typescript :tangle ' + target + ' :mkdirp yes', ...lines, '#+end_src', ''].join('\n')
const read = (dir: string, file: string) => new ProjectSession({project: dir}).readSkill(path.join(dir, file))

describe('a skill document read by the session', () => {
  it('takes its modules from the tangle, wherever they go, and never the tests; writes nothing', async () => {
    const dir = project({
      'org/skills/pair.org': [
        block('../../generated/skills/pair/main.ts', 'export const one = 1'),
        block('helper.mts', 'export const two = 2'),
        block('../../generated/skills/pair.test.ts', 'test'),
        block('notes.txt', 'text'),
      ].join('\n'),
    })
    const document = await read(dir, 'org/skills/pair.org')
    expect(document.blocked).toBeUndefined()
    expect(document.modules.map((module) => path.relative(dir, module.path))).toEqual([
      'generated/skills/pair/main.ts',
      'org/skills/helper.mts',
    ])
    expect(document.modules[0]!.code).toBe('export const one = 1\n')
    expect(fs.existsSync(path.join(dir, 'generated'))).toBe(false)
  })

  it.each([
    ['the core', '../../generated/core/engine.ts'],
    ['a package', '../../node_modules/zod/index.js'],
    ['a package beside it', 'node_modules/evil/index.js'],
    ['an Org document', 'bouncer.org'],
    ['elsewhere in the project', '../../lib/main.ts'],
  ])('is refused when it would tangle into %s', async (_where, target) => {
    const dir = project({'org/skills/writer.org': `#+TITLE: Writer\n${block(target, 'export const x = 1')}`})
    const document = await read(dir, 'org/skills/writer.org')
    expect(document.blocked).toBe('sandbox-blocked')
    expect(document.problems.map((message) => formatDiagnostic(message, dir))).toEqual([
      expect.stringMatching(/^org\/skills\/writer\.org:2:1: error: a skill document may .*\[sandbox\/tangle-target\]$/),
    ])
  })

  it('is read where an installation lies among packages (node_modules/passepartout/org/skills/), its own targets not refused', async () => {
    const dir = project({'node_modules/passepartout/package.json': '{"name": "passepartout"}'})
    const installed = path.join(dir, 'node_modules/passepartout')
    fs.mkdirSync(path.join(installed, 'org/skills'), {recursive: true})
    fs.writeFileSync(
      path.join(installed, 'org/skills/guard.org'),
      block('../../generated/skills/guard.ts', 'export const x = 1'),
    )
    const document = await new ProjectSession({project: dir}).readSkill(path.join(installed, 'org/skills/guard.org'))
    expect(document.problems).toEqual([])
    expect(document.modules.map((module) => path.relative(installed, module.path))).toEqual([
      'generated/skills/guard.ts',
    ])
  })

  it('is failed, at its position, when the tangler refuses it', async () => {
    const dir = project({'org/skills/bad.org': '* Code\n#+begin_src typescript :tangle missing/x.ts\nx\n#+end_src\n'})
    const document = await read(dir, 'org/skills/bad.org')
    expect(document.blocked).toBe('failed')
    expect(document.problems.map((message) => formatDiagnostic(message, dir))).toEqual([
      expect.stringMatching(/^org\/skills\/bad\.org:2:1: error: .*\[tangle\/missing-directory\]$/),
    ])
  })

  it('is failed at the line of a #+begin_src with no #+end_src, which tangle and check keep a warning', async () => {
    const block = '#+begin_src typescript :tangle ../../generated/skills/open.ts :mkdirp yes'
    const open = ['#+TITLE: Open', '* Code', block, 'export const x = 1', '']
    const dir = project({'org/skills/open.org': open.join('\n')})
    const session = new ProjectSession({project: dir})
    const checked = await session.check([path.join(dir, 'org/skills/open.org')])
    const where = (message: Parameters<typeof formatDiagnostic>[0]) => formatDiagnostic(message, dir).split(': ')[0]
    const said = checked.diagnostics.map((message) => `${where(message)} ${message.ruleId}`)
    expect(said).toEqual(['org/skills/open.org:3:1 org/unterminated-block'])
    expect(checked.diagnostics.map((message) => message.fatal)).toEqual([false])
    const document = await session.readSkill(path.join(dir, 'org/skills/open.org'))
    expect(document.blocked).toBe('failed')
    expect(document.problems.map((message) => formatDiagnostic(message, dir))).toEqual([
      'org/skills/open.org:3:1: error: #+begin_src has no matching #+end_src before the end of the file: ' +
        'Org reads it as text and tangles nothing from it; ' +
        'the core does not load a skill document with an unterminated block ' +
        '[skill/unterminated-block]',
    ])
  })

  it('is blocked when it uses what it was not granted, and loads once granted', async () => {
    const code = block(
      'runner.ts',
      "import {execSync} from 'node:child_process'",
      "export const run = () => execSync('ls')",
    )
    const dir = project({
      'org/skills/runner.org': `#+TITLE: Runner\n${code}`,
      'org/skills/granted.org': `#+CAPABILITIES: shell\n${code.replace('runner.ts', 'granted.ts')}`,
    })
    const runner = await read(dir, 'org/skills/runner.org')
    expect(runner.blocked).toBe('sandbox-blocked')
    expect(runner.problems.map((message) => formatDiagnostic(message, dir))).toEqual([
      "org/skills/runner.org:3:24: error: skill 'runner' uses child_process without the 'shell' capability [sandbox/restricted-import]",
    ])
    expect((await read(dir, 'org/skills/granted.org')).blocked).toBeUndefined()
  })

  // TypeScript's parser, which the rules read the code with, is loaded there and not in the process that reads the
  // skill: a core that judged its skills as it booted does not hold it for as long as it runs.
  it("is judged in the type checker's process, which leaves once idle", async () => {
    const code = block('runner.ts', "import {execSync} from 'node:child_process'", 'export const run = execSync')
    const dir = project({'tsconfig.json': '{}', 'org/skills/runner.org': `#+TITLE: Runner\n${code}`})
    const session = new ProjectSession({project: dir, checkerIdleMs: 2000})
    expect((await session.readSkill(path.join(dir, 'org/skills/runner.org'))).blocked).toBe('sandbox-blocked')
    expect(checkersOf(dir)).toHaveLength(1)
    expect(await checkersGone(dir)).toBe(true)
  })

  it("comes from the plan of the session's last tangle while the document is unchanged, and is planned again once it changed", async () => {
    const dir = project({
      'node_modules/.keep': '',
      'org/skills/one.org': block('../../generated/skills/one.ts', 'export const one = 1'),
    })
    const file = path.join(dir, 'org/skills/one.org')
    const past = new Date(Date.now() - 60_000)
    fs.utimesSync(file, past, past)
    // A file changed (its times set) within the clock tick of now is not trusted to be the one planned.
    await olderThan(file, 100)
    const session = new ProjectSession({project: dir})
    await session.tangle(session.documents())
    const first = await session.readSkill(file)
    const second = await session.readSkill(file)
    // One plan, the tangle's: the same lines, not planned again.
    expect(second.modules[0]!.lines).toBe(first.modules[0]!.lines)
    fs.writeFileSync(file, block('../../generated/skills/one.ts', 'export const one = 2'))
    const changed = await session.readSkill(file)
    expect(changed.modules[0]!.code).toBe('export const one = 2\n')
  })
})

describe('the plans kept between sessions', () => {
  const plans = (dir: string) => path.join(dir, 'node_modules/.cache/passepartout/plans')
  const one = (value: string) => block('../../generated/skills/one.ts', `export const one = ${value}`)
  const code = async (dir: string) => (await read(dir, 'org/skills/one.org')).modules[0]!.code
  afterEach(() => vi.unstubAllEnvs())

  it('give a new session the plan of a skill unchanged since another planned it; a change, another build or a damaged plan is planned again', async () => {
    // Plans are kept for a build of the tool only (`bin/launch.mjs` names it): this test is one, then another.
    vi.stubEnv('PASSEPARTOUT_BUILD', 'build-1')
    const dir = project({'node_modules/.keep': '', 'org/skills/one.org': one('1')})
    const file = path.join(dir, 'org/skills/one.org')
    const past = new Date(Date.now() - 60_000)
    fs.utimesSync(file, past, past)
    await olderThan(file, 100)
    expect(await code(dir)).toBe('export const one = 1\n')
    const [kept] = fs.readdirSync(plans(dir)).map((name) => path.join(plans(dir), name))
    // The kept plan marked, so that the code a session loads says where it came from: the Org file says 1.
    const mark = () => fs.writeFileSync(kept!, fs.readFileSync(kept!, 'utf8').replaceAll('one = 1', 'one = 7'))
    mark()
    expect(await code(dir)).toBe('export const one = 7\n')
    vi.stubEnv('PASSEPARTOUT_BUILD', 'build-2')
    expect(await code(dir)).toBe('export const one = 1\n')
    mark()
    expect(await code(dir)).toBe('export const one = 7\n')
    fs.writeFileSync(kept!, '{"key": "')
    expect(await code(dir)).toBe('export const one = 1\n')
    fs.writeFileSync(file, one('2'))
    await olderThan(file, 100)
    expect(await code(dir)).toBe('export const one = 2\n')
  })

  it('give nothing to a session of a build that has no name (the toolchain run from its sources), nor keep any', async () => {
    vi.stubEnv('PASSEPARTOUT_BUILD', '')
    const dir = project({'node_modules/.keep': '', 'org/skills/one.org': one('1')})
    await olderThan(path.join(dir, 'org/skills/one.org'), 100)
    expect(await code(dir)).toBe('export const one = 1\n')
    expect(fs.existsSync(plans(dir))).toBe(false)
  })
})

describe("the sandbox rules' remembered verdicts", () => {
  const runner = (capabilities: string, ...lines: string[]) =>
    `#+TITLE: Runner\n${capabilities}${block('runner.ts', ...lines)}`
  const shell = ["import {execSync} from 'node:child_process'", "export const run = () => execSync('ls')"]
  const cached = (dir: string) => path.join(dir, 'node_modules/.cache/passepartout/sandbox.json')
  const status = async (dir: string) => {
    const document = await read(dir, 'org/skills/runner.org')
    return [document.blocked, ...document.problems.map((message) => message.ruleId)]
  }
  // A session remembers verdicts for a build of the tool only (`bin/launch.mjs` names it): these tests are one.
  const remembering = () => vi.stubEnv('PASSEPARTOUT_BUILD', 'test-build')
  afterEach(() => vi.unstubAllEnvs())

  it('blocks a remembered-clean module once its text uses what it was not granted', async () => {
    remembering()
    const dir = project({
      'node_modules/.keep': '',
      'org/skills/runner.org': runner('#+CAPABILITIES: shell\n', ...shell),
    })
    expect(await status(dir)).toEqual([undefined])
    expect(Object.keys(JSON.parse(fs.readFileSync(cached(dir), 'utf8')).clean)).toHaveLength(1)
    expect(await status(dir)).toEqual([undefined])
    fs.writeFileSync(
      path.join(dir, 'org/skills/runner.org'),
      runner('#+CAPABILITIES: shell\n', ...shell, "import 'node:net'"),
    )
    expect(await status(dir)).toEqual(['sandbox-blocked', 'sandbox/network'])
  })

  it('blocks a remembered-clean module once its document no longer grants what it uses', async () => {
    remembering()
    const dir = project({
      'node_modules/.keep': '',
      'org/skills/runner.org': runner('#+CAPABILITIES: shell\n', ...shell),
    })
    expect(await status(dir)).toEqual([undefined])
    fs.writeFileSync(path.join(dir, 'org/skills/runner.org'), runner('', ...shell))
    expect(await status(dir)).toEqual(['sandbox-blocked', 'sandbox/restricted-import'])
  })

  it.each([
    ['not JSON', '{"key": "'],
    ['of another shape', JSON.stringify({format: 1, clean: ['everything']})],
    ['of another format', JSON.stringify({format: 0, clean: {}})],
  ])('ignores a memory that is %s, and writes it afresh', async (_what, text) => {
    remembering()
    const dir = project({'node_modules/.keep': '', 'org/skills/runner.org': runner('', ...shell)})
    fs.mkdirSync(path.dirname(cached(dir)), {recursive: true})
    fs.writeFileSync(cached(dir), text)
    expect(await status(dir)).toEqual(['sandbox-blocked', 'sandbox/restricted-import'])
    fs.writeFileSync(path.join(dir, 'org/skills/runner.org'), runner('#+CAPABILITIES: shell\n', ...shell))
    expect(await status(dir)).toEqual([undefined])
    expect(Object.keys(JSON.parse(fs.readFileSync(cached(dir), 'utf8')).clean)).toHaveLength(1)
  })

  it('spares a boot with a warm memory the parse, and a changed module is parsed and blocked before it loads', () => {
    const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
    const dir = project({
      'node_modules/.keep': '',
      'org/skills/runner.org': runner('#+CAPABILITIES: shell\n', ...shell),
    })
    const skills = () => {
      const env = {...process.env, DEBUG: 'passepartout:sandbox'}
      const result = spawnSync(cli, ['skills', '--json'], {cwd: dir, encoding: 'utf8', env})
      const {skills} = JSON.parse(result.stdout) as {skills: {name: string; status: string}[]}
      return [result.stderr.match(/runner: .*/)?.[0], ...skills.map((skill) => `${skill.name} ${skill.status}`)]
    }
    expect(skills()).toEqual(['runner: 1 modules parsed, 0 judged clean before', 'runner ready'])
    expect(skills()).toEqual(['runner: 0 modules parsed, 1 judged clean before', 'runner ready'])
    fs.writeFileSync(
      path.join(dir, 'org/skills/runner.org'),
      runner('#+CAPABILITIES: shell\n', ...shell, "import 'node:net'"),
    )
    expect(skills()).toEqual(['runner: 1 modules parsed, 0 judged clean before', 'runner sandbox-blocked'])
  })

  it('are one memory for the folders outside an npm project: a shipped skill judged in one is parsed in no other', () => {
    const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
    const cache = project({})
    const bouncer = (dir: string) => {
      const env: NodeJS.ProcessEnv = {...process.env, DEBUG: 'passepartout:sandbox', XDG_CACHE_HOME: cache}
      delete env.SHIPPED_SKILLS
      const result = spawnSync(cli, ['skills', '--json'], {cwd: dir, encoding: 'utf8', env})
      return result.stderr.match(/bouncer: .*/)?.[0]
    }
    expect(bouncer(project({'package.json': '{}\n'}))).toBe('bouncer: 1 modules parsed, 0 judged clean before')
    expect(bouncer(project({'package.json': '{}\n'}))).toBe('bouncer: 0 modules parsed, 1 judged clean before')
  })

  it('are shared by a copy of a module in another folder: what decides a verdict is its text, extension and grants, not its path', () => {
    const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
    const cache = project({})
    const parsed = (dir: string) => {
      const env = {...process.env, DEBUG: 'passepartout:sandbox', XDG_CACHE_HOME: cache}
      const result = spawnSync(cli, ['skills', '--json'], {cwd: dir, encoding: 'utf8', env})
      return result.stderr.match(/runner: .*/)?.[0]
    }
    const copy = (extension: string) =>
      project({
        'org/skills/runner.org': runner('#+CAPABILITIES: shell\n', ...shell).replace('runner.ts', `runner${extension}`),
      })
    expect(parsed(copy('.ts'))).toBe('runner: 1 modules parsed, 0 judged clean before')
    expect(parsed(copy('.ts'))).toBe('runner: 0 modules parsed, 1 judged clean before')
    // Another dialect for TypeScript's parser: judged on its own.
    expect(parsed(copy('.tsx'))).toBe('runner: 1 modules parsed, 0 judged clean before')
  })

  it('are remembered by a run from the sources, which has no build to key them by', async () => {
    vi.stubEnv('PASSEPARTOUT_BUILD', '')
    const dir = project({
      'node_modules/.keep': '',
      'org/skills/runner.org': runner('#+CAPABILITIES: shell\n', ...shell),
    })
    expect(await status(dir)).toEqual([undefined])
    expect(Object.keys(JSON.parse(fs.readFileSync(cached(dir), 'utf8')).clean)).toHaveLength(1)
    fs.writeFileSync(path.join(dir, 'org/skills/runner.org'), runner('', ...shell))
    expect(await status(dir)).toEqual(['sandbox-blocked', 'sandbox/restricted-import'])
  })

  it("are forgotten once a source of the rules changes: the rules' identity is their modules' text and the parser's version", () => {
    const tools = path.resolve(import.meta.dirname, '../../tools')
    const copied = path.join(project({}), 'tools')
    fs.cpSync(tools, copied, {recursive: true})
    const rules = (root: string) => sandboxRulesOf(path.join(root, 'check/sandbox.ts'))
    const original = rules(tools)
    expect(rules(copied)).toBe(original)
    // A module the rules do not import changes nothing; one they import (through another) changes their identity.
    fs.appendFileSync(path.join(copied, 'cli/main.ts'), '// changed\n')
    expect(rules(copied)).toBe(original)
    fs.appendFileSync(path.join(copied, 'check/reading.ts'), '// changed\n')
    const changed = rules(copied)
    expect(changed).not.toBe(original)
    const dir = project({'node_modules/.keep': ''})
    const module = [path.join(dir, 'runner.ts'), shell.join('\n'), ['shell' as const]] as const
    const before = SandboxVerdicts.open(dir, original)!
    before.rememberClean(...module)
    before.save()
    expect(SandboxVerdicts.open(dir, changed)!.isClean(...module)).toBe(false)
    expect(SandboxVerdicts.open(dir, original)!.isClean(...module)).toBe(true)
  })
})

describe("the skills' load order", () => {
  it('puts dependencies before dependents (the original test-topological-sort-basic)', async () => {
    const dir = project({
      'org/skills/org-skill-a.org': '#+DEPENDS_ON: skill-b-id\n',
      'org/skills/org-skill-b.org': ':PROPERTIES:\n:ID: skill-b-id\n:END:\n',
    })
    const session = new ProjectSession({project: dir})
    const metas = (await session.readSkills(session.skillFiles())).map((skill) => skill.meta)
    expect(skillGraph(metas, [], dir).order.map((file) => path.basename(file))).toEqual([
      'org-skill-b.org',
      'org-skill-a.org',
    ])
  })

  it("orders skills, resolves names against the project's other documents, and keeps the entry behind each dependency", async () => {
    const dir = project({
      'org/core/engine.org': ':PROPERTIES:\n:ID: core-engine\n:END:\n',
      'org/skills/policy.org': '#+DEPENDS_ON: id:core-engine\n',
      'org/skills/bouncer.org': '#+TITLE: Bouncer\n#+DEPENDS_ON: policy\n',
      'org/skills/loop.org': '#+DEPENDS_ON: loop2\n',
      'org/skills/loop2.org': '#+DEPENDS_ON: loop\n',
    })
    const session = new ProjectSession({project: dir})
    const skills = await session.readSkills(session.skillFiles())
    const graph = skillGraph(
      skills.map((skill) => skill.meta),
      await session.otherDocuments(),
      dir,
    )
    const skillsDir = path.join(dir, 'org/skills')
    expect(graph.order.map((file) => path.basename(file))).toEqual([
      'policy.org',
      'bouncer.org',
      'loop.org',
      'loop2.org',
    ])
    const [policy] = graph.dependencies.get(path.join(skillsDir, 'bouncer.org'))!
    expect([path.basename(policy!.path), policy!.entry?.position.start]).toEqual(['policy.org', {line: 2, column: 15}])
    expect(graph.dependencies.get(path.join(skillsDir, 'policy.org'))).toEqual([])
    expect([...graph.broken].map((file) => path.basename(file)).sort()).toEqual(['loop.org', 'loop2.org'])
    expect([...graph.problems.values()].flat().map((message) => message.ruleId)).toEqual(['graph/cycle'])
  })
})

describe('the skill API a document needs (#+PASSEPARTOUT:)', () => {
  const needing = (version: string) =>
    `#+TITLE: Needs\n#+PASSEPARTOUT: ${version}\n${block('../../generated/skills/needs.ts', 'export const x = 1')}`

  it.each([
    ['nothing said', undefined],
    ['the API of this installation', String(API_VERSION)],
    ['an older API', '0'],
  ])('loads a document that needs %s', async (_, version) => {
    const text =
      version === undefined
        ? `#+TITLE: Needs\n${block('../../generated/skills/needs.ts', 'export const x = 1')}`
        : needing(version)
    const dir = project({'org/skills/needs.org': text})
    const document = await read(dir, 'org/skills/needs.org')
    expect(document.blocked).toBeUndefined()
  })

  it.each([
    [
      'a newer API',
      String(API_VERSION + 1),
      `needs version ${API_VERSION + 1} of the skill API; this installation's is ${API_VERSION}`,
    ],
    ['a version that is no whole number', 'two', '"two"'],
    [
      'a version past what a number holds, said as written',
      '99999999999999999999999',
      'needs version 99999999999999999999999 of the skill API',
    ],
  ])('refuses, at that line, a document that needs %s; check says it there too', async (_, version, said) => {
    const dir = project({'org/skills/needs.org': needing(version)})
    const document = await read(dir, 'org/skills/needs.org')
    expect(document.blocked).toBe('failed')
    const refusal = [
      expect.stringMatching(
        new RegExp(
          `^org/skills/needs\\.org:2:1: error: .*${said.replace(/[.*"()]/g, '\\$&')}.*\\[skill/api-version\\]$`,
        ),
      ),
    ]
    expect(document.problems.map((message) => formatDiagnostic(message, dir))).toEqual(refusal)
    const checked = await new ProjectSession({project: dir}).check([path.join(dir, 'org/skills/needs.org')])
    expect(checked.diagnostics.map((message) => formatDiagnostic(message, dir))).toEqual(refusal)
  })

  it('refuses it again in a check the tangle cache answers for it: the cache keeps the version a document needs', async () => {
    vi.stubEnv('PASSEPARTOUT_BUILD', 'build-1')
    const dir = project({'node_modules/.keep': '', 'org/skills/needs.org': needing(String(API_VERSION + 1))})
    const file = path.join(dir, 'org/skills/needs.org')
    // A file changed within the clock tick of now is not trusted by the tangle cache (cache.ts).
    await olderThan(file, 100)
    const check = async () => {
      const report = await new ProjectSession({project: dir}).check([file])
      return [report.tangle.documents[0]!.cached, ...report.diagnostics.map((message) => message.ruleId)]
    }
    try {
      expect(await check()).toEqual([false, 'skill/api-version'])
      expect(await check()).toEqual([true, 'skill/api-version'])
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it.each([
    ['the same', '1', '1'],
    ['another', '2', '1'],
  ])('refuses, at its second line, a document that says it twice, %s version', async (_, first, second) => {
    const dir = project({'org/skills/needs.org': needing(`${first}\n#+PASSEPARTOUT: ${second}`)})
    const document = await read(dir, 'org/skills/needs.org')
    expect(document.blocked).toBe('failed')
    const refusal = [expect.stringMatching(/^org\/skills\/needs\.org:3:1: error: .*line 2.*\[skill\/api-version\]$/)]
    expect(document.problems.map((message) => formatDiagnostic(message, dir))).toEqual(refusal)
    const checked = await new ProjectSession({project: dir}).check([path.join(dir, 'org/skills/needs.org')])
    expect(checked.diagnostics.map((message) => formatDiagnostic(message, dir))).toEqual(refusal)
  })
})
