/**
 * The `passepartout` command line: parse the arguments by the command table, run the command, return the exit
 * status (0 success, 1 errors reported, 2 usage error). The commands the toolchain runs itself are here, one
 * function each; those a core runs are handed to it (core-command.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import {readToolchainSettings} from '../settings.ts'
import {type CommandName, COMMANDS, type ToolchainCommandName} from './command-table.ts'
import {type CommandInvocation, framesOf, parseCommandLine} from './command-line.ts'
import {type CommandContext, commandUsage, printUsageError, USAGE, UsageError} from './usage.ts'

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  quietOnClosedOutput()
  try {
    const parsed = parseCommandLine(argv)
    switch (parsed.kind) {
      case 'version':
        process.stdout.write(`passepartout ${version()} from ${installation()}\n`)
        return 0
      case 'command':
        return await runCommand(parsed, cwd)
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    printUsageError(error)
    return 2
  }
}

async function runCommand(invocation: CommandInvocation, cwd: string): Promise<number> {
  const {command, values} = invocation
  const context: CommandContext = {cwd, frames: framesOf(values)}
  const row = COMMANDS[command]
  try {
    // Each command is loaded when it runs: `tangle` does not pay for the type checker.
    if (row.runs === 'toolchain') return await TOOLCHAIN[command as ToolchainCommandName](invocation, context)
    return await (await import('./core-command.ts')).runCore(invocation, context)
  } catch (error) {
    // What the command's inputs turned out to be (a file that is not there) is about that command.
    if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, command)
    throw error
  }
}

type Runner = (invocation: CommandInvocation, context: CommandContext) => Promise<number>

/** The commands the toolchain runs, one each: what of the options each passes on to its module. */
export const TOOLCHAIN: Record<ToolchainCommandName, Runner> = {
  init: async ({operands}, context) => (await import('./init-command.ts')).runInit(operands, context),
  tangle: async ({operands, values}, context) => {
    const flags = {...sessionFlags(values), dryRun: values['dry-run'], json: values.json}
    return (await import('./tangle-command.ts')).runTangle(operands, flags, context)
  },
  detangle: async ({operands, values}, context) =>
    (await import('./detangle-command.ts')).runDetangle(operands, {allowOutside: values['allow-outside']}, context),
  watch: async ({operands, values}, context) => {
    const flags = {...sessionFlags(values), dryRun: false, json: false, detangle: values.detangle}
    return (await import('./watch-command.ts')).runWatch(operands, flags, context)
  },
  check: async ({operands, values}, context) =>
    (await import('./check-command.ts')).runCheck(operands, {...sessionFlags(values), json: values.json}, context),
  test: async ({operands, values}, context) =>
    (await import('./test-command.ts')).runTest(operands, {...sessionFlags(values), prune: values.prune}, context),
  fmt: async ({operands, values}, context) =>
    (await import('../fmt/command.ts')).runFmt(operands, {check: values.check}, context),
  deps: async ({operands, values}, context) =>
    (await import('./deps-command.ts')).runDeps(operands, {json: values.json, dot: values.dot}, context),
  weave: async ({operands, values}, context) => {
    const port = values.port === undefined ? undefined : Number(values.port)
    const flags = {...sessionFlags(values), out: values.out, serve: values.serve, port}
    return (await import('./weave-command.ts')).runWeave(operands, flags, context)
  },
  emacs: async () => (await import('./emacs-command.ts')).runEmacs(),
  help: async ({operands: [topic]}) => {
    // The table checked the topic is a command.
    process.stdout.write(topic === undefined ? USAGE : commandUsage(topic as CommandName))
    return 0
  },
}

/** What the options say of the project session a toolchain command opens. */
function sessionFlags(values: CommandInvocation['values']) {
  return {allowOutside: values['allow-outside'], cache: !values['no-cache'], prune: values.prune}
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

/**
 * The installation that answers (bin/launch.mjs says where it is): this repository, or a package npm installed,
 * globally or in a project; which one matters when a machine has more than one.
 */
function installation(): string {
  return readToolchainSettings().home ?? path.resolve(import.meta.dirname, '..', '..')
}

/** This installation's version, from its package.json. */
function version(): string {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(installation(), 'package.json'), 'utf8')).version)
  } catch {
    return 'unknown'
  }
}
