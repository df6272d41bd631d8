/**
 * What a command line that passepartout cannot run is told (tools/cli/command-line.ts): each the message of a
 * `UsageError`, printed with the usage of the command it names. Each says what was wrong with what was typed, and,
 * where one helps, the line as it should be.
 */

/** No command was typed. */
export function noCommand(): string {
  return 'no command given'
}

/** COMMAND is none of passepartout's. */
export function unknownCommand(command: string): string {
  return `unknown command '${command}'`
}

/** OPTION, as typed, is none of passepartout's. */
export function unknownOption(option: string): string {
  return `unknown option ${option}`
}

/** OPTION takes a value, and none was given: EXAMPLE shows it with one. */
export function optionNeedsValue(option: string, example: string): string {
  return `${option} needs a value: ${example}`
}

/** OPTION is a switch, and was given a value. */
export function optionTakesNoValue(option: string): string {
  return `${option} takes no value`
}

/** OPTION is not among COMMAND's. */
export function notAnOptionOf(option: string, command: string): string {
  return `${option} is not an option of ${command}`
}

/** COMMAND takes no argument and was given OPERAND: SCOPE says what it works on instead. */
export function unexpectedArgument(operand: string, command: string, scope: string): string {
  return `unexpected argument ${JSON.stringify(operand)}: ${command} ${scope}`
}

/** COMMAND sends a text, and none was given. */
export function textMissing(command: string): string {
  return `the text to send is missing: passepartout ${command} "what is on my list?"`
}

/** COMMAND takes one approval id, and was given COUNT. */
export function oneApprovalId(count: number): string {
  return `one approval id is expected (ask and send print it), not ${count}`
}

/** COMMAND lists the approvals, or shows one: it was given something else. */
export function listOrShow(command: string): string {
  return `${command} lists them, or shows one whole: passepartout ${command} show ID`
}

/** A command of one skill was given COUNT names. */
export function oneSkillName(count: number): string {
  return `one skill's name is expected (status lists those with a schedule), not ${count}`
}

/** COMMAND of one skill was given a blank name. */
export function skillNameMissing(command: string): string {
  return `the skill's name is missing: passepartout ${command} scribe`
}

/** A command of one folder was given COUNT. */
export function oneFolder(count: number): string {
  return `one folder is expected, not ${count}`
}

/** PATH, named on the command line as it was typed, is neither a file nor a folder. */
export function noSuchPath(path: string): string {
  return `no such file or directory: ${path}`
}

/** PATH, named to `fmt`, is a file of a kind it does not format. */
export function notFormattable(path: string): string {
  return `fmt formats .org, .ts and .js files (and .mts, .cts, .mjs, .cjs), not ${path}`
}

/** `weave -o OUT`: OUT is a file. */
export function outputIsFile(out: string): string {
  return `-o ${out} is a file, not a folder: give the site a folder of its own (-o site)`
}

/** `weave -o OUT`: OUT is the project's root, whose files the site's index.html and assets would go over. */
export function outputIsProject(out: string): string {
  return `-o ${out} is the project's own folder: the site's index.html and assets would go over its files; give the site a folder of its own (-o site)`
}

/** `weave -o OUT`: OUT holds DOCUMENT, one of the documents woven. */
export function outputHoldsDocument(out: string, document: string): string {
  return `-o ${out} holds ${document}, a document woven: the site would go among the documents; give the site a folder of its own (-o site)`
}

/** `weave -o OUT`: OUT is inside FOLDER, a folder woven. */
export function outputInsideWoven(out: string, folder: string): string {
  return `-o ${out} is inside ${folder}, a folder woven: the site would go among the documents; give the site a folder of its own (-o site)`
}
