/**
 * The command table (tools/cli/command-table.ts) is the one definition of the command set: the parser takes
 * exactly the options each row lists, the help shows exactly them, the hand-off to the core reads back to what
 * was parsed, and every row the toolchain runs has its function in main.ts. (That every row a core runs has its
 * handler is the core's own test: org/core/commands.org.)
 */
import {describe, expect, it} from 'vitest'
import {type CommandName, COMMANDS, commandsRunBy, type OptionName, OPTIONS} from '../tools/cli/command-table.ts'
import {type CommandInvocation, commandLine, entryOf, parseCommandLine} from '../tools/cli/command-line.ts'
import {TOOLCHAIN} from '../tools/cli/main.ts'
import {commandUsage, USAGE, UsageError} from '../tools/cli/usage.ts'

const commands = Object.keys(COMMANDS) as CommandName[]
const options = (Object.keys(OPTIONS) as OptionName[]).filter((name) => !('everywhere' in OPTIONS[name]))

/** Operands COMMAND accepts: dashes in a text, to see that the hand-off keeps them operands. */
const OPERANDS: Record<CommandName, string[]> = Object.fromEntries(
  commands.map((name) => {
    const kind = COMMANDS[name].operands.kind
    const given = {text: ['-x', 'hello'], 'approval-id': ['0123abcd4567'], skill: ['scribe']} as Record<
      string,
      string[]
    >
    return [name, given[kind] ?? []]
  }),
) as Record<CommandName, string[]>

/** A value each option that takes one accepts. */
const VALUES: Partial<Record<OptionName, string>> = {
  'allow-outside': '/tmp',
  lines: '5',
  tcp: '0',
  host: '::1',
  session: 'notes',
  resume: 'notes',
  model: 'local/llama3.2',
  page: '2',
  out: 'site',
  port: '0',
}

/**
 * OPTION as written on COMMAND's line; `--host` comes with the port it needs, where a port is taken, and `--port`
 * with the `--serve` it is the port of, where one is.
 */
function written(command: CommandName, option: OptionName): string[] {
  const value = VALUES[option]
  if (value === undefined) return [`--${option}`]
  const takes = (name: OptionName) => (COMMANDS[command].options as readonly OptionName[]).includes(name)
  if (option === 'host' && takes('tcp')) return ['--tcp=0', `--host=${value}`]
  if (option === 'port' && takes('serve')) return ['--serve', `--port=${value}`]
  return [`--${option}=${value}`]
}

/** The usage error ARGV gets, or undefined when the table takes it. */
function refusal(argv: string[]): string | undefined {
  try {
    parseCommandLine(argv)
    return undefined
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    return error.message
  }
}

describe('the command table', () => {
  it.each(commands)('%s: the parser takes the options its row lists, and refuses every other by name', (command) => {
    const listed = COMMANDS[command].options as readonly OptionName[]
    for (const option of options) {
      const argv = [command, ...written(command, option), '--', ...OPERANDS[command]]
      if (listed.includes(option)) expect(refusal(argv), argv.join(' ')).toBeUndefined()
      else expect(refusal(argv), argv.join(' ')).toBe(`--${option} is not an option of ${command}`)
    }
  })

  it.each(commands)('%s: its help lists the options its row lists, and no other', (command) => {
    const help = commandUsage(command)
    const shown = [...help.matchAll(/^ {2}--([\w-]+)/gm)].map((match) => match[1])
    expect(shown).toEqual(COMMANDS[command].options)
    expect(USAGE).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'))
  })

  it.each(commandsRunBy('one-shot', 'client', 'server'))(
    '%s: handed to the core with every option it takes, it reads back to what was parsed',
    (command) => {
      // Every option but --session beside --resume, which names the session in its place.
      const taken = COMMANDS[command].options as readonly OptionName[]
      const together = taken.filter((option) => option !== 'session' || !taken.includes('resume'))
      const options = together.flatMap((option) => written(command, option))
      const argv = [command, ...options, '--', ...OPERANDS[command]]
      const parsed = parseCommandLine(argv) as CommandInvocation
      expect(parsed.kind).toBe('command')
      expect(parseCommandLine(commandLine(parsed))).toEqual(parsed)
    },
  )

  it('has a function in the command line for every command the toolchain runs, and none other', () => {
    expect(Object.keys(TOOLCHAIN).sort()).toEqual(commandsRunBy('toolchain').sort())
  })

  it("checks an option's value, and what a command takes after its options, by the row", () => {
    expect(refusal(['logs', '--lines=1001'])).toBe('--lines takes a number of lines from 1 to 1000, not "1001"')
    // A negative number is a value the option refuses, not an option in its place.
    expect(refusal(['logs', '-n', '-1'])).toBe('--lines takes a number of lines from 1 to 1000, not "-1"')
    expect(refusal(['logs', '-n', '--follow'])).toBe('-n needs a value: -n N')
    expect(refusal(['run', '--tcp=65536'])).toBe('--tcp takes a port from 0 (a free one) to 65535, not 65536')
    expect(refusal(['ask', ' '])).toBe('the text to send is missing: passepartout ask "what is on my list?"')
    expect(refusal(['deny'])).toBe('one approval id is expected (ask and send print it), not 0')
    expect(refusal(['fire'])).toBe("one skill's name is expected (status lists those with a schedule), not 0")
    const whole = 'approvals lists them, or shows one whole: passepartout approvals show ID'
    expect([refusal(['approvals', 'x']), refusal(['approvals', 'show']), refusal(['approvals', 'show', 'a'])]).toEqual([
      whole,
      whole,
      undefined,
    ])
    expect(refusal(['approvals', '--page=0'])).toBe('--page takes a page number from 1, or all, not "0"')
    expect(refusal(['approvals', '--page=all'])).toBeUndefined()
    // Two sessions named: neither is taken up silently.
    const oneSession = '--resume and --session each name the session to talk in: give one of them'
    expect(refusal(['chat', '--session=a', '--resume=b'])).toBe(oneSession)
    expect(refusal(['chat', '--resume', '--session=a'])).toBe(oneSession)
    expect(refusal(['chat', '--resume=b'])).toBeUndefined()
    const running = 'chat asks the core that runs on the project of the working folder'
    expect(refusal(['chat', 'now'])).toBe(`unexpected argument "now": ${running}`)
    const settings = "doctor reads the project's skill documents and settings"
    expect(refusal(['doctor', 'now'])).toBe(`unexpected argument "now": ${settings}`)
    expect(refusal(['help', 'nope'])).toBe("unknown command 'nope'")
    expect(parseCommandLine(['check', '--help'])).toMatchObject({kind: 'command', command: 'help', operands: ['check']})
  })

  it.each(commands)('%s: runs from the entry its row says, whatever its options and operands', (command) => {
    const options = COMMANDS[command].options.flatMap((option) => written(command, option))
    const entry = COMMANDS[command].runs === 'client' ? 'clients' : 'command-line'
    expect(entryOf([command, ...options, '--', ...OPERANDS[command]])).toBe(entry)
    expect(entryOf([...options, command, ...OPERANDS[command]])).toBe(entry)
  })

  it("runs from the command line's entry what a client does not: help, the version, a line it refuses", () => {
    const lines = [[], ['status', '--help'], ['--version', 'send', 'hi'], ['-h', 'status'], ['sent', 'hi'], ['--json']]
    expect(lines.map(entryOf)).toEqual(lines.map(() => 'command-line'))
    // What the table refuses of a client's line is said by the clients' entry, as the command line says it.
    expect(entryOf(['status', '--dot'])).toBe('clients')
  })
})
