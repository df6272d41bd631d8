/**
 * What the command line takes: each command with its arguments, what it does
 * and the options it accepts (any other is a usage error, exit 2), and the
 * help texts made from that one table.
 */

/** A command line the program cannot act on: exit status 2; with the command whose help to print. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message)
  }
}

export interface CommandContext {
  cwd: string
  /** Print the Org lines around each diagnostic. */
  frames: boolean
}

export type OptionName =
  | 'dry-run' | 'json' | 'dot' | 'allow-outside' | 'no-cache' | 'prune' | 'no-watch' | 'once' | 'follow' | 'lines'
  | 'tcp' | 'host' | 'frames' | 'no-frames' | 'check'

/** The most log lines `logs --lines` asks for: as many as the running core keeps (core.org's log book). */
export const MAX_LOG_LINES = 1000

const OPTIONS: Record<OptionName, string> = {
  'dry-run': 'show what would be written, write nothing',
  json: 'print a machine-readable report on stdout',
  dot: 'print the graph in Graphviz DOT',
  'allow-outside': 'let targets go into DIR outside the project (repeatable; a bare --allow-outside: anywhere)',
  'no-watch': 'run without watching the documents',
  once: 'boot, send one line through the loop with the offline backend, and exit',
  follow: 'logs: print each new line as the core writes it, until interrupted (Ctrl-C); also -f',
  lines: `logs: print the last N lines instead of 20, N from 1 to ${MAX_LOG_LINES} (what the core keeps); also -n N`,
  tcp:
    'listen on TCP port PORT of 127.0.0.1 too (0: a free port, said when it listens, and kept when the core ' +
    'restarts); each client presents the token kept in .passepartout/token',
  host: 'with --tcp: the interface to listen on instead of 127.0.0.1; reachable by others, guarded by the token alone',
  prune: 'remove the files documents no longer write (a renamed :tangle, a removed block or document), when they hold exactly what was tangled',
  'no-cache': 'tangle every document, even those unchanged since the last run (the cache is node_modules/.cache/passepartout)',
  frames: 'show the Org lines around each diagnostic (default: when stderr is a terminal)',
  'no-frames': 'do not show them',
  check: 'fmt: write nothing; list the files that would change, and exit 1 when one would',
}

/** What the options that take a value are given (`--tcp=PORT`), in their help and in the error when it is missing. */
export const OPTION_VALUES: Partial<Record<OptionName, string>> = {
  'allow-outside': 'DIR',
  tcp: 'PORT',
  host: 'ADDRESS',
  lines: 'N',
}

const ORG_OUTPUT: OptionName[] = ['frames', 'no-frames']

interface CommandHelp {
  arguments: string
  summary: string
  options: OptionName[]
}

