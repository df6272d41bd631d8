/**
 * The toolchain's settings (tools/settings.ts): each variable of its table read through it, a value the table
 * refuses said as `config/invalid` naming the variable (its default holds), never silently dropped.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {DOTENV_MAX_BYTES, readDotenv} from '../tools/dotenv.ts'
import {readToolchainSettings, TOOLCHAIN_SETTINGS} from '../tools/settings.ts'
import {tempProject} from './support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '..', 'bin', 'passepartout')

describe('a command given a toolchain setting it refuses', () => {
  it('says so, naming the variable, and does its work with the default', () => {
    const dir = tempProject({'org/notes.org': '#+begin_src text :tangle notes.txt\nhello\n#+end_src\n'})
    const env = {...process.env, PASSEPARTOUT_CHECKER_IDLE_MS: 'soon', PASSEPARTOUT_WARM_UP: 'no'}
    const tangled = spawnSync(cli, ['tangle', '--no-frames'], {cwd: dir, encoding: 'utf8', env})
    expect(tangled.stderr).toMatch(/^PASSEPARTOUT_CHECKER_IDLE_MS: error: .*'soon'.* \[config\/invalid\]$/m)
    expect(tangled.stderr).toMatch(/^PASSEPARTOUT_WARM_UP: error: .*'no'.* \[config\/invalid\]$/m)
  })

  it("says so at its line of the project's .env, where the environment leaves it unset", () => {
    const dir = tempProject({
      'org/notes.org': '#+begin_src text :tangle notes.txt\nhello\n#+end_src\n',
      '.env': '# the checker\nPASSEPARTOUT_CHECKER_IDLE_MS=soon\nPASSEPARTOUT_WARM_UP=no\n',
    })
    const env: NodeJS.ProcessEnv = {...process.env, PASSEPARTOUT_WARM_UP: '1'}
    delete env.PASSEPARTOUT_CHECKER_IDLE_MS
    const tangled = spawnSync(cli, ['tangle', '--no-frames'], {cwd: dir, encoding: 'utf8', env})
    expect(tangled.stderr).toMatch(/^\.env:2:1: error: PASSEPARTOUT_CHECKER_IDLE_MS .*'soon'.* \[config\/invalid\]$/m)
    expect(tangled.stderr).not.toContain('PASSEPARTOUT_WARM_UP')
    expect(fs.readFileSync(path.join(dir, 'org', 'notes.txt'), 'utf8')).toBe('hello\n')
  })
})

/** Each variable the table checks, at a value it keeps and one it refuses: [variable, kept, refused]. */
const bounds: [string, string, string][] = [
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '1', '0'],
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '600000', '1.5'],
  // A timer waits 2^31 - 1 ms at most: Node fires a longer one at once, and the checker would end after each save.
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '2147483647', '2147483648'],
  // Written in digits, as the reference says: not what Number() also reads.
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '1000', '1e3'],
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '16', '0x10'],
  ['PASSEPARTOUT_CHECKER_IDLE_MS', '7', ' 7'],
  ['PASSEPARTOUT_WARM_UP', '0', 'no'],
  ['PASSEPARTOUT_WARM_UP', '1', '2'],
]

describe('readToolchainSettings', () => {
  it.each(bounds)('%s keeps %s', (name, kept) => {
    expect(readToolchainSettings({[name]: kept}).problems).toEqual([])
  })

  it.each(bounds)('%s refuses %s, naming the variable, and its default holds', (name, _, refused) => {
    const settings = readToolchainSettings({[name]: refused})
    expect(settings.problems.map((problem) => [problem.file, problem.ruleId])).toEqual([[name, 'config/invalid']])
    expect(settings.problems[0]!.reason).toContain(`'${refused}'`)
    // Printed on a terminal: the reference's Markdown (`1`) is not shown as such.
    expect(settings.problems[0]!.reason).not.toContain('`')
    expect([settings.checkerIdleMs, settings.warmUp]).toEqual([undefined, true])
  })

  it('reads what each value sets, an empty one as unset', () => {
    const env = {PASSEPARTOUT_CHECKER_IDLE_MS: '2500', PASSEPARTOUT_WARM_UP: '0', PASSEPARTOUT_BUILD: 'b1'}
    expect(readToolchainSettings(env)).toMatchObject({checkerIdleMs: 2500, warmUp: false, build: 'b1', problems: []})
    expect(readToolchainSettings({PASSEPARTOUT_WARM_UP: ''})).toMatchObject({warmUp: true, problems: [], set: []})
  })

  it('names for the doctor the variables a person set, not those passepartout sets for its processes', () => {
    const env = {PASSEPARTOUT_CHECKER_IDLE_MS: '2500', PASSEPARTOUT_HOME: '/opt/passepartout', PASSEPARTOUT_BUILD: 'b1'}
    expect(readToolchainSettings(env).set).toEqual([{name: 'PASSEPARTOUT_CHECKER_IDLE_MS', source: 'the environment'}])
  })
})

