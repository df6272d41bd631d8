/**
 * The `passepartout` command line: parse the arguments, run the command,
 * return the exit status (0 success, 1 errors reported, 2 usage error).
 */
import {parseArgs} from 'node:util'
import fs from 'node:fs'
import path from 'node:path'
import {type CommandContext, COMMANDS, commandUsage, type OptionName, USAGE, UsageError} from './usage.ts'

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  quietOnClosedOutput()
  try {
    return await dispatch(argv, cwd)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`passepartout: ${error.message}\n\n${error.command ? commandUsage(error.command) : USAGE}`)
    return 2
  }
}

async function dispatch(argv: string[], cwd: string): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      // A bare --allow-outside allows every folder: the root, as --allow-outside=/ does.
      args: argv.map((arg) => (arg === '--allow-outside' ? '--allow-outside=/' : arg)),
      allowPositionals: true,
      strict: true,
      options: {
        'dry-run': {type: 'boolean', default: false},
        json: {type: 'boolean', default: false},
        dot: {type: 'boolean', default: false},
        'allow-outside': {type: 'string', multiple: true, default: []},
        'no-cache': {type: 'boolean', default: false},
        prune: {type: 'boolean', default: false},
        'no-watch': {type: 'boolean', default: false},
        once: {type: 'boolean', default: false},
        follow: {type: 'boolean', short: 'f', default: false},
        tcp: {type: 'string'},
        host: {type: 'string'},
        frames: {type: 'boolean'},
        'no-frames': {type: 'boolean'},
        help: {type: 'boolean', short: 'h', default: false},
        version: {type: 'boolean', default: false},
      },
      tokens: true,
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const {values, positionals, tokens} = parsed
  const [command, ...args] = positionals
  if (values.version) {
    process.stdout.write(`passepartout ${version()}\n`)
    return 0
  }
  if (command === 'help' || values.help) {
    const topic = command === 'help' ? args[0] : command
    if (topic !== undefined && !COMMANDS[topic]) throw new UsageError(`unknown command: ${topic}`)
    process.stdout.write(topic === undefined ? USAGE : commandUsage(topic))
    return 0
  }
  if (command !== undefined && COMMANDS[command]) {
    const taken = COMMANDS[command]!.options
    for (const token of tokens) {
      if (token.kind === 'option' && !taken.includes(token.name as OptionName)) throw new UsageError(`${command} does not take --${token.name}`, command)
    }
  }
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
      if (args.length > 0) throw new UsageError(`${command} takes no arguments: it reads the project's skill documents and settings`, command)
      return (await import('./core-command.ts')).runCore(command, [], {json: values.json}, context)
    case 'ask':
      if (args.length === 0) throw new UsageError('ask needs the text to send: passepartout ask "what is on my list?"', command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'approve':
    case 'deny':
      if (args.length !== 1) throw new UsageError(`${command} takes one approval id (passepartout ask prints it)`, command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'send':
      if (args.length === 0) throw new UsageError('send needs the text to send: passepartout send "what is on my list?"', command)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'status':
    case 'approvals':
    case 'logs':
    case 'chat':
      if (args.length > 0) throw new UsageError(`${command} takes no arguments: it asks the core that runs on the project of the working folder`, command)
      return (await import('./core-command.ts')).runCore(command, [], {json: values.json, follow: values.follow}, context)
    case 'deps':
      return (await import('./deps-command.ts')).runDeps(args, {json: values.json, dot: values.dot}, context)
    case 'run':
      if (args.length > 0) throw new UsageError('run takes no arguments: it runs the core of the project of the working folder', command)
      if (values.host !== undefined && values.tcp === undefined) throw new UsageError('--host names the interface of --tcp PORT: give the port too', command)
      if (values.tcp !== undefined && !/^\d+$/.test(values.tcp)) throw new UsageError(`--tcp takes a port number, not ${JSON.stringify(values.tcp)}`, command)
      if (values.tcp !== undefined && Number(values.tcp) > 65535) throw new UsageError(`--tcp takes a port from 0 (a free one) to 65535, not ${values.tcp}`, command)
      return (await import('./core-command.ts')).runCore('run', [], {json: false, watch: !values['no-watch'], once: values.once, tcp: values.tcp, host: values.host}, context)
    case undefined:
      throw new UsageError('no command given')
    case 'help':
      return 0
    default:
      throw new UsageError(`unknown command: ${command}`)
  }
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
