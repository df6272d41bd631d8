/**
 * The `passepartout` command line: parse the arguments, run the command,
 * return the exit status (0 success, 1 errors reported, 2 usage error).
 */
import {parseArgs, type ParseArgsConfig} from 'node:util'
import fs from 'node:fs'
import path from 'node:path'
import {paletteFor, printable} from '../terminal.ts'
import {
  type CommandContext,
  COMMANDS,
  commandUsage,
  MAX_LOG_LINES,
  OPTION_VALUES,
  type OptionName,
  USAGE,
  UsageError,
} from './usage.ts'

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  quietOnClosedOutput()
  try {
    return await dispatch(argv, cwd)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    // One plain sentence, then the help of the command it was about (the list of commands when none was named).
    const who = error.command ? `passepartout ${error.command}` : 'passepartout'
    const help = error.command ? commandUsage(error.command) : USAGE
    process.stderr.write(`${who}: ${paletteFor(process.stderr).error(printable(error.message))}\n\n${help}`)
    return 2
  }
}

/** Every option of the command line, as node:util's parseArgs reads it; COMMANDS says which command takes which. */
const OPTIONS = {
  'dry-run': {type: 'boolean', default: false},
  json: {type: 'boolean', default: false},
  dot: {type: 'boolean', default: false},
  'allow-outside': {type: 'string', multiple: true, default: []},
  'no-cache': {type: 'boolean', default: false},
  prune: {type: 'boolean', default: false},
  'no-watch': {type: 'boolean', default: false},
  once: {type: 'boolean', default: false},
  follow: {type: 'boolean', short: 'f', default: false},
  lines: {type: 'string', short: 'n'},
  tcp: {type: 'string'},
  host: {type: 'string'},
  frames: {type: 'boolean'},
  'no-frames': {type: 'boolean'},
  check: {type: 'boolean', default: false},
  help: {type: 'boolean', short: 'h', default: false},
  version: {type: 'boolean', default: false},
} as const satisfies ParseArgsConfig['options']

async function dispatch(argv: string[], cwd: string): Promise<number> {
  // Read leniently and judged here, token by token: parseArgs's own errors are not sentences for a person.
  const {values, positionals, tokens} = parseArgs({
    // A bare --allow-outside allows every folder: the root, as --allow-outside=/ does.
    args: argv.map((arg) => (arg === '--allow-outside' ? '--allow-outside=/' : arg)),
    allowPositionals: true,
    strict: false,
    options: OPTIONS,
    tokens: true,
  })
  const [command, ...args] = positionals as string[]
  const known = command !== undefined && COMMANDS[command] ? command : undefined
  for (const token of tokens) if (token.kind === 'option') checkOption(token, known)
  if (values.version) {
    process.stdout.write(`passepartout ${version()}\n`)
    return 0
  }
  if (command === 'help' || values.help) {
    const topic = command === 'help' ? args[0] : command
    if (topic !== undefined && !COMMANDS[topic]) throw new UsageError(`unknown command '${topic}'`)
    process.stdout.write(topic === undefined ? USAGE : commandUsage(topic))
    return 0
  }
  try {
    return await runCommand(command, args, values as Values, cwd)
  } catch (error) {
    // What the command's inputs turned out to be (a file that is not there) is about that command.
    if (error instanceof UsageError && error.command === undefined && known) throw new UsageError(error.message, known)
    throw error
  }
}

/** The options' values once each token is checked: what parseArgs gives in strict mode. */
type Values = {[Name in keyof typeof OPTIONS]: ValueOf<(typeof OPTIONS)[Name]>}
type ValueOf<Option> = Option extends {multiple: true}
  ? string[]
  : Option extends {type: 'string'}
    ? string | undefined
    : boolean

type OptionToken = Extract<NonNullable<ReturnType<typeof parseArgs>['tokens']>[number], {kind: 'option'}>

/** TOKEN as COMMAND (if named) takes it: an option of the command line, taken by it, with a value if it needs one. */
function checkOption(token: OptionToken, command: string | undefined): void {
  const name = token.name as keyof typeof OPTIONS
  const option = token.rawName
  if (!Object.hasOwn(OPTIONS, name)) throw new UsageError(`unknown option ${option}`, command)
  if (OPTIONS[name].type === 'string') {
    // `--tcp --no-watch`: parseArgs takes the next option for the value.
    const missing = token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))
    const value = OPTION_VALUES[name as OptionName] ?? 'VALUE'
    // As it is written: `--tcp=PORT`, `-n N`.
    const example = option.startsWith('--') ? `${option}=${value}` : `${option} ${value}`
    if (missing) throw new UsageError(`${option} needs a value: ${example}`, command)
  } else if (token.value !== undefined) throw new UsageError(`${option} takes no value`, command)
  const taken = !command || name === 'help' || name === 'version' || (COMMANDS[command]!.options as string[]).includes(name)
  if (!taken) throw new UsageError(`${option} is not an option of ${command}`, command)
}

