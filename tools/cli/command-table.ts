/**
 * The command set of `passepartout`, defined once: every option (its type, a short form, what its value is
 * called, a line of help, the check of its value) and every command (what it takes after its options, the
 * options it accepts, a line of help, and which process runs it). The parser (command-line.ts), the help
 * (usage.ts), the hand-off to the core (core-command.ts) and the core's own dispatch (org/core/commands.org)
 * all read these two tables: adding a command is one row here and one function where it runs.
 *
 * Plain data in tools/, not in the core: the command line must parse and print its help before anything is
 * tangled (and when the core does not tangle), and the core reads the table through the toolchain's public
 * module (`passepartout/toolchain`), the one way the core may cross into tools/.
 */

/** The most log lines `logs --lines` asks for: as many as the running core keeps (core.org's log book). */
export const MAX_LOG_LINES = 1000

/** How many approvals a page of `approvals` lists. */
export const APPROVALS_PAGE = 20
/** The port `weave --serve` listens on when --port does not say. */
export const WEAVE_PORT = 8040

export interface OptionSpec {
  type: 'boolean' | 'string'
  /** The one-letter form (`-f`). */
  short?: string
  /** Given more than once, each value kept. */
  multiple?: boolean
  /** What the value is called in the help and in the error when it is missing (`--tcp=PORT`). */
  value?: string
  help: string
  /** Every command takes it (`--help`, `--version`); the help lists it apart. */
  everywhere?: boolean
  /** What is wrong with VALUE, among all the VALUES given, as a sentence; undefined when nothing is. */
  check?: (value: string, values: Readonly<Record<string, unknown>>) => string | undefined
}

