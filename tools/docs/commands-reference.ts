/**
 * The reference of the command line (docs/reference/commands.md), from the command table: every command with
 * its help as `passepartout help COMMAND` prints it and the process that runs it, then every option and the
 * commands that take it.
 */
import {type CommandName, COMMANDS, type OptionName, OPTIONS, type Runs} from '../cli/command-table.ts'
import {commandUsage, USAGE} from '../cli/usage.ts'
import {banner, code, table} from './markdown.ts'

/** Where a command runs, in the words of the command table's `Runs`. */
const RUNS: Record<Runs, string> = {
  toolchain: 'the toolchain itself: no core',
  'one-shot': 'a core started for this command alone, and closed after it',
  client: 'a client of the core `passepartout run` keeps running on the project',
  server: 'the core that keeps running, supervised by the command line',
}

const commandNames = Object.keys(COMMANDS) as CommandName[]
const optionNames = Object.keys(OPTIONS) as OptionName[]

/** A command's section: its help as printed, and what runs it. */
function commandSection(name: CommandName): string {
  return [
    `### ${name}`,
    '',
    `Runs in ${RUNS[COMMANDS[name].runs]}.`,
    '',
    '```',
    commandUsage(name).trimEnd(),
    '```',
  ].join('\n')
}

/** `--tcp=PORT`, `-f, --follow`. */
function optionForm(name: OptionName): string {
  const spec = OPTIONS[name] as {short?: string; value?: string}
  const long = `--${name}${spec.value ? `=${spec.value}` : ''}`
  return spec.short ? `${code(`-${spec.short}`)}, ${code(long)}` : code(long)
}

/** The commands that take option NAME, or `every command`. */
function takenBy(name: OptionName): string {
  if ('everywhere' in OPTIONS[name]) return 'every command'
  return commandNames
    .filter((command) => (COMMANDS[command].options as readonly OptionName[]).includes(name))
    .map((command) => `[${command}](#${command})`)
    .join(', ')
}

export function commandsReference(): string {
  const options = table(
    ['option', 'taken by', 'what it does'],
    optionNames.map((name) => [optionForm(name), takenBy(name), OPTIONS[name].help]),
  )
  return `# Commands and options

${banner('the command table, tools/cli/command-table.ts')}

Every command of \`passepartout\` and every option, as the command table defines them: the parser, the help, the
hand-off to the core and the core's own dispatch all read that table. A command takes only the options its help
lists; any other is a usage error (exit status 2). What the commands print, their colours, their \`--json\`
reports and their exit statuses: [The command line](../command-line.md).

\`passepartout help\` prints:

\`\`\`
${USAGE.trimEnd()}
\`\`\`

## Commands

${commandNames.map(commandSection).join('\n\n')}

## Options

${options}
`
}
