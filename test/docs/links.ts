/**
 * The links of the README and docs/ and where they lead: a relative link names a file of the repository, and an
 * anchor a heading of it (as GitHub makes a heading's anchor) or an `<a id="…">` it holds.
 */

/** The anchor GitHub gives a heading: lower case, its code marks and punctuation dropped, its blanks dashes. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Lines of TEXT outside fenced blocks, where a `#` is a heading's and a link a link. */
function prose(text: string): string[] {
  let fenced = false
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    return !fenced && !/^\s*(```|~~~)/.test(line)
  })
}

/** Every anchor the Markdown TEXT holds: its headings' (a repeated one numbered as GitHub numbers it) and its ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading) {
      const base = slug(heading[1]!)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      anchors.add(count === 0 ? base : `${base}-${count}`)
    }
    for (const id of line.matchAll(/<a id="([^"]+)">/g)) anchors.add(id[1]!)
  }
  return anchors
}

/** The targets of the links of TEXT that stay in the repository: `docs/a.md#b`, `#b`; no URL, no code span. */
export function linksOf(text: string): string[] {
  const targets: string[] = []
  for (const line of prose(text)) {
    const outsideCode = line.replace(/`[^`]*`/g, '')
    for (const link of outsideCode.matchAll(/\]\(([^)\s]+)\)/g))
      if (!/^[a-z][a-z0-9+.-]*:/i.test(link[1]!)) targets.push(link[1]!)
  }
  return targets
}
