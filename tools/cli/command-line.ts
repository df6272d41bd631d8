/**
 * The command line read by the command table (command-table.ts), and written back for the process that runs
 * the command: the command line parses what a person typed with `parseCommandLine`, hands a core command on as
 * `commandLine` writes it, and the core parses that with the same function. Nothing here knows a command by
 * name: what each takes is the table's.
 */
import {parseArgs, type ParseArgsConfig} from 'node:util'
import {type CommandName, COMMANDS, isCommand, type OptionName, OPTIONS, type OptionSpec} from './command-table.ts'
import {UsageError} from './usage.ts'
import * as usage from '../messages/usage.ts'
import {readByAPerson} from '../terminal.ts'

/** The value of each option once the command line is checked: what parseArgs gives in strict mode. */
export type OptionValues = {[Name in OptionName]: ValueOf<(typeof OPTIONS)[Name]>}
type ValueOf<Option> = Option extends {multiple: true}
  ? string[]
  : Option extends {type: 'string'}
    ? string | undefined
    : boolean

/** A command to run, as the table checked it: its options and what follows them. */
export interface CommandInvocation {
  kind: 'command'
  command: CommandName
  values: OptionValues
  operands: string[]
}

/** What a command line asks: the version, or a command (`COMMAND --help` is the command `help COMMAND`). */
export type ParsedCommandLine = {kind: 'version'} | CommandInvocation

/** The options as node:util's parseArgs reads them, from the table: each boolean false unless given. */
const PARSE_OPTIONS = Object.fromEntries(
  Object.entries(OPTIONS as Record<string, OptionSpec>).map(([name, {type, short, multiple}]) => {
    const initial = multiple ? {multiple, default: []} : type === 'boolean' ? {default: false} : {}
    return [name, {type, ...(short ? {short} : {}), ...initial}]
  }),
) as ParseArgsConfig['options']

/** ARGV (without the program) read against the table; a UsageError names what is wrong, and the command. */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  // Read leniently and judged here, token by token: parseArgs's own errors are not sentences for a person.
  const {values, positionals, tokens} = leniently(argv)
  const [command, ...rest] = positionals
  const known = isCommand(command) ? command : undefined
  for (const token of tokens) if (token.kind === 'option') checkOption(token, known)
  if (values.version) return {kind: 'version'}
  if (values.help && command !== 'help') return checked('help', command === undefined ? [] : [command], values)
  if (command === undefined) throw new UsageError(usage.noCommand())
  if (!known) throw new UsageError(usage.unknownCommand(command))
  return checked(known, rest, values)
}

/**
 * Which entry runs ARGV, decided before anything is read or written: `clients` when it asks for a command a client
 * of the running core runs (bin/launch.mjs says what that entry loads), else `command-line` (main.ts), which also
 * says what is wrong with a command line. Read as `parseCommandLine` reads it.
 */
export function entryOf(argv: readonly string[]): 'clients' | 'command-line' {
  const {values, positionals} = leniently(argv)
  const [command] = positionals
  const asked = values.help !== true && values.version !== true && isCommand(command)
  return asked && COMMANDS[command].runs === 'client' ? 'clients' : 'command-line'
}

/** ARGV as parseArgs reads it with every option of the table, judging nothing: each option a token. */
function leniently(argv: readonly string[]) {
  return parseArgs({
    // A bare --allow-outside allows every folder: the root, as --allow-outside=/ does. A bare --resume takes up
    // the last session: its name is empty.
    args: argv.map((arg) => (arg === '--allow-outside' ? '--allow-outside=/' : arg === '--resume' ? '--resume=' : arg)),
    allowPositionals: true,
    strict: false,
    options: PARSE_OPTIONS,
    tokens: true,
  })
}

/** COMMAND with its OPERANDS and option VALUES, once the table's checks of both pass. */
function checked(command: CommandName, operands: string[], values: Record<string, unknown>): CommandInvocation {
  checkOperands(command, operands)
  for (const name of COMMANDS[command].options) {
    const value = values[name]
    const wrong = typeof value === 'string' ? (OPTIONS[name] as OptionSpec).check?.(value, values) : undefined
    if (wrong) throw new UsageError(wrong, command)
  }
  return {kind: 'command', command, values: values as OptionValues, operands}
}

