/**
 * Org's comma escapes, written back into a block: by the formatter, and by detangle.
 *
 * Tangling removes one comma from a line that starts, after its indentation,
 * with commas then `*` or `#+` (`org-unescape-code-in-string`). A formatted line
 * is escaped (a comma after its indentation) when tangling would otherwise read
 * it differently or Org would read it as its own syntax:
 *
 *     ,,* a line that starts with commas and a star   (tangling eats one comma)
 *     ,* a headline                                   (a star at column 0)
 *       ,#+end_src                                    (a keyword, at any indentation)
 *
 * and when the author escaped the same line in the block before it was
 * formatted (` ,* doc`, where ` * doc` would do), so that formatting does not
 * undo an escape. Unescaping the escaped line gives the line back.
 */

const ESCAPABLE = /^([ \t]*)(,*)(\*|#\+)/
const ESCAPED = /^([ \t]*),(,*(?:\*|#\+).*)$/

/** LINE as the block holds it (its indentation included), with a comma if it needs or had one. */
export function escapeLine(line: string, escapedBefore: ReadonlySet<string>): string {
  const match = ESCAPABLE.exec(line)
  if (!match) return line
  const [, indentation, commas, marker] = match
  const needed = commas !== '' || marker === '#+' || (indentation === '' && marker === '*')
  if (!needed && !escapedBefore.has(line.trimStart())) return line
  return `${indentation},${line.slice(indentation!.length)}`
}

/**
 * The lines of a block that were escaped, as they read once unescaped and without their indentation: what
 * `escapeLine` escapes again wherever the formatter put them.
 */
export function escapedLines(lines: readonly string[]): Set<string> {
  const escaped = new Set<string>()
  for (const line of lines) {
    const match = ESCAPED.exec(line)
    if (match) escaped.add(match[2]!)
  }
  return escaped
}
