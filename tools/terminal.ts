/**
 * What the command line writes to a terminal: text from outside (a model's reply, a skill's error, a shell
 * command's output, a file name) made printable, and colour where a terminal reads it.
 *
 * One function escapes, for every place that prints such text (diagnostics, the trace of a signal, approvals,
 * logs, chat, status): an escape sequence must not move the cursor, retitle the window or hide a line, and a
 * bidirectional override must not make a line read other than it runs (Trojan Source, CVE-2021-42574).
 *
 * Colour is on where a compiler would put it: on a terminal, off in a pipe or a file, off when `NO_COLOR` is
 * set to anything but the empty string (no-color.org), and on whatever the stream when `FORCE_COLOR` is set
 * (`0` or `false` turn it off), as Node and chalk read it. Node 20's `util.styleText` is not used: given a list
 * of styles it colours whatever the stream, and it takes an empty `NO_COLOR` for a set one.
 */

/**
 * The characters written out: C0 controls but tab and line feed, DEL, C1 controls (`\x1b`), and the
 * characters that change the direction of text (`\u202e`): the embeddings and overrides U+202A–U+202E, the
 * isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * TEXT with every character of UNPRINTABLE written out as an escape a person reads (`\x1b`, `\u202e`); tabs
 * and line feeds are kept. Written twice, the text is the same: what it writes out holds none of them.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** Whether what is written to STREAM is coloured, given the environment ENV. */
export function colourOn(stream: {isTTY?: boolean}, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  if (env.NO_COLOR) return false
  if (env.TERM === 'dumb') return false
  return readByAPerson(stream, env)
}

/**
 * Whether STREAM is a terminal a person reads, given the environment ENV. Emacs's `M-x compile` runs its command
 * on a pseudo-terminal, with the terminal Emacs itself runs in as TERM, and reads what comes as a compiler's
 * lines: escape sequences and the Org lines around a diagnostic would be text in its way. It says so in
 * INSIDE_EMACS (`28.2,compile`).
 */
export function readByAPerson(stream: {isTTY?: boolean}, env: NodeJS.ProcessEnv = process.env): boolean {
  if (/,compile\b/.test(env.INSIDE_EMACS ?? '')) return false
  return stream.isTTY === true
}

/** Text in the colour of what it says; each returns its text as it is when colour is off. */
export interface Palette {
  /** Red: an error, a block, a failure. */
  error(text: string): string
  /** Yellow: a warning, an action that waits for a person, a version kept. */
  warning(text: string): string
  /** Green: passed, reloaded, healthy. */
  success(text: string): string
  /** Bold: where a diagnostic is. */
  strong(text: string): string
}

/** Select Graphic Rendition: the sequence that turns a style on, and the one that turns only it off. */
const sgr = (on: number, off: number) => (text: string) => `\u001b[${on}m${text}\u001b[${off}m`

const COLOURED: Palette = {error: sgr(31, 39), warning: sgr(33, 39), success: sgr(32, 39), strong: sgr(1, 22)}

const same = (text: string) => text
export const PLAIN: Palette = {error: same, warning: same, success: same, strong: same}

/** The palette for what is written to STREAM: colours on a terminal, PLAIN elsewhere (see `colourOn`). */
export function paletteFor(stream: {isTTY?: boolean}, env: NodeJS.ProcessEnv = process.env): Palette {
  return colourOn(stream, env) ? COLOURED : PLAIN
}
