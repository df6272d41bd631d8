/**
 * Noweb references kept through the formatter: each `<<name>>` of a block whose
 * `:noweb` expands references becomes an identifier the formatter keeps, and
 * comes back once the code is formatted.
 *
 *     class Scanner {                class Scanner {
 *       <<scanner-script>>    →        _nw0_____________;
 *     }                              }
 *
 * A reference alone on its line (the usual case: a class's methods pulled in
 * from another block) becomes a statement, `;`-terminated so that the next line
 * cannot continue it; in a class it reads as a field. It must come back alone on
 * its line, at whatever indentation the formatter gave it. A reference inside a
 * line becomes an identifier of the same length, so that lines break where they
 * would with the reference. The formatter may not copy, drop or split one:
 * the block is then left as it is (`fmt/noweb`).
 */
import {findReferences} from '../tangle/noweb.ts'

export interface ProtectedCode {
  /** The code with placeholders for the references. */
  code: string
  /**
   * The formatted code with the references back; `moved` is the first reference that did not come back as it
   * was written (copied, dropped, or no longer alone on its line).
   */
  restore(formatted: string): {ok: true; code: string} | {ok: false; moved: Placeholder}
}

export interface Placeholder {
  /** The reference as written, `<<name>>`. */
  reference: string
  name: string
  /** 0-based line of the code, and the 0-based column of the reference in it. */
  line: number
  column: number
  /** The reference is the only text of its line. */
  alone: boolean
  identifier: string
}

/** CODE (lines ending in `\n`) with each noweb reference replaced by a placeholder the formatter keeps. */
export function protectReferences(code: string): ProtectedCode {
  const lines = code.split('\n')
  const found = lines.flatMap((text, line) =>
    findReferences(text).map((reference) => ({
      ...reference,
      line,
      alone: text.trim() === text.slice(reference.start, reference.end),
    })),
  )
  const stem = freeStem(code)
  const placeholders: Placeholder[] = found.map((reference, k) => ({
    reference: lines[reference.line]!.slice(reference.start, reference.end),
    name: reference.name,
    line: reference.line,
    column: reference.start,
    alone: reference.alone,
    identifier: `${stem}${k}`.padEnd(reference.end - reference.start, '_'),
  }))
  // Right to left in each line, so that the columns of the references still to replace hold.
  for (const placeholder of [...placeholders].reverse()) {
    const text = lines[placeholder.line]!
    const replacement = placeholder.alone ? `${placeholder.identifier};` : placeholder.identifier
    lines[placeholder.line] = placeholder.alone
      ? text.slice(0, placeholder.column) + replacement
      : text.slice(0, placeholder.column) + replacement + text.slice(placeholder.column + placeholder.reference.length)
  }
  return {code: lines.join('\n'), restore: (formatted) => restoreReferences(formatted, placeholders)}
}

function restoreReferences(
  formatted: string,
  placeholders: readonly Placeholder[],
): ReturnType<ProtectedCode['restore']> {
  let code = formatted
  for (const placeholder of placeholders) {
    const occurrences = [...code.matchAll(tokenPattern(placeholder.identifier))]
    if (occurrences.length !== 1) return {ok: false, moved: placeholder}
    const at = occurrences[0]!.index
    if (placeholder.alone) {
      const start = code.lastIndexOf('\n', at - 1) + 1
      const end = code.indexOf('\n', at) === -1 ? code.length : code.indexOf('\n', at)
      const line = code.slice(start, end)
      const indentation = line.slice(0, at - start)
      if (indentation.trim() !== '' || !/^;?$/.test(line.slice(at - start + placeholder.identifier.length))) {
        return {ok: false, moved: placeholder}
      }
      code = code.slice(0, start) + indentation + placeholder.reference + code.slice(end)
    } else code = code.slice(0, at) + placeholder.reference + code.slice(at + placeholder.identifier.length)
  }
  return {ok: true, code}
}

/** The identifier as a whole word: not part of a longer name. */
function tokenPattern(identifier: string): RegExp {
  return new RegExp(`(?<![\\p{ID_Continue}$])${identifier.replaceAll('$', '\\$')}(?![\\p{ID_Continue}$])`, 'gu')
}

/** A prefix for placeholders (`_nw0`, `_nw1`, …) that the code does not already use as the start of a name. */
function freeStem(code: string): string {
  for (let salt = 0; ; salt++) {
    const stem = salt === 0 ? '_nw' : `_nw${salt}x`
    if (!new RegExp(`(?<![\\p{ID_Continue}$])${stem}`, 'u').test(code)) return stem
  }
}