async function runCommand(command: string | undefined, args: string[], values: Values, cwd: string): Promise<number> {
  const context: CommandContext = {cwd, frames: values['no-frames'] ? false : (values.frames ?? process.stderr.isTTY === true)}
  const flags = {dryRun: values['dry-run'], json: values.json, allowOutside: values['allow-outside'], cache: !values['no-cache'], prune: values.prune}
  // Each command is loaded when it runs: `tangle` does not pay for the type checker.
  switch (command) {
    case 'tangle':
      return (await import('./tangle-command.ts')).runTangle(args, flags, context)
    case 'watch':
      return (await import('./watch-command.ts')).runWatch(args, flags, context)
    case 'check':
      return (await import('./check-command.ts')).runCheck(args, flags, context)
    case 'skills':
    case 'doctor':
      if (args.length > 0) throw unexpected(command, args, `${command} reads the project's skill documents and settings`)
      return (await import('./core-command.ts')).runCore(command, [], {json: values.json}, context)
    case 'ask':
      if (args.length === 0) throw missingText(command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'approve':
    case 'deny':
      if (args.length !== 1) throw new UsageError(`one approval id is expected (ask and send print it), not ${args.length}`, command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'send':
      if (args.length === 0) throw missingText(command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'status':
    case 'approvals':
    case 'logs':
    case 'chat': {
      if (args.length > 0) throw unexpected(command, args, `${command} asks the core that runs on the project of the working folder`)
      const asked = {json: values.json, follow: values.follow, lines: logLines(values.lines, command)}
      return (await import('./core-command.ts')).runCore(command, [], asked, context)
    }
    case 'fmt':
      return (await import('../fmt/command.ts')).runFmt(args, {check: values.check}, context)
    case 'deps':
      return (await import('./deps-command.ts')).runDeps(args, {json: values.json, dot: values.dot}, context)
    case 'run':
      if (args.length > 0) throw unexpected(command, args, 'run runs the core of the project of the working folder')
      if (values.host !== undefined && values.tcp === undefined) {
        throw new UsageError('--host names the interface of --tcp=PORT: give the port too', command)
      }
      if (values.tcp !== undefined && !/^\d+$/.test(values.tcp)) throw new UsageError(`--tcp takes a port number, not ${JSON.stringify(values.tcp)}`, command)
      if (values.tcp !== undefined && Number(values.tcp) > 65535) throw new UsageError(`--tcp takes a port from 0 (a free one) to 65535, not ${values.tcp}`, command)
      return (await import('./core-command.ts')).runCore('run', [], {json: false, watch: !values['no-watch'], once: values.once, tcp: values.tcp, host: values.host}, context)
    case undefined:
      throw new UsageError('no command given')
    default:
      throw new UsageError(`unknown command '${command}'`)
  }
}

/** How many of the core's last log lines `logs` asks for: 20 unless `--lines=N` (`-n N`) says, up to what it keeps. */
function logLines(value: string | undefined, command: string): number | undefined {
  if (value === undefined) return undefined
  const lines = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!(lines >= 1 && lines <= MAX_LOG_LINES)) {
    const range = `from 1 to ${MAX_LOG_LINES}`
    throw new UsageError(`--lines takes a number of lines ${range}, not ${JSON.stringify(value)}`, command)
  }
  return lines
}

/** The usage error of `ask` or `send` without a text. */
function missingText(command: string): UsageError {
  return new UsageError(`the text to send is missing: passepartout ${command} "what is on my list?"`, command)
}

/** The usage error of an argument COMMAND does not take; WHY says what it works on instead. */
function unexpected(command: string, args: string[], why: string): UsageError {
  return new UsageError(`unexpected argument ${JSON.stringify(args[0])}: ${why}`, command)
}

/**
 * `passepartout deps | head`: the reader went away. Like a Unix tool killed by SIGPIPE, stop without a word
 * (Node ignores the signal, and the write's EPIPE would otherwise end the process with a stack trace); the
 * files were written before anything was printed.
 */
function quietOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
      process.exitCode = 1
    })
  }
}

/** This installation's version, from its package.json. */
function version(): string {
  const home = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..', '..')
  try {
    return String(JSON.parse(fs.readFileSync(path.join(home, 'package.json'), 'utf8')).version)
  } catch {
    return 'unknown'
  }
}
