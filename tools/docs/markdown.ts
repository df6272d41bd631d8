/**
 * The little Markdown the references are written in: a banner that says where a file comes from, and tables
 * whose cells cannot break their row.
 */

/** The first lines of a reference written from SOURCE: a comment a reader of the Markdown sees, not one of the page. */
export const banner = (source: string) =>
  `<!-- Written by make docs (tools/docs/references.ts) from ${source}: change that, then run make docs. -->`

/** TEXT as one cell of a table: a `|` would end the cell, a line break the row. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** A table of HEADER and ROWS, a row a line. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

/** TEXT as inline code. */
export const code = (text: string) => `\`${text}\``
