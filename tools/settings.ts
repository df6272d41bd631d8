/**
 * The toolchain's settings: every variable of the environment the toolchain reads as one, read through one table,
 * as the core reads its own (org/core/settings.org). A value the table refuses is a `config/invalid` problem that
 * names the variable, and its default holds: nothing is dropped without a word. The commands report the problems
 * with their own (cli/inputs.ts), the core with those it starts with, and `doctor` says which of these variables are
 * set; the reference of the environment (docs/reference/environment.md) is written from the table.
 *
 * A person sets them in the environment or in the project's .env (the environment's over .env's, as for the core's
 * own); what passepartout sets for the processes it starts, only in the environment. They are read where they are
 * used, each time: a test may set one for the sessions it makes in its own process.
 */
import {type Diagnostic, diagnostic} from './diagnostics.ts'
import {type Dotenv, lineOf} from './dotenv.ts'
import {toolchainSettingInvalid} from './messages/io.ts'

/** Who sets a variable: a person, in the environment or the project's .env, or passepartout itself, for the processes it starts. */
export type ToolchainSource = 'the environment, else .env' | 'set by passepartout'

export interface ToolchainSettingRow {
  name: string
  source: ToolchainSource
  /** What it sets, in the reference's words. */
  sets: string
  /** What holds when it is unset, in the reference's words; undefined: nothing. */
  unset?: string
  /** What a value must be, in words, and the test of it; undefined: any text. */
  expects?: {words: string; holds: (value: string) => boolean}
}

/** The longest a timer waits: Node fires a longer one at once (TimeoutOverflowWarning), so that a checker told to
 * wait longer would end after each save. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/** VALUE in digits (not `1e3`, `0x10` or ` 7`, which Number also reads), from 1 to the longest a timer waits. */
const positiveWholeMs = (value: string) => /^[1-9][0-9]*$/.test(value) && Number(value) <= LONGEST_TIMER_MS

/** Every variable the toolchain reads as a setting, in the order the reference lists them. */
export const TOOLCHAIN_SETTINGS: readonly ToolchainSettingRow[] = [
  {
    name: 'PASSEPARTOUT_WARM_UP',
    source: 'the environment, else .env',
    unset: '1',
    sets:
      '`0` leaves out the warm-up of the type checker in `watch`: the first saves are checked by the native compiler, ' +
      'and the second builds the program',
    expects: {words: '0 or 1', holds: (value) => value === '0' || value === '1'},
  },
  {
    name: 'PASSEPARTOUT_CHECKER_IDLE_MS',
    source: 'the environment, else .env',
    unset: '600000',
    sets:
      'how long the warm type checker of `run` and `watch` stays with no save to re-check before its process ends ' +
      `(a whole number of milliseconds from 1 to ${LONGEST_TIMER_MS}); the next save starts it again`,
    expects: {words: `a whole number of milliseconds from 1 to ${LONGEST_TIMER_MS}`, holds: positiveWholeMs},
  },
  {
    name: 'PASSEPARTOUT_HOME',
    source: 'set by passepartout',
    sets: 'the installation, for the bundled code and the processes it starts',
  },
  {name: 'PASSEPARTOUT_BUILD', source: 'set by passepartout', sets: 'the build of the tools, which keys the caches'},
]

export interface ToolchainSettings {
  /** PASSEPARTOUT_HOME: the installation bin/launch.mjs names; undefined: the caller's own fallback. */
  home: string | undefined
  /** PASSEPARTOUT_BUILD: the build of the tools, which keys the caches; undefined outside a launched build. */
  build: string | undefined
  /** PASSEPARTOUT_WARM_UP: whether `watch` and `run` warm the type checker up before the first save. */
  warmUp: boolean
  /** PASSEPARTOUT_CHECKER_IDLE_MS: how long the warm checker waits idle; undefined: its own default. */
  checkerIdleMs: number | undefined
  /** The variables of the table a person set, in the table's order, each with where (`.env:3`): for the doctor. */
  set: {name: string; source: string}[]
  /** The values the table refused, each naming its variable, or placed at its line of .env. */
  problems: Diagnostic[]
}

/**
 * The toolchain's settings in ENV (the process's environment unless given) over DOTENV's (a project's .env, when
 * given), each checked by its row.
 */
export function readToolchainSettings(env: NodeJS.ProcessEnv = process.env, dotenv?: Dotenv): ToolchainSettings {
  const problems: Diagnostic[] = []
  /** Where ROW's value comes from, if anywhere: an empty value is no value, as in the core's settings. */
  const sourceOf = (row: ToolchainSettingRow): {value: string; line?: number; inDotenv: boolean} | undefined => {
    const given = env[row.name]
    if (given !== undefined || row.source === 'set by passepartout' || !dotenv) {
      return given === undefined || given === '' ? undefined : {value: given, inDotenv: false}
    }
    const written = dotenv.values[row.name]
    return written === undefined || written === ''
      ? undefined
      : {value: written, line: lineOf(dotenv, row.name), inDotenv: true}
  }
  /** NAME's value, or undefined when it is unset or its row refuses it (said in PROBLEMS). */
  const setting = (name: string): string | undefined => {
    const row = TOOLCHAIN_SETTINGS.find((each) => each.name === name)!
    const source = sourceOf(row)
    if (!source || !row.expects || row.expects.holds(source.value)) return source?.value
    const message = toolchainSettingInvalid(name, source.value, row.expects.words, row.unset ?? 'its default')
    problems.push(
      source.line === undefined
        ? diagnostic(name, message)
        : diagnostic(dotenv!.file, message, {line: source.line, column: 1}),
    )
    return undefined
  }
  const idle = setting('PASSEPARTOUT_CHECKER_IDLE_MS')
  return {
    home: setting('PASSEPARTOUT_HOME'),
    build: setting('PASSEPARTOUT_BUILD'),
    warmUp: setting('PASSEPARTOUT_WARM_UP') !== '0',
    checkerIdleMs: idle === undefined ? undefined : Number(idle),
    set: TOOLCHAIN_SETTINGS.filter((row) => row.source === 'the environment, else .env').flatMap((row) => {
      const source = sourceOf(row)
      if (!source) return []
      const where = !source.inDotenv ? 'the environment' : source.line === undefined ? '.env' : `.env:${source.line}`
      return [{name: row.name, source: where}]
    }),
    problems,
  }
}