type OptionToken = Extract<NonNullable<ReturnType<typeof parseArgs>['tokens']>[number], {kind: 'option'}>

/** TOKEN as COMMAND (if named) takes it: an option of the table, taken by it, with a value if it needs one. */
function checkOption(token: OptionToken, command: CommandName | undefined): void {
  const option = token.rawName
  if (!Object.hasOwn(OPTIONS, token.name)) throw new UsageError(usage.unknownOption(option), command)
  const name = token.name as OptionName
  const spec: OptionSpec = OPTIONS[name]
  if (spec.type === 'string') {
    // `--tcp --no-watch`: parseArgs takes the next option for the value; a negative number (`-n -1`) is a value, which
    // the option's check refuses with what it takes.
    const missing =
      token.value === undefined || (!token.inlineValue && token.value.startsWith('-') && !/^-\d/.test(token.value))
    // As it is written: `--tcp=PORT`, `-n N`.
    const value = spec.value ?? 'VALUE'
    const example = option.startsWith('--') ? `${option}=${value}` : `${option} ${value}`
    if (missing) throw new UsageError(usage.optionNeedsValue(option, example), command)
  } else if (token.value !== undefined) throw new UsageError(usage.optionTakesNoValue(option), command)
  const taken = !command || spec.everywhere || (COMMANDS[command].options as readonly string[]).includes(name)
  if (!taken) throw new UsageError(usage.notAnOptionOf(option, command), command)
}

/** OPERANDS as COMMAND takes them (the table's `operands`), or the usage error that says what it takes. */
function checkOperands(command: CommandName, operands: readonly string[]): void {
  const takes = COMMANDS[command].operands
  switch (takes.kind) {
    case 'none':
      if (operands.length > 0) {
        throw new UsageError(usage.unexpectedArgument(operands[0]!, command, takes.scope), command)
      }
      return
    case 'text':
      // A blank text is no text: `ask ""` says what `ask` says.
      if (operands.join(' ').trim() === '') {
        throw new UsageError(usage.textMissing(command), command)
      }
      return
    case 'approval-id':
      if (operands.length !== 1) {
        throw new UsageError(usage.oneApprovalId(operands.length), command)
      }
      return
    case 'show-approval':
      if (operands.length === 0 || (operands.length === 2 && operands[0] === 'show')) return
      throw new UsageError(usage.listOrShow(command), command)
    case 'skill':
      if (operands.length !== 1) {
        throw new UsageError(usage.oneSkillName(operands.length), command)
      }
      if (operands[0]!.trim() === '') throw new UsageError(usage.skillNameMissing(command), command)
      return
    case 'topic':
      // An unknown topic lists the commands: no command's help is the one to show.
      if (operands[0] !== undefined && !isCommand(operands[0])) throw new UsageError(usage.unknownCommand(operands[0]))
      return
    case 'folder':
      if (operands.length > 1) throw new UsageError(usage.oneFolder(operands.length), command)
      return
    case 'paths':
      return
  }
}

/**
 * INVOCATION written as a command line `parseCommandLine` reads back to the same: the command, each option it
 * takes that was given (`--json`, `--tcp=PORT`), then `--` and its operands, so that a text to send may start
 * with dashes.
 */
export function commandLine({command, values, operands}: CommandInvocation): string[] {
  const options = COMMANDS[command].options.flatMap((name) => {
    const value: unknown = values[name]
    if (Array.isArray(value)) return value.map((each) => `--${name}=${each}`)
    if (typeof value === 'string') return [`--${name}=${value}`]
    return value === true ? [`--${name}`] : []
  })
  return [command, ...options, '--', ...operands]
}

/** Whether to print the Org lines around each diagnostic: as asked, else when a person reads stderr. */
export function framesOf(values: Pick<OptionValues, 'frames' | 'no-frames'>): boolean {
  return values['no-frames'] ? false : values.frames || readByAPerson(process.stderr)
}
