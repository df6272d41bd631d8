/**
 * The reference of the environment (docs/reference/environment.md): every variable the code reads, found in
 * the code itself (the core's generated modules, the toolchain, bin/), with what it sets. The core's settings
 * are the rows of its table (SETTINGS, org/core/settings.org), which reads them, the toolchain's the rows of its
 * own (TOOLCHAIN_SETTINGS, tools/settings.ts); the others are described here.
 * A variable the code reads that is described nowhere, or one described that the code no longer reads, refuses
 * the reference: the list cannot drift from the code, and its words are kept beside it.
 */
import fs from 'node:fs'
import path from 'node:path'
import {SETTINGS} from '../../generated/core/settings.ts'
import {variablesUndescribed, variablesUnread} from '../messages/build.ts'
import {TOOLCHAIN_SETTINGS} from '../settings.ts'
import {banner, code, table} from './markdown.ts'

/** Where a variable is read from. */
type Source =
  | 'the environment, else .env' // the settings: the project's .env sets what the environment leaves unset
  | 'the environment'
  | 'set by passepartout' // for the processes it starts; no person sets it

/** The heading of the variables of each source. */
const TITLES: Record<Source, string> = {
  'the environment, else .env': "Settings: the environment, else the project's .env",
  'the environment': 'Read from the environment alone',
  'set by passepartout': 'Set by passepartout, for the processes it starts',
}

interface Variable {
  source: Source
  /** What it is when it is not set; undefined: nothing. */
  unset?: string
  sets: string
}

/** What each variable that is none of the core's or the toolchain's settings sets, in the reference's order. */
const OTHERS: Record<string, Variable> = {
  DEBUG: {
    source: 'the environment',
    sets:
      'timings and logs on stderr: `passepartout:check` (the phases of a check), `passepartout:engine` (a boot), ' +
      "`passepartout:loop` (the core's log while `ask`, `approve`, `deny` or `doctor` run in a core of their own), " +
      '`passepartout:live`, `passepartout:mcp`, `passepartout:sandbox`, `passepartout:skills`, or `passepartout:*`',
  },
  NO_COLOR: {source: 'the environment', sets: 'set to anything but the empty string: no colour'},
  FORCE_COLOR: {source: 'the environment', sets: 'colour whatever the stream; `0` or `false`: none'},
  TERM: {source: 'the environment', sets: '`dumb`: no colour'},
  INSIDE_EMACS: {
    source: 'the environment',
    sets: 'ending in `,compile` (a compilation buffer): no colour and no code frames, and `run` reads no line',
  },
  HOME: {
    source: 'the environment',
    sets: 'what `~` is in a target, `--allow-outside` and `read:~/…`; the home folder whose keys no skill reads',
  },
  XDG_CACHE_HOME: {
    source: 'the environment',
    unset: '`~/.cache`',
    sets: 'where the tangle cache and the compiled skills of a folder outside an npm project live (`passepartout/` under it)',
  },
  PASSEPARTOUT_SUPERVISOR: {
    source: 'set by passepartout',
    sets:
      "the folder of `run`'s supervisor (bin/supervisor.sh), for the core it starts: where the core says its TCP " +
      'port, and the named pipe by which it knows the supervisor is there',
  },
  PASSEPARTOUT_HANDED_OVER: {
    source: 'set by passepartout',
    sets:
      'the descriptor of a socket a Node that handed a command over to another program (`passepartout --no-frames ' +
      'run`) holds the other end of: a core started under it stops when that Node is killed',
  },
  XDG_RUNTIME_DIR: {
    source: 'the environment',
    unset: 'the temporary folder',
    sets: "where the core's socket goes when `.passepartout/core.sock` is longer than a socket's path may be",
  },
}

/**
 * Every variable described, the core's settings first: a row of SETTINGS is read from the environment, else .env,
 * unless it is the installation's (read from the environment alone); then the toolchain's, from the same.
 */