/** Every option of the command line, in the order the help lists them. */
export const OPTIONS = {
  'dry-run': {type: 'boolean', help: 'show what would be written, write nothing'},
  json: {type: 'boolean', help: 'print a machine-readable report on stdout'},
  dot: {type: 'boolean', help: 'print the graph in Graphviz DOT'},
  'allow-outside': {
    type: 'string',
    multiple: true,
    value: 'DIR',
    help: 'let targets go into DIR outside the project (repeatable; a bare --allow-outside: anywhere)',
  },
  out: {
    type: 'string',
    short: 'o',
    value: 'DIR',
    help: 'weave: write the site into DIR instead of the generated/site/ folder of the project; also -o DIR',
  },
  serve: {
    type: 'boolean',
    help:
      'weave: then serve the site on 127.0.0.1, weave again on each save of a document, and reload the pages open ' +
      'in a browser; Ctrl-C stops',
  },
  port: {
    type: 'string',
    value: 'PORT',
    help: `weave --serve: listen on PORT of 127.0.0.1 instead of ${WEAVE_PORT} (0: a free one, said when it listens)`,
    check: (value, values) => {
      if (!values.serve) return '--port is the port of weave --serve: give --serve too'
      if (!/^\d+$/.test(value)) return `--port takes a port number, not ${JSON.stringify(value)}`
      return Number(value) > 65535 ? `--port takes a port from 0 (a free one) to 65535, not ${value}` : undefined
    },
  },
  'no-watch': {type: 'boolean', help: 'run without watching the documents'},
  once: {type: 'boolean', help: 'boot, send one line through the loop with the offline backend, and exit'},
  follow: {
    type: 'boolean',
    short: 'f',
    help: 'logs: print each new line as the core writes it, until interrupted (Ctrl-C); also -f',
  },
  lines: {
    type: 'string',
    short: 'n',
    value: 'N',
    help: `logs: print the last N lines instead of 20, N from 1 to ${MAX_LOG_LINES} (what the core keeps); also -n N`,
    check: (value) => {
      const lines = /^\d+$/.test(value) ? Number(value) : Number.NaN
      if (lines >= 1 && lines <= MAX_LOG_LINES) return undefined
      return `--lines takes a number of lines from 1 to ${MAX_LOG_LINES}, not ${JSON.stringify(value)}`
    },
  },
  tcp: {
    type: 'string',
    value: 'PORT',
    help:
      'listen on TCP port PORT of 127.0.0.1 too (0: a free port, said when it listens, and kept when the core ' +
      'restarts); each client presents the token kept in .passepartout/token',
    check: (value) => {
      if (!/^\d+$/.test(value)) return `--tcp takes a port number, not ${JSON.stringify(value)}`
      return Number(value) > 65535 ? `--tcp takes a port from 0 (a free one) to 65535, not ${value}` : undefined
    },
  },
  host: {
    type: 'string',
    value: 'ADDRESS',
    help:
      'with --tcp: the interface to listen on instead of 127.0.0.1; reachable by others, guarded by the token ' +
      'alone',
    check: (_, values) =>
      values.tcp === undefined ? '--host names the interface of --tcp=PORT: give the port too' : undefined,
  },
  prune: {
    type: 'boolean',
    help:
      'remove the files documents no longer write (a renamed :tangle, a removed block or document), when they ' +
      'hold exactly what was tangled',
  },
  detangle: {
    type: 'boolean',
    help:
      'watch: also bring each saved edit of a generated file back into its document, as `passepartout detangle` ' +
      'does',
  },
  'no-cache': {
    type: 'boolean',
    help:
      'tangle every document, even those unchanged since the last run (the cache is ' +
      "node_modules/.cache/passepartout, or outside an npm project the user's: ~/.cache/passepartout)",
  },
  frames: {type: 'boolean', help: 'show the Org lines around each diagnostic (default: when stderr is a terminal)'},
  'no-frames': {type: 'boolean', help: 'do not show them'},
  check: {type: 'boolean', help: 'fmt: write nothing; list the files that would change, and exit 1 when one would'},
  session: {
    type: 'string',
    value: 'NAME',
    help:
      'ask, send, chat: the session the message is a turn of, made when new (one to 64 letters, digits, ' +
      "'.', '-', '_'); without it, each ask or send and each chat is a new session",
  },
  model: {
    type: 'string',
    value: 'NAME[/MODEL]',
    help:
      'ask, send, chat: ask the backend NAME alone (a provider of passepartout.json, openai, offline), with MODEL ' +
      'over its own; the session keeps the choice for its later turns',
  },
  resume: {
    type: 'string',
    value: 'NAME',
    help: 'chat: take up the session NAME, or with a bare --resume the last one you sent a message in',
    // With --session too, one of the two would be taken up and the other dropped without a word.
    check: (_, values) =>
      values.session === undefined
        ? undefined
        : '--resume and --session each name the session to talk in: give one of them',
  },
  page: {
    type: 'string',
    value: 'N',
    help: `approvals: list the Nth page of ${APPROVALS_PAGE} instead of the first, or every page with --page=all`,
    check: (value) =>
      /^([1-9]\d{0,5}|all)$/.test(value)
        ? undefined
        : `--page takes a page number from 1, or all, not ${JSON.stringify(value)}`,
  },
  help: {type: 'boolean', short: 'h', everywhere: true, help: "show this help, or a command's"},
  version: {type: 'boolean', everywhere: true, help: 'print the version and which installation answers'},
} as const satisfies Record<string, OptionSpec>

export type OptionName = keyof typeof OPTIONS

/**
 * What a command takes after its options, and so what its help shows and which count of them is a usage error:
 * nothing (SCOPE says what it works on instead), files and folders, one folder or none, a text to send (one word at least), one
 * approval id, nothing or `show ID` (one approval, whole), one skill's name, or the command a help is about.
 */
export type Operands =
  | {kind: 'none'; scope: string}
  | {kind: 'paths'}
  | {kind: 'folder'}
  | {kind: 'text'}
  | {kind: 'approval-id'}
  | {kind: 'show-approval'}
  | {kind: 'skill'}
  | {kind: 'topic'}

/**
 * Which process runs a command: the toolchain itself (no core), a core started for this one command and
 * closed after it, a client of the core `run` keeps running (ask, approve and deny start a core of their own
 * when none runs), or the server: the core that keeps running, supervised by the command line.
 */
export type Runs = 'toolchain' | 'one-shot' | 'client' | 'server'

export interface CommandSpec {
  operands: Operands
  summary: string
  options: readonly OptionName[]
  runs: Runs
  /**
   * A client that does its work in its own process when no core runs (ask, approve and deny start a core of their
   * own, sessions reads the memory): it needs the whole core then, where a client needs only the client.
   */
  ownCore?: true
}

const ORG_OUTPUT = ['frames', 'no-frames'] as const satisfies OptionName[]
const SESSION = ['allow-outside', 'no-cache', 'prune'] as const satisfies OptionName[]
/** What a client of the running core says it works on, when given an argument it does not take. */
const RUNNING_CORE = {kind: 'none', scope: 'asks the core that runs on the project of the working folder'} as const
const SKILL_DOCUMENTS = {kind: 'none', scope: "reads the project's skill documents and settings"} as const

