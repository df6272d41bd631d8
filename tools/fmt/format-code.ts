/**
 * One piece of code through Prettier, in the house style: the whole of a file,
 * or the body of an Org block, which is often a fragment.
 *
 * A block pulled into a class by a noweb reference holds methods, which do not
 * parse as a program. Such a block is formatted as the body of a class and
 * unwrapped again: its lines are indented by two spaces inside a synthetic
 * `class Fragment {…}` and lose those two spaces on the way out. Every line is
 * indented on the way in, so the lines Prettier copies as they are (those of a
 * template literal or of a comment that is not JSDoc) come back unchanged, and
 * the members are formatted at the width they have in a class (118 columns).
 *
 * A class written over several blocks, one after the other in the document,
 * has a block that opens it (`export class Core {` and its first members, no
 * closing brace) and one that closes it (its last members and `}`): the first is
 * formatted with a `}` after it, the last with `class Fragment {` before it, and
 * the line added is taken away again.
 */
import * as prettier from 'prettier'

export type CodeLanguage = 'typescript' | 'javascript'

/**
 * The style the code was already written in (two spaces, no semicolons, single quotes, no spaces inside
 * braces, trailing commas, parentheses around every arrow's parameters) at the 120 columns: of the
 * options that keep it, these change the fewest lines of tools/ and generated/ (README, "Formatting").
 * Template literals keep their text: `embeddedLanguageFormatting` off.
 */
export const HOUSE_STYLE = {
  printWidth: 120,
  tabWidth: 2,
  useTabs: false,
  semi: false,
  singleQuote: true,
  quoteProps: 'as-needed',
  bracketSpacing: false,
  trailingComma: 'all',
  arrowParens: 'always',
  endOfLine: 'lf',
  embeddedLanguageFormatting: 'off',
} as const satisfies prettier.Options

/** How the code parsed: as a whole program, as the members of a class, or as the start or the end of a class. */
export type CodeShape = 'program' | 'class-body' | 'class-head' | 'class-tail'

export type Formatted =
  | {ok: true; text: string; shape: CodeShape}
  | {
      ok: false
      /** The parser's sentence, without its place. */
      reason: string
      /** 1-based, in CODE. */
      line: number
      /** 1-based, in UTF-16 code units, in CODE. */
      column: number
    }

interface Attempt {
  shape: CodeShape
  /** CODE as the parser is given it. */
  wrap(code: string): string
  /** Prettier's output back to the shape of CODE, or undefined when it does not have the wrapper's form. */
  unwrap(text: string): string | undefined
  /** A place in the wrapped code as a place in CODE. */
  place(line: number, column: number): {line: number; column: number}
}

const PROGRAM: Attempt = {
  shape: 'program',
  wrap: (code) => code,
  unwrap: (text) => text,
  place: (line, column) => ({line, column}),
}

const CLASS_OPEN = 'class Fragment {'
const MEMBER_INDENT = '  '

const CLASS_BODY: Attempt = {
  shape: 'class-body',
  wrap: (code) => `${CLASS_OPEN}\n${indentLines(code, MEMBER_INDENT)}\n}\n`,
  unwrap(text) {
    const lines = text.split('\n')
    // `class Fragment {`, the members, `}`, and the empty string after the final line feed.
    if (lines[0] !== CLASS_OPEN || lines.at(-2) !== '}' || lines.at(-1) !== '') return undefined
    const members = lines.slice(1, -2)
    if (members.some((line) => line !== '' && !line.startsWith(MEMBER_INDENT))) return undefined
    return `${members.map((line) => line.slice(MEMBER_INDENT.length)).join('\n')}\n`
  },
  place: (line, column) => ({line: line - 1, column: Math.max(1, column - MEMBER_INDENT.length)}),
}

/** The start of a class, its closing brace in a later block: formatted with that brace. */
const CLASS_HEAD: Attempt = {
  shape: 'class-head',
  wrap: (code) => `${code}}\n`,
  unwrap(text) {
    if (!text.endsWith('\n}\n')) return undefined
    return text.slice(0, -'}\n'.length)
  },
  place: (line, column) => ({line, column}),
}

/** The end of a class (its last members, then `}`), opened in an earlier block: formatted in a class. */
const CLASS_TAIL: Attempt = {
  shape: 'class-tail',
  wrap: (code) => `${CLASS_OPEN}\n${code}`,
  unwrap(text) {
    if (!text.startsWith(`${CLASS_OPEN}\n`) || !text.endsWith('\n}\n')) return undefined
    return text.slice(CLASS_OPEN.length + 1)
  },
  place: (line, column) => ({line: line - 1, column}),
}