const ENVIRONMENT: Record<string, Variable> = {
  ...Object.fromEntries(
    SETTINGS.map(({name, unset, sets, installation}) => [
      name,
      {source: installation ? 'the environment' : 'the environment, else .env', sets, ...(unset ? {unset} : {})},
    ]),
  ),
  ...Object.fromEntries(
    TOOLCHAIN_SETTINGS.map(({name, source, unset, sets}) => [name, {source, sets, ...(unset ? {unset} : {})}]),
  ),
  ...OTHERS,
}

/** The names of the variables the code TEXT reads: `process.env.X`, `env.X`, `env?.X`, `env['X']`, `setting('X')`. */
export function variablesIn(text: string): string[] {
  const reads = [
    /(?<![\w.'"`])(?:process\.)?env\??\.([A-Z_][A-Z0-9_]*)\b/g,
    /(?<![\w.])env\[['"]([A-Z_][A-Z0-9_]*)['"]\]/g,
    /(?<![\w.])setting\(['"]([A-Z_][A-Z0-9_]*)['"]\)/g,
  ]
  // What a comment names is no read: block comments, and line comments after a blank (not a URL's `//`).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
  const names = reads.flatMap((read) => [...code.matchAll(read)].map((match) => match[1]!))
  return [...new Set(names)]
}

/** The code that runs for a user: the core's modules (not its tests or test servers), the toolchain, bin/. */
function sourcesOf(repo: string): string[] {
  const files = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, {recursive: true, encoding: 'utf8'}).map((file) => path.join(dir, file))
      : []
  const core = files(path.join(repo, 'generated/core')).filter(
    (file) => file.endsWith('.ts') && !/\.test\.ts$|fixtures\.ts$|test-server\.ts$|-child\.ts$/.test(file),
  )
  const toolchain = files(path.join(repo, 'tools')).filter((file) => file.endsWith('.ts'))
  const bin = files(path.join(repo, 'bin')).filter((file) => file.endsWith('.mjs') || file.endsWith('passepartout'))
  return [...core, ...toolchain, ...bin]
}

/** Every variable the code of the installation at REPO reads, sorted. */
export function variablesRead(repo: string): string[] {
  const names = sourcesOf(repo).flatMap((file) => variablesIn(fs.readFileSync(file, 'utf8')))
  return [...new Set(names)].sort()
}

/** The reference of the variables READ: refused when one is not described, or one described is not read. */
export function environmentReference(read: readonly string[]): string {
  const undescribed = read.filter((name) => !Object.hasOwn(ENVIRONMENT, name))
  const unread = Object.keys(ENVIRONMENT).filter((name) => !read.includes(name))
  if (undescribed.length > 0) throw new Error(variablesUndescribed(undescribed))
  if (unread.length > 0) throw new Error(variablesUnread(unread))
  const sources = [...new Set(Object.values(ENVIRONMENT).map((variable) => variable.source))]
  const sectionOf = (source: Source) =>
    table(
      ['variable', 'when unset', 'what it sets'],
      Object.entries(ENVIRONMENT)
        .filter(([, variable]) => variable.source === source)
        .map(([name, variable]) => [code(name), variable.unset ?? '', variable.sets]),
    )
  return `# The environment

${banner("the core's table of settings (org/core/settings.org) and the code that reads each variable (found by tools/docs/environment-reference.ts)")}

Every variable of the environment Passepartout reads. The core's settings are read once, at start, and the
toolchain's as a command or the core starts, from the environment, and those it leaves unset from the project's
\`.env\`; the others from the environment alone. A value
the core's or the toolchain's table refuses is said as \`config/invalid\`, naming the variable, and its default
holds. \`passepartout doctor\` says where each setting not at its default was set, never its value. Beside these, the
variables \`passepartout.json\` names are read where they are used, the environment first, then \`.env\`: a
provider's \`apiKeyEnv\`, an MCP server's \`passEnv\` and \`headersEnv\` ([Settings](settings.md)). How they work
together: [Configuration](../configuration.md).

${sources.map((source) => `## ${TITLES[source]}\n\n${sectionOf(source)}`).join('\n\n')}
`
}
