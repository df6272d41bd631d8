/**
 * The `passepartout` command line: parse the arguments, run the command,
 * return the exit status (0 success, 1 errors reported, 2 usage error).
 */
import {parseArgs} from 'node:util'
import {type CommandContext, USAGE, UsageError} from './usage.ts'

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  quietOnClosedOutput()
  try {
    return await dispatch(argv, cwd)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`passepartout: ${error.message}\n\n${USAGE}`)
    return 2
  }
}

async function dispatch(argv: string[], cwd: string): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'dry-run': {type: 'boolean', default: false},
        json: {type: 'boolean', default: false},
        dot: {type: 'boolean', default: false},
        'allow-outside': {type: 'boolean', default: false},
        'no-cache': {type: 'boolean', default: false},
        frames: {type: 'boolean'},
        'no-frames': {type: 'boolean'},
        help: {type: 'boolean', short: 'h', default: false},
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const {values, positionals} = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const [command, ...args] = positionals
  const context: CommandContext = {cwd, frames: values['no-frames'] ? false : (values.frames ?? process.stderr.isTTY === true)}
  const flags = {dryRun: values['dry-run'], json: values.json, allowOutside: values['allow-outside'], cache: !values['no-cache']}
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
      if (args.length > 0) throw new UsageError(`${command} takes no arguments: it reads the project's skill documents and settings`)
      return (await import('./core-command.ts')).runCore(command, [], {json: values.json}, context)
    case 'ask':
      if (args.length === 0) throw new UsageError('ask needs the text to send: passepartout ask "what is on my list?"')
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'approve':
    case 'deny':
      if (args.length !== 1) throw new UsageError(`${command} takes one approval id (passepartout ask prints it)`)
      return (await import('./core-command.ts')).runCore(command, args, {json: values.json}, context)
    case 'deps':
      return (await import('./deps-command.ts')).runDeps(args, {json: values.json, dot: values.dot}, context)
    case undefined:
      throw new UsageError('no command given')
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