/** Every command, in the order the help lists them. */
export const COMMANDS = {
  init: {
    operands: {kind: 'folder'},
    summary:
      'write a project into DIR (default: the working folder): an example skill with a tool and its tests, ' +
      'passepartout.json, .env.example, .gitignore, package.json, README.md; into a folder of Org documents only ' +
      'what it lacks; never over anything',
    options: [],
    runs: 'toolchain',
  },
  tangle: {
    operands: {kind: 'paths'},
    summary:
      "write the files the Org documents' blocks tangle to (default: every .org file under the project's org/, " +
      'else under the project, or outside any project under the working folder)',
    options: ['dry-run', 'json', ...SESSION, ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  detangle: {
    operands: {kind: 'paths'},
    summary:
      'bring the edits of generated files back into the Org blocks they came from (default: every file a ' +
      "document of the project wrote that was edited since), and refuse, at its Org line, an edit that can't go back",
    options: ['allow-outside', ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  watch: {
    operands: {kind: 'paths'},
    summary:
      'check, then tangle and check each saved document again (the files that import it too) and print what ' +
      'check prints, until interrupted (Ctrl-C)',
    options: [...SESSION, 'detangle', ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  check: {
    operands: {kind: 'paths'},
    summary:
      'tangle, then type-check the generated TypeScript and hold skills to their #+CAPABILITIES:, every problem ' +
      'at its Org line; a document named is checked with the documents it depends on',
    options: ['json', ...SESSION, ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  deps: {
    operands: {kind: 'paths'},
    summary: 'the documents in load order (#+DEPENDS_ON: and :ID:)',
    options: ['json', 'dot', ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  weave: {
    operands: {kind: 'paths'},
    summary:
      "write a static site of the Org documents (default: the project's org/) into generated/site/: a page each, its " +
      'blocks coloured and each saying where it tangles, noweb references and IDs as links, an index with the ' +
      '#+DEPENDS_ON: graph, a search box; only the files whose bytes change are written',
    options: ['out', 'serve', 'port', 'allow-outside', ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  fmt: {
    operands: {kind: 'paths'},
    summary:
      'format the TypeScript and JavaScript blocks of Org documents in place, and .ts and .js files, at 120 ' +
      "columns (default: the project's org/ and tools/, else the .org files of the project or working folder)",
    options: ['check', ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  test: {
    operands: {kind: 'paths'},
    summary:
      'tangle and check the project, then run the Test Suites of the documents named (default: every one of its ' +
      "org/) with the installation's vitest; exit status vitest's, 1 when the project does not check",
    options: [...SESSION, ...ORG_OUTPUT],
    runs: 'toolchain',
  },
  skills: {
    operands: SKILL_DOCUMENTS,
    summary:
      "boot the project's skills (org/skills/) once and print the catalog; exit 1 when a mandatory skill is not " +
      'ready',
    options: ['json', ...ORG_OUTPUT],
    runs: 'one-shot',
  },
  ask: {
    operands: {kind: 'text'},
    summary:
      'start a turn with TEXT in the running core, or in a core of its own when none runs: print the ' +
      "model's words as they come, each step (the action, its gates, any approval it waits for), then the answer " +
      'and the session; exit status: how the turn ended (0 answered, 1 failed, 3 blocked, 4 at a limit, 5 ' +
      'waiting for approval, 130 cancelled)',
    options: ['session', 'model', 'json', ...ORG_OUTPUT],
    runs: 'client',
    ownCore: true,
  },
  approve: {
    operands: {kind: 'approval-id'},
    summary:
      'approve a proposal left waiting (by the running core when one runs): it passes the gates again, then runs',
    options: ['json', ...ORG_OUTPUT],
    runs: 'client',
    ownCore: true,
  },
  deny: {
    operands: {kind: 'approval-id'},
    summary: 'deny a proposal left waiting (by the running core when one runs): it never runs',
    options: ['json', ...ORG_OUTPUT],
    runs: 'client',
    ownCore: true,
  },
  doctor: {
    operands: SKILL_DOCUMENTS,
    summary: 'check the backends, memory and mandatory skills: healthy, degraded or unhealthy (exit 1)',
    options: ['json', ...ORG_OUTPUT],
    runs: 'one-shot',
  },
  run: {
    operands: {kind: 'none', scope: 'runs the core of the project of the working folder'},
    summary:
      "run the project's core until stopped (Ctrl-C): check the project, boot the core, say what it booted and " +
      "how to talk to it, and apply each saved document (tangled, checked, reloaded); a change to the core's own " +
      'documents restarts it',
    options: ['no-watch', 'once', 'tcp', 'host', ...ORG_OUTPUT],
    runs: 'server',
  },
  send: {
    operands: {kind: 'text'},
    summary:
      "send TEXT to the core that passepartout run keeps running on the project, as a turn: print the model's " +
      'words as they come, each step, then the answer and the session; Ctrl-C cancels the turn; exit status as ask',
    options: ['session', 'model', 'json', ...ORG_OUTPUT],
    runs: 'client',
  },
  status: {
    operands: RUNNING_CORE,
    summary: 'ask the running core for its skill catalog, backends, memory and health',
    options: ['json', ...ORG_OUTPUT],
    runs: 'client',
  },
  approvals: {
    operands: {kind: 'show-approval'},
    summary:
      'the actions the running core holds for approval: what each would run, which gate asked and why, and until ' +
      `when; then those started and not known to have finished; ${APPROVALS_PAGE} a page, each action cut at 200 ` +
      'characters; show ID: one whole',
    options: ['page', 'json', ...ORG_OUTPUT],
    runs: 'client',
  },
  logs: {
    operands: RUNNING_CORE,
    summary:
      "the running core's last log lines, 20 or --lines=N (reloads, backends tried, gates that blocked); " +
      'with -f, each new one',
    options: ['follow', 'lines', 'json', ...ORG_OUTPUT],
    runs: 'client',
  },
  chat: {
    operands: RUNNING_CORE,
    summary:
      'talk with the running core in a session (a new one, or --resume): each line a turn, printed as it goes, ' +
      'an action held for approval asked about at once; Ctrl-C cancels a turn, Ctrl-D ends',
    options: ['session', 'resume', 'model', ...ORG_OUTPUT],
    runs: 'client',
  },
  fire: {
    operands: {kind: 'skill'},
    summary:
      "run SKILL's schedule now in the running core, as at its time (its act or its prompt, through the gates), " +
      'and print what came of it once it ended; its next run stays when it was; exit 1 when it failed or did not run',
    options: ['json', ...ORG_OUTPUT],
    runs: 'client',
  },
  sessions: {
    operands: {kind: 'none', scope: "lists the sessions kept in the project's memory"},
    summary: 'the sessions kept in memory, the last used first: name, turns, last use, tokens the backends counted',
    options: ['json', ...ORG_OUTPUT],
    runs: 'client',
    ownCore: true,
  },
  emacs: {
    operands: {kind: 'none', scope: "prints the lines that load this installation's Emacs client"},
    summary:
      "print the lines an Emacs init file needs to load this installation's client, passepartout.el (its " +
      'load-path, then require)',
    options: [],
    runs: 'toolchain',
  },
  help: {
    operands: {kind: 'topic'},
    summary: 'this help, or the help of COMMAND',
    options: [],
    runs: 'toolchain',
  },
} as const satisfies Record<string, CommandSpec>

export type CommandName = keyof typeof COMMANDS

/** The commands a core runs (one-shot, client or server): those the core's dispatch has a handler for. */
export type CoreCommandName = {
  [Name in CommandName]: (typeof COMMANDS)[Name]['runs'] extends 'toolchain' ? never : Name
}[CommandName]

/** The commands a client of the running core runs. */
export type ClientCommandName = {
  [Name in CommandName]: (typeof COMMANDS)[Name]['runs'] extends 'client' ? Name : never
}[CommandName]

/** The clients that do their work in their own process when no core runs (`ownCore`). */
export type OwnCoreCommandName = {
  [Name in CommandName]: (typeof COMMANDS)[Name] extends {ownCore: true} ? Name : never
}[CommandName]

/** The commands the toolchain runs itself. */
export type ToolchainCommandName = Exclude<CommandName, CoreCommandName>

/** Whether NAME is a command of the table (and not, say, `toString`). */
export function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name)
}

/** The names of the commands PROCESS runs, in the table's order. */
export function commandsRunBy(...processes: Runs[]): CommandName[] {
  return (Object.keys(COMMANDS) as CommandName[]).filter((name) => processes.includes(COMMANDS[name].runs))
}
