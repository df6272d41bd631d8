/**
 * The help texts, made from the command table (command-table.ts): the list of commands and options, and each
 * command's own help; and the usage error, one plain sentence then the help of the command it is about.
 */
import {paletteFor, printable} from '../terminal.ts'
import {type CommandName, COMMANDS, type Operands, type OptionName, OPTIONS, type OptionSpec} from './command-table.ts'

/** A command line the program cannot act on: exit status 2; with the command whose help to print. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message)
  }
}

export interface CommandContext {
  cwd: string
  /** Print the Org lines around each diagnostic. */
  frames: boolean
}

/** One plain sentence naming the command, then its help (the list of commands when none was named). */
export function printUsageError(error: UsageError): void {
  const who = error.command ? `passepartout ${error.command}` : 'passepartout'
  const help = error.command ? commandUsage(error.command) : USAGE
  process.stderr.write(`${who}: ${paletteFor(process.stderr).error(printable(error.message))}\n\n${help}`)
}

/** How a command's help writes what it takes after its options. */
const OPERANDS: Record<Operands['kind'], string> = {
  none: '',
  paths: '[FILE|DIR ...]',
  folder: '[DIR]',
  text: 'TEXT',
  'approval-id': 'ID',
  'show-approval': '[show ID]',
  skill: 'SKILL',
  topic: '[COMMAND]',
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

const option = (name: OptionName): OptionSpec => OPTIONS[name]

/** `--tcp=PORT`, `--json`; those every command takes with their short form: `-h, --help`. */
function optionName(name: OptionName): string {
  const {short, value, everywhere} = option(name)
  if (everywhere) return short ? `-${short}, --${name}` : `--${name}`
  return `--${name}${value ? `=${value}` : ''}`
}

const column = (left: string) => `  ${left.padEnd(22)}  `
const INDENT = ' '.repeat(26)
const optionLine = (name: OptionName) => `${column(optionName(name))}${fold(option(name).help, 54, INDENT)}`
/** An option every command takes, where the list of options ends: `-h, --help`, its help unfolded. */
const everywhereLine = (name: OptionName) => `${column(optionName(name))}${option(name).help}`
const ALL_OPTIONS = Object.keys(OPTIONS) as OptionName[]
/** A command's line in the list of commands: its name, what it takes, its help. */
const commandEntry = (name: CommandName) =>
  `${column(`${name} ${OPERANDS[COMMANDS[name].operands.kind]}`.trim())}${fold(COMMANDS[name].summary, 54, INDENT)}`

export const USAGE = `usage: passepartout <command> [options] [arguments]

commands:
${(Object.keys(COMMANDS) as CommandName[]).map(commandEntry).join('\n')}

options (each command takes those its help lists: passepartout help COMMAND):
${ALL_OPTIONS.filter((name) => !option(name).everywhere)
  .map(optionLine)
  .join('\n')}
${ALL_OPTIONS.filter((name) => option(name).everywhere)
  .map(everywhereLine)
  .join('\n')}
`

export function commandUsage(name: CommandName): string {
  const {options, operands, summary} = COMMANDS[name]
  const lines = options.map(optionLine)
  const taken = OPERANDS[operands.kind]
  return `usage: passepartout ${name}${options.length > 0 ? ' [options]' : ''}${taken ? ` ${taken}` : ''}

${fold(summary, 78, '')}
${lines.length > 0 ? `\noptions:\n${lines.join('\n')}\n` : ''}`
}
