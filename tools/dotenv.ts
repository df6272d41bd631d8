/**
 * A project's .env, read with Node's own parser (`util.parseEnv`, the one `node --env-file` uses). Its lines are
 * kept, so that what is said of a value is said at the line that set it (the last one, the one `parseEnv` keeps).
 * One reader for the toolchain's settings (settings.ts) and the core's (org/core/settings.org, through
 * toolchain.ts): a variable written in .env is read the same by both.
 */
import fs from 'node:fs'
import path from 'node:path'
import {parseEnv} from 'node:util'
import {type Diagnostic, diagnostic} from './diagnostics.ts'
import {dotenvUnreadable} from './messages/io.ts'

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
 * at most DOTENV_MAX_BYTES: a project's .env that is a named pipe, or a link to /dev/zero, made every command that
 * reads it wait forever.
 */
export function readDotenv(root: string): Dotenv {
  const file = path.join(root, '.env')
  const none = (why: string): Dotenv => ({
    file,
    values: {},
    lines: [],
    problems: [diagnostic(file, dotenvUnreadable(why))],
  })
  let fd: number | undefined
  try {
    // Not blocking: opening a named pipe with no writer would wait for one.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) return none('it is not a regular file')
    if (stat.size > DOTENV_MAX_BYTES) return none(`it holds ${stat.size} bytes, more than ${DOTENV_MAX_BYTES}`)
    const text = fs.readFileSync(fd, 'utf8')
    return {file, values: parseEnv(text), lines: text.split(/\r?\n/), problems: []}
  } catch (error) {
    const {code, message} = error as NodeJS.ErrnoException
    return code === 'ENOENT' ? {file, values: {}, lines: [], problems: []} : none(message)
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** The 1-based line of DOTENV that sets NAME last, when one does. */
export function lineOf(dotenv: Dotenv, name: string): number | undefined {
  const assignment = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`)
  const index = dotenv.lines.findLastIndex((line) => assignment.test(line))
  return index >= 0 ? index + 1 : undefined
}
