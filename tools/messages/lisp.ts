/**
 * What the Emacs Lisp reader and evaluator of header arguments (tools/tangle/lisp-*.ts) say, in three kinds:
 *
 * - the reader's errors (`LispReadError`), worded as Emacs's reader words them where Emacs has a sentence;
 * - signals (`LispSignal`): the error data Emacs 28.2 signals, as `prin1` prints it, byte for byte (the
 *   conformance and differential tests compare them with a live Emacs's);
 * - refusals (`LispRefusal`): what passepartout does not evaluate, and why, where Emacs would go on.
 *
 * A datum in a message comes printed (`printDatum`), so that this family depends on nothing.
 */

// ---------------------------------------------------------------------------
// The reader's errors, in a string literal.

/** A string literal with no closing `"`. */
export function unclosedString(): string {
  return 'End of file during parsing: the string has no closing double quote'
}

/** A string literal whose last character is a backslash. */
export function backslashEndsString(): string {
  return 'End of file during parsing: a backslash ends the string'
}

/** `\u` or `\U` followed by CHARACTER (code CODE), not a hex digit. */
export function nonHexUnicodeEscape(character: string | undefined, code: number): string {
  return `Non-hex character used for Unicode escape: ${character} (${code})`
}

/** A string literal that ends before the digits of its `\u` or `\U` escape. */
export function unicodeEscapeCutOff(): string {
  return 'End of file during parsing: the string ends inside a Unicode escape'
}

/** The input ends where the reader needs a character (after `\^` or `\C-`). */
export function endOfFileDuringParsing(): string {
  return 'End of file during parsing'
}

/** The escape `\MODIFIER` then NEXT (`\M-`, `\S{`, …): a modifier Emacs puts on a character, which passepartout does not. */
export function escapeNotSupported(modifier: string, next: string): string {
  return `The string escape \\${modifier}${next} is not supported by passepartout`
}

/** The escape ESCAPE names a character past U+10FFFF. */
export function escapeBeyondUnicode(escape: string): string {
  return `The string escape ${escape} is beyond Unicode, which passepartout does not read`
}

// ---------------------------------------------------------------------------
// Signals: Emacs's error data, as prin1 prints it.

/** The input ends before a whole form was read. */
export function endOfFile(): string {
  return '(end-of-file)'
}

/** The head of a form, PRINTED, is neither a symbol nor a lambda. */
export function invalidFunction(printed: string): string {
  return `(invalid-function ${printed})`
}

/** The function or special form NAME was called with COUNT arguments, outside its arity. */
export function wrongNumberOfArguments(name: string, count: number): string {
  return `(wrong-number-of-arguments ${name} ${count})`
}

/** A byte-compiled macro of arity (MANDATORY . NONREST) was called with COUNT arguments: Emacs names the arity. */
export function wrongNumberOfMacroArguments(mandatory: number, nonrest: number, count: number): string {
  return `(wrong-number-of-arguments (${mandatory} . ${nonrest}) ${count})`
}

/** The variable NAME has no value. */
export function voidVariable(name: string): string {
  return `(void-variable ${name})`
}

/** The argument PRINTED fails PREDICATE (`stringp`, `listp`, …). */
export function wrongTypeArgument(predicate: string, printed: string): string {
  return `(wrong-type-argument ${predicate} ${printed})`
}

/** A `format` string that ends with `%`. */
export function formatEndsInSpecifier(): string {
  return '(error "Format string ends in middle of format specifier")'
}

/** A `format` string with more conversions than arguments. */
export function formatArgumentsMissing(): string {
  return '(error "Not enough arguments for format string")'
}

/** `%CONVERSION`, no conversion of `format`. */
export function invalidFormatOperation(conversion: string): string {
  return `(error "Invalid format operation %${conversion}")`
}

/** `%d` of an argument that is no number. */
export function formatArgumentMismatch(): string {
  return '(error "Format specifier doesn’t match argument type")'
}

/** The reader's error PRINTED (a Lisp string, printed), signalled as `error`. */
export function readerError(printed: string): string {
  return `(error ${printed})`
}

/** `)` where a vector is open. */
export function closeInVector(): string {
  return '(invalid-read-syntax ") or . in a vector")'
}

/** `]` where a list is open. */
export function closeInList(): string {
  return '(invalid-read-syntax "] in a list")'
}

/** The closing CHARACTER, with nothing open. */
export function unopenedClose(character: string): string {
  return `(invalid-read-syntax "${character}")`
}