export const COMMANDS: Record<string, CommandHelp> = {
  tangle: {arguments: '[FILE|DIR ...]', summary: "write the files the Org documents' blocks tangle to (default: every .org file under the project's org/)", options: ['dry-run', 'json', 'allow-outside', 'no-cache', 'prune', ...ORG_OUTPUT]},
  watch: {arguments: '[FILE|DIR ...]', summary: 'check, then tangle and check each saved document again (the files that import it too) and print what check prints, until interrupted (Ctrl-C)', options: ['allow-outside', 'no-cache', 'prune', ...ORG_OUTPUT]},
  check: {arguments: '[FILE|DIR ...]', summary: 'tangle, then type-check the generated TypeScript and hold skills to their #+CAPABILITIES:, every problem at its Org line', options: ['json', 'allow-outside', 'no-cache', 'prune', ...ORG_OUTPUT]},
  deps: {arguments: '[FILE|DIR ...]', summary: 'the documents in load order (#+DEPENDS_ON: and :ID:)', options: ['json', 'dot', ...ORG_OUTPUT]},
  skills: {arguments: '', summary: "boot the project's skills (org/skills/) once and print the catalog; exit 1 when a mandatory skill is not ready", options: ['json', ...ORG_OUTPUT]},
  ask: {arguments: 'TEXT', summary: 'send TEXT through Perceive, Reason and Act once and print each attempt, the gate trace, the action and any approval it waits for; exit 1 when no backend answered', options: ['json', ...ORG_OUTPUT]},
  approve: {arguments: 'ID', summary: 'approve a proposal left waiting (by the running core when one runs): it passes the gates again, then runs', options: ['json', ...ORG_OUTPUT]},
  deny: {arguments: 'ID', summary: 'deny a proposal left waiting (by the running core when one runs): it never runs', options: ['json', ...ORG_OUTPUT]},
  doctor: {arguments: '', summary: 'check the backends, memory and mandatory skills: healthy, degraded or unhealthy (exit 1)', options: ['json', ...ORG_OUTPUT]},
  run: {arguments: '', summary: "run the project's core until stopped (Ctrl-C): check the project, boot the core, say what it booted and how to talk to it, and apply each saved document (tangled, checked, reloaded); a change to the core's own documents restarts it", options: ['no-watch', 'once', 'tcp', 'host', ...ORG_OUTPUT]},
  send: {arguments: 'TEXT', summary: 'send TEXT to the core that passepartout run keeps running on the project, and print its reply with the gate trace and any approval it waits for', options: ['json', ...ORG_OUTPUT]},
  status: {arguments: '', summary: 'ask the running core for its skill catalog, backends, memory and health', options: ['json', ...ORG_OUTPUT]},
  approvals: {
    arguments: '',
    summary:
      'the actions the running core holds for approval: what each would run, which gate asked and why, and until ' +
      'when; then those started and not known to have finished',
    options: ['json', ...ORG_OUTPUT],
  },
  logs: {
    arguments: '',
    summary:
      "the running core's last log lines, 20 or --lines=N (reloads, backends tried, gates that blocked); " +
      'with -f, each new one',
    options: ['follow', 'lines', 'json', ...ORG_OUTPUT],
  },
  chat: {arguments: '', summary: 'talk with the running core: each line sent, the reply and its gate trace under it, an action held for approval asked about at once; line editing and history on a terminal (Ctrl-D ends)', options: [...ORG_OUTPUT]},
  fmt: {
    arguments: '[FILE|DIR ...]',
    summary:
      "format the TypeScript and JavaScript blocks of Org documents in place, and .ts and .js files, at 120 " +
      "columns (default: the project's org/ and tools/)",
    options: ['check', ...ORG_OUTPUT],
  },
  help: {arguments: '[COMMAND]', summary: 'this help, or the help of COMMAND', options: []},
}

/** TEXT folded to WIDTH columns, each line after the first indented by INDENT. */
function fold(text: string, width: number, indent: string): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  lines.push(line)
  return lines.join(`\n${indent}`)
}

/** `--tcp=PORT`, `--json`. */
const optionName = (name: OptionName) => `--${name}${OPTION_VALUES[name] ? `=${OPTION_VALUES[name]}` : ''}`

const column = (left: string) => `  ${left.padEnd(22)}  `
const INDENT = ' '.repeat(26)

export const USAGE = `usage: passepartout <command> [options] [arguments]

commands:
${Object.entries(COMMANDS)
  .map(([name, help]) => `${column(`${name} ${help.arguments}`.trim())}${fold(help.summary, 54, INDENT)}`)
  .join('\n')}

options (each command takes those its help lists: passepartout help COMMAND):
${(Object.entries(OPTIONS) as [OptionName, string][])
  .map(([name, text]) => `${column(optionName(name))}${fold(text, 54, INDENT)}`)
  .join('\n')}
  -h, --help              show this help, or a command's
  --version               print the version
`

export function commandUsage(name: string): string {
  const help = COMMANDS[name]!
  const options = help.options.map((option) => `${column(optionName(option))}${fold(OPTIONS[option], 54, INDENT)}`)
  return `usage: passepartout ${name}${help.options.length > 0 ? ' [options]' : ''}${help.arguments ? ` ${help.arguments}` : ''}

${fold(help.summary, 78, '')}
${options.length > 0 ? `\noptions:\n${options.join('\n')}\n` : ''}`
}
