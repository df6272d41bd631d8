/**
 * The reference of the environment (docs/reference/environment.md): every variable the code reads, found in
 * the code itself (the core's generated modules, the toolchain, bin/), with what it sets. A variable the code
 * reads that is not described here, or one described that the code no longer reads, refuses the reference:
 * the list cannot drift from the code, and its words are kept beside it.
 */
import fs from 'node:fs'
import path from 'node:path'
import {banner, code, table} from './markdown.ts'

/** Where a variable is read from. */
type Source =
  | 'the environment, else .env' // the core's settings: the project's .env sets what the environment leaves unset
  | 'the environment'
  | 'set by passepartout' // for the processes it starts; no person sets it

/** The heading of the variables of each source. */
const TITLES: Record<Source, string> = {
  'the environment, else .env': "The core's settings: the environment, else the project's .env",
  'the environment': 'Read from the environment alone',
  'set by passepartout': 'Set by passepartout, for the processes it starts',
}

interface Variable {
  source: Source
  /** What it is when it is not set; undefined: nothing. */
  unset?: string
  sets: string
}

/** What each variable sets, in the order the reference lists them. */
const ENVIRONMENT: Record<string, Variable> = {
  PASSEPARTOUT_BACKENDS: {
    source: 'the environment, else .env',
    unset: "`passepartout.json`'s cascade, else `offline`",
    sets: 'the cascade: the backends tried in order, separated by commas (`openai,offline`)',
  },
  PASSEPARTOUT_CONSENSUS: {
    source: 'the environment, else .env',
    unset: "`passepartout.json`'s consensus, else off",
    sets: 'the backends asked together, the proposal more than half of them make taken (`openai,other`)',
  },
  OPENAI_BASE_URL: {
    source: 'the environment, else .env',
    unset: '`https://api.openai.com/v1`',
    sets: "the address of the `openai` backend's OpenAI-compatible server (Ollama: `http://127.0.0.1:11434/v1`)",
  },
  OPENAI_API_KEY: {
    source: 'the environment, else .env',
    sets: "the `openai` backend's key; a local server needs none",
  },
  PASSEPARTOUT_MODEL: {
    source: 'the environment, else .env',
    sets: 'the model the `openai` backend asks; required when it is in the cascade',
  },
  PASSEPARTOUT_BACKEND_TIMEOUT_MS: {
    source: 'the environment, else .env',
    unset: '60000',
    sets: 'how long a backend of the cascade has to answer, in ms, before the next is tried',
  },
  PASSEPARTOUT_CONTEXT_WINDOW: {
    source: 'the environment, else .env',
    unset: '8192',
    sets: "the model's context window in tokens, when its provider gives none (`contextWindow`)",
  },
  PASSEPARTOUT_ASSISTANT: {
    source: 'the environment, else .env',
    unset: '`Agent`',
    sets: "the assistant's name in the prompt",
  },
  PASSEPARTOUT_NOTES: {
    source: 'the environment, else .env',
    unset: '`org`',
    sets: 'the folder the `grep` tool searches, relative to the project',
  },
  PASSEPARTOUT_TURN_STEPS: {
    source: 'the environment, else .env',
    unset: '8',
    sets: 'the steps a turn may take (`turn/steps`)',
  },
  PASSEPARTOUT_TURN_TIMEOUT: {
    source: 'the environment, else .env',
    unset: '600',
    sets: 'how long a turn may run, in seconds (`turn/time`)',
  },
  PASSEPARTOUT_SESSION_TOKENS: {
    source: 'the environment, else .env',
    unset: 'no budget',
    sets: "a session's token budget, counted from what the backends say they used (`turn/tokens`)",
  },
  PASSEPARTOUT_APPROVAL_TTL: {
    source: 'the environment, else .env',
    unset: '3600',
    sets: 'how long an action waits for a person, in seconds, before its approval expires',
  },
  HEARTBEAT_INTERVAL: {
    source: 'the environment, else .env',
    unset: '60',
    sets: "the seconds between the core's heartbeats (the schedules that want the heartbeat run then)",
  },
  MEMORY_AUTO_SAVE_INTERVAL: {
    source: 'the environment, else .env',
    unset: '300',
    sets: 'the seconds between snapshots of memory',
  },
  PASSEPARTOUT_MEMORY_URL: {
    source: 'the environment, else .env',
    unset: '`.passepartout/memory.db` under the project',
    sets: 'a libSQL URL where memory lives (`file:…`, `libsql://…`, `http://…`)',
  },
  PASSEPARTOUT_MEMORY_AUTH_TOKEN: {
    source: 'the environment',
    sets: 'the token of the libSQL server of `PASSEPARTOUT_MEMORY_URL`',
  },
  MANDATORY_SKILLS: {
    source: 'the environment',
    unset: "`package.json`'s `mandatorySkills`, else `policy,bouncer`",
    sets: 'the skills without which the core does not start, separated by commas; empty for none',
  },
  PASSEPARTOUT_SKILL_TIMEOUT_MS: {
    source: 'the environment',
    unset: "`package.json`'s `skillTimeoutMs`, else 5000",
    sets: "how long a skill's code may run without returning before it is stopped, in ms",
  },
  PASSEPARTOUT_SKILL_MEMORY_MB: {
    source: 'the environment',
    unset: "`package.json`'s `skillMemoryMb`, else 512",
    sets: "the skills' shared memory allowance in MB (16 at least), over what the skill host needs itself",
  },
  PASSEPARTOUT_SKILL_CPU_MS: {
    source: 'the environment',
    unset: "`package.json`'s `skillCpuMs`, else 5000",
    sets: "a skill's CPU budget: how long its code may hold the skill host's thread in each window, in ms",
  },
  PASSEPARTOUT_SKILL_CPU_WINDOW_MS: {
    source: 'the environment',
    unset: "`package.json`'s `skillCpuWindowMs`, else 20000",
    sets: 'the sliding window of the CPU budget, in ms',
  },
  PASSEPARTOUT_SKILL_ACT_TIMEOUT_MS: {
    source: 'the environment',
    unset: "`package.json`'s `skillActTimeoutMs`, else 60000",
    sets: "how long a schedule's `act` has to answer, in ms",
  },
  PASSEPARTOUT_WARM_UP: {
    source: 'the environment',
    sets: '`0` leaves out the warm-up of the type checker in `run` and `watch`: the first save builds the program',
  },
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
    sets: 'where the tangle cache of a folder outside an npm project lives (`passepartout/` under it)',
  },
  XDG_RUNTIME_DIR: {
    source: 'the environment',
    unset: 'the temporary folder',
    sets: "where the core's socket goes when `.passepartout/core.sock` is longer than a socket's path may be",
  },
  PASSEPARTOUT_HOME: {
    source: 'set by passepartout',
    sets: 'the installation, for the bundled code and the processes it starts',
  },
  PASSEPARTOUT_BUILD: {source: 'set by passepartout', sets: 'the build of the tools, which keys the caches'},
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
  if (undescribed.length > 0)
    throw new Error(
      `the code reads ${undescribed.join(', ')}: say what each sets in tools/docs/environment-reference.ts`,
    )
  if (unread.length > 0)
    throw new Error(`the code no longer reads ${unread.join(', ')}: take it out of tools/docs/environment-reference.ts`)
  const sources = [...new Set(Object.values(ENVIRONMENT).map((variable) => variable.source))]
  const sectionOf = (source: Source) =>
    table(
      ['variable', 'when unset', 'what it sets'],
      Object.entries(ENVIRONMENT)
        .filter(([, variable]) => variable.source === source)
        .map(([name, variable]) => [code(name), variable.unset ?? '', variable.sets]),
    )
  return `# The environment

${banner('the code that reads each variable (found by tools/docs/environment-reference.ts)')}

Every variable of the environment Passepartout reads. The core's settings are read from the environment, and
those it leaves unset from the project's \`.env\`; the others from the environment alone. Beside these, the
variables \`passepartout.json\` names are read where they are used, the environment first, then \`.env\`: a
provider's \`apiKeyEnv\`, an MCP server's \`passEnv\` and \`headersEnv\` ([Settings](settings.md)). How they work
together: [Configuration](../configuration.md).

${sources.map((source) => `## ${TITLES[source]}\n\n${sectionOf(source)}`).join('\n\n')}
`
}