/** A `#b`, `#o` or `#x` integer whose digits are not of RADIX. */
export function radixDigits(radix: number): string {
  return `(invalid-read-syntax "integer, radix ${radix}")`
}

// ---------------------------------------------------------------------------
// Refusals: what passepartout does not evaluate.

/** `((lambda …) …)`. */
export function lambdaRefused(): string {
  return 'anonymous functions (lambda …) are not among those passepartout evaluates'
}

/** A call of NAME, a function passepartout does not evaluate. */
export function functionRefused(name: string): string {
  return `the function ${name} is not among those passepartout evaluates`
}

/** `system-type`, not known: on this platform (KNOWN_FILE, an Org file is known) or here (none is). */
export function systemTypeUnknown(knownFile: boolean): string {
  return `the variable system-type is not known to passepartout ${knownFile ? 'on this platform' : 'here'}`
}

/** The variable NAME, which passepartout does not evaluate. */
export function variableRefused(name: string): string {
  return `the variable ${name} is not among those passepartout evaluates`
}

/** WHAT (a function or variable) needs the Org file's name, and none was given. */
export function fileNameUnknown(what: string): string {
  return `${what} needs the Org file's name, which is not known here`
}

/** The Org file is named NAME, as a buffer Emacs starts with is: its buffer gets another name. */
export function bufferNameTaken(name: string): string {
  return `Emacs already has a buffer named ${name}, so uniquify names the Org file's buffer after its folder`
}

/** The character CODE, a raw byte or a surrogate, put in a string. */
export function characterNotUnicode(code: number): string {
  return `the character ${code} is a raw byte or not a Unicode character, which passepartout does not put in strings`
}

/** The `format` specification that begins with SPECIFICATION, which has a flag, width or precision. */
export function formatFlagRefused(specification: string): string {
  return `the format specification ${specification}… has a flag, width or precision; passepartout formats only %s, %d and %%`
}

/** `%CONVERSION`, a conversion of Emacs's `format` that passepartout does not do. */
export function formatConversionRefused(conversion: string): string {
  return `the format specification %${conversion} is not among those passepartout formats (only %s, %d and %%)`
}

/** `%d` of the float PRINTED, not finite or too large to truncate exactly. */
export function floatIntegerRefused(printed: string): string {
  return `%d of the float ${printed} is not among what passepartout formats`
}

/** A backquote template that unquotes. */
export function unquoteRefused(): string {
  return 'backquote with , or ,@ is not among what passepartout evaluates'
}

/** The file name NAME, which Emacs hands to a file-name handler. */
export function fileNameHandler(name: string): string {
  return `Emacs hands the file name ${name} to a file-name handler (TRAMP or /:), which passepartout does not evaluate`
}

/** DIRECTORY, the default directory, is relative. */
export function defaultDirectoryRelative(directory: string): string {
  return `the default directory ${directory} is not absolute`
}

/** `~USER`, a user's home directory. */
export function userHomeRefused(user: string): string {
  return `${user} names a user's home directory, which passepartout does not look up`
}

/** `~`, with HOME not an absolute directory. */
export function homeUnset(): string {
  return '~ expands to HOME, which is not set to an absolute directory here'
}

/** `?x`. */
export function characterLiteralRefused(): string {
  return 'character literals (?x) are not among the syntax passepartout reads'
}

/** A form nested deeper than LIMIT. */
export function nestedTooDeep(limit: number): string {
  return `the form nests deeper than ${limit} levels, more than passepartout evaluates`
}

/** The symbol TOKEN, with a backslash in it. */
export function symbolEscapeRefused(token: string): string {
  return `the symbol ${token} has a backslash escape, which passepartout does not read`
}

/** `(a . b)`. */
export function dottedPairRefused(): string {
  return 'dotted pairs (a . b) are not among the syntax passepartout reads'
}

/** The float TOKEN, an infinity or a NaN as Emacs writes them. */
export function floatRefused(token: string): string {
  return `the float ${token} is not among the numbers passepartout reads`
}

/** The integer WRITTEN (as written, radix prefix included), past what a double holds exactly. */
export function integerTooLarge(written: string): string {
  return `the integer ${written} is larger than passepartout computes with exactly`
}

/** The string escape ESCAPE (without its backslash), which Emacs reads as a raw byte or a non-character. */
export function rawByteEscape(escape: string): string {
  return `the string escape \\${escape} is a raw byte or not a Unicode character in Emacs; passepartout does not read it`
}

/** `#LETTER`, reader syntax other than a radix integer. */
export function sharpSyntaxRefused(letter: string): string {
  return `the reader syntax #${letter} is not among the syntax passepartout reads`
}
