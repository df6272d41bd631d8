/**
 * A project's .env, read with Node's own parser (`util.parseEnv`, the one `node --env-file` uses). Its lines are
 * kept, so that what is said of a value is said at the line that set it (the last one, the one `parseEnv` keeps).
 * One reader for the toolchain's settings (settings.ts) and the core's (org/core/settings.org, through
 * toolchain.ts): a variable written in .env is read the same by both.
 */
import path from 'node:path'
import {parseEnv} from 'node:util'
import {type Diagnostic, diagnostic} from './diagnostics.ts'
import {dotenvUnreadable} from './messages/io.ts'
import {readProjectText} from './project-file.ts'

export interface Dotenv {
  file: string
  values: NodeJS.Dict<string>
  lines: string[]
  problems: Diagnostic[]
}

/** The most a .env may hold: a file of settings is some lines; anything larger is no .env (a log, a device). */
export const DOTENV_MAX_BYTES = 1024 * 1024

/**
 * ROOT's .env: none when there is no such file; an io/read problem when it cannot be read, or is no regular file of
 * at most DOTENV_MAX_BYTES (project-file.ts).
 */
export function readDotenv(root: string): Dotenv {
  const file = path.join(root, '.env')
  const read = readProjectText(file, DOTENV_MAX_BYTES)
  if (read.ok) return {file, values: parseEnv(read.text), lines: read.text.split(/\r?\n/), problems: []}
  const problems = read.missing ? [] : [diagnostic(file, dotenvUnreadable(read.why))]
  return {file, values: {}, lines: [], problems}
}

/** The 1-based line of DOTENV that sets NAME last, when one does. */
export function lineOf(dotenv: Dotenv, name: string): number | undefined {
  const assignment = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`)
  const index = dotenv.lines.findLastIndex((line) => assignment.test(line))
  return index >= 0 ? index + 1 : undefined
}