describe("readToolchainSettings with the project's .env", () => {
  const dotenvOf = (text: string) => {
    const dir = tempProject({'.env': text})
    return readDotenv(dir)
  }

  it('takes .env for what the environment leaves unset, and says the line that set it', () => {
    const dotenv = dotenvOf(
      'PASSEPARTOUT_WARM_UP=0\n# idle\nPASSEPARTOUT_CHECKER_IDLE_MS=100\nPASSEPARTOUT_CHECKER_IDLE_MS=2500\n',
    )
    const settings = readToolchainSettings({}, dotenv)
    expect(settings).toMatchObject({warmUp: false, checkerIdleMs: 2500, problems: []})
    expect(settings.set).toEqual([
      {name: 'PASSEPARTOUT_WARM_UP', source: '.env:1'},
      {name: 'PASSEPARTOUT_CHECKER_IDLE_MS', source: '.env:4'},
    ])
  })

  it("takes the environment's value over .env's, an empty one as unset there too", () => {
    const dotenv = dotenvOf('PASSEPARTOUT_WARM_UP=0\nPASSEPARTOUT_CHECKER_IDLE_MS=2500\n')
    const settings = readToolchainSettings({PASSEPARTOUT_WARM_UP: '1', PASSEPARTOUT_CHECKER_IDLE_MS: ''}, dotenv)
    expect(settings).toMatchObject({warmUp: true, checkerIdleMs: undefined, problems: []})
    expect(settings.set).toEqual([{name: 'PASSEPARTOUT_WARM_UP', source: 'the environment'}])
  })

  it('refuses a value of .env at its line, and its default holds', () => {
    const dotenv = dotenvOf('\nPASSEPARTOUT_CHECKER_IDLE_MS=0x10\n')
    const settings = readToolchainSettings({}, dotenv)
    expect(settings.checkerIdleMs).toBeUndefined()
    const [problem] = settings.problems
    expect([problem?.file, problem?.line, problem?.ruleId]).toEqual([dotenv.file, 2, 'config/invalid'])
    expect(problem?.reason).toContain('PASSEPARTOUT_CHECKER_IDLE_MS must be a whole number of milliseconds')
  })

  it('never takes from .env what passepartout sets for the processes it starts', () => {
    const dotenv = dotenvOf('PASSEPARTOUT_HOME=/elsewhere\nPASSEPARTOUT_BUILD=b2\n')
    expect(readToolchainSettings({}, dotenv)).toMatchObject({home: undefined, build: undefined, set: []})
  })
})

describe('readDotenv', () => {
  it('reads none where there is no .env, and says a .env that cannot be read, with why', () => {
    const dir = tempProject({})
    expect(readDotenv(dir)).toMatchObject({values: {}, problems: []})
    fs.mkdirSync(path.join(dir, '.env'))
    const [problem] = readDotenv(dir).problems
    expect([problem?.file, problem?.ruleId]).toEqual([path.join(dir, '.env'), 'io/read'])
    expect(problem?.reason).toMatch(/^the \.env file could not be read: it is not a regular file/)
  })

  it.each([
    ['a named pipe no one writes', (file: string) => spawnSync('mkfifo', [file])],
    ['a link to an endless device', (file: string) => fs.symlinkSync('/dev/zero', file)],
    ['a file past the bound', (file: string) => fs.writeFileSync(file, 'A=1\n'.repeat(DOTENV_MAX_BYTES / 4 + 1))],
  ])('reads none from %s, and says why, at once', (_what, make) => {
    const dir = tempProject({})
    make(path.join(dir, '.env'))
    const dotenv = readDotenv(dir)
    expect(dotenv.values).toEqual({})
    expect(dotenv.problems.map((problem) => problem.ruleId)).toEqual(['io/read'])
  })

  it('reads a file at the bound', () => {
    const dir = tempProject({'.env': 'A=1\n'.repeat(DOTENV_MAX_BYTES / 4)})
    expect(readDotenv(dir)).toMatchObject({values: {A: '1'}, problems: []})
  })
})

describe('TOOLCHAIN_SETTINGS', () => {
  it('names each variable once', () => {
    const names = TOOLCHAIN_SETTINGS.map((row) => row.name)
    expect(new Set(names).size).toBe(names.length)
  })
})