/** The parser Prettier uses for LANGUAGE, and a file name that tells it the dialect (`.ts`: no JSX). */
const PARSERS: Record<CodeLanguage, {parser: string; filepath: string}> = {
  typescript: {parser: 'typescript', filepath: 'code.ts'},
  javascript: {parser: 'babel', filepath: 'code.js'},
}

/**
 * CODE formatted in the house style; with FRAGMENTS, code that does not parse as a program is tried as the
 * members of a class, then as its start and as its end. A reading is kept only when the formatted code has
 * the words of CODE (below). When no reading is kept, the error of the one that got furthest into the code
 * before failing (an error past its end says only that the wrapper did not fit).
 */
export async function formatCode(
  code: string,
  language: CodeLanguage,
  options: {fragments: boolean},
): Promise<Formatted> {
  const attempts = options.fragments ? [PROGRAM, CLASS_BODY, CLASS_HEAD, CLASS_TAIL] : [PROGRAM]
  const lastLine = code.split('\n').length - (code.endsWith('\n') ? 1 : 0)
  const failures: Failed[] = []
  for (const attempt of attempts) {
    let text: string
    try {
      text = await prettier.format(attempt.wrap(code), {...HOUSE_STYLE, ...PARSERS[language]})
    } catch (error) {
      failures.push(syntaxError(error, attempt))
      continue
    }
    const unwrapped = attempt.unwrap(text)
    if (unwrapped === undefined) continue
    const changed = changedWord(code, unwrapped)
    if (changed === undefined) return {ok: true, text: unwrapped, shape: attempt.shape}
    failures.push({
      ok: false,
      reason: `read as ${attempt.shape}, the code would lose or gain ${changed}`,
      line: 1,
      column: 1,
    })
  }
  const within = failures.filter((failure) => failure.line <= lastLine)
  const furthest = within.reduce<Failed | undefined>(
    (best, failure) => (best && !isAfter(failure, best) ? best : failure),
    undefined,
  )
  return furthest ?? failures[0] ?? {ok: false, reason: 'the formatter gave code of another shape', line: 1, column: 1}
}

type Failed = Extract<Formatted, {ok: false}>

function isAfter(a: Failed, b: Failed): boolean {
  return a.line > b.line || (a.line === b.line && a.column > b.column)
}

/**
 * A word (an identifier, a keyword, a word of a string or a comment) that BEFORE and AFTER do not hold as
 * many times, or undefined when they hold the same words. Formatting moves words, never adds or drops one;
 * Prettier's TypeScript parser, though, reads some code that the compiler rejects and prints it without a
 * part: `export const = 2` read as a class member loses its `export`. The words are counted, not put in
 * order: Prettier puts a member's modifiers in their usual order (`static private` as `private static`).
 */
export function changedWord(before: string, after: string): string | undefined {
  const counts = new Map<string, number>()
  for (const [word] of before.matchAll(WORD)) counts.set(word, (counts.get(word) ?? 0) + 1)
  for (const [word] of after.matchAll(WORD)) counts.set(word, (counts.get(word) ?? 0) - 1)
  for (const [word, count] of counts) if (count !== 0) return `'${word}'`
  return undefined
}

/** A word: not the tail of a number (`0x1F`, `1e5`, `10n`), whose letters Prettier may change case. */
const WORD = /(?<![\p{ID_Continue}$])[\p{ID_Start}$_][\p{ID_Continue}$]*/gu

/** Prettier's syntax error as a reason and a place in the unwrapped code; any other error is a bug, thrown on. */
function syntaxError(error: unknown, attempt: Attempt): Failed {
  // Prettier's parser and printer recurse: code nested thousands deep ends their stack, which is the code's doing.
  if (error instanceof RangeError)
    return {ok: false, reason: 'it nests deeper than the formatter reads', line: 1, column: 1}
  const loc = (error as {loc?: {start?: {line?: number; column?: number}}}).loc?.start
  if (!(error instanceof SyntaxError) || loc?.line === undefined) throw error
  // `',' expected. (2:14)` followed by Prettier's own code frame: the sentence alone.
  const reason = error.message.split('\n')[0]!.replace(/ \(\d+:\d+\)$/, '')
  return {ok: false, reason, ...attempt.place(loc.line, loc.column ?? 1)}
}

/** Every line of TEXT that is not empty, after INDENT. */
function indentLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : indent + line))
    .join('\n')
}
