/**
 * The examples of the README and docs/, read from their Markdown: fenced blocks, the marker above each
 * (`<!-- example: NAME -->`), the commands of a transcript (`$ passepartout status`) with the output shown under
 * each, and how a shown output is held to a printed one. What changes from run to run (a time, a pid, an id)
 * is compared as what it is, not as its value; a line that is only `…` stands for any lines.
 */

/** What the HTML comment above a block says of it. */
export interface Marker {
  /** The example the block belongs to: its transcripts run in one project, in the order of the document. */
  example?: string
  /** The block is the file PATH of the example's project, written before its next transcript. */
  file?: string
}

export interface Block {
  /** The Markdown file, relative to the repository. */
  file: string
  /** The line of the opening fence, 1-based. */
  line: number
  /** The block's lines, without the fences and the indentation of a list item. */
  lines: string[]
  marker: Marker | undefined
}

export interface Step {
  /** The command, as shown after `$ `. */
  command: string
  /** The lines shown under it, up to the next command. */
  output: string[]
}

const FENCE = /^(\s*)(```+|~~~+)(.*)$/
const MARKER = /^\s*<!--\s*(.*?)\s*-->\s*$/

/** `example: demo, file: org/a.org` as a marker; undefined for a comment that is none. */
export function parseMarker(comment: string): Marker | undefined {
  const marker: Marker = {}
  for (const part of comment.split(/,\s*(?=[a-z]+:)/)) {
    const found = /^(example|file):\s*(.+)$/.exec(part.trim())
    if (!found) return undefined
    marker[found[1] as keyof Marker] = found[2]!.trim()
  }
  return marker
}

/** The fenced blocks of the Markdown TEXT of FILE, each with the marker on the line above it (blank lines between). */
export function blocksOf(file: string, text: string): Block[] {
  const lines = text.split('\n')
  const blocks: Block[] = []
  for (let at = 0; at < lines.length; at++) {
    const open = FENCE.exec(lines[at]!)
    if (!open) continue
    const [, indent, fence] = open
    let end = at + 1
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence!) && lines[end]!.trim() === fence)) end++
    let above = at - 1
    while (above >= 0 && lines[above]!.trim() === '') above--
    const comment = above >= 0 ? MARKER.exec(lines[above]!) : null
    const body = lines.slice(at + 1, end).map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
    blocks.push({file, line: at + 1, lines: body, marker: comment ? parseMarker(comment[1]!) : undefined})
    at = end
  }
  return blocks
}

/** Whether BLOCK shows commands and what they printed. */
export const isTranscript = (block: Block) => block.lines.some((line) => line.startsWith('$ '))

/** The commands of a transcript, each with the lines shown under it (the blank lines that end them left out). */
export function stepsOf(block: Block): Step[] {
  const steps: Step[] = []
  for (const line of block.lines) {
    if (line.startsWith('$ ')) steps.push({command: line.slice(2), output: []})
    else steps.at(-1)?.output.push(line)
  }
  // A blank line before the next command parts them on the page: it is not output.
  for (const step of steps) while (step.output.at(-1)?.trim() === '') step.output.pop()
  return steps
}

/**
 * What changes from one run to the next, each kind a placeholder: compared as that kind, whatever its value. In
 * this order: a longer form is taken before the shorter one inside it (a session's name before its date).
 */
const VOLATILE: [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?/g, '<time>'],
  [/\b\d{8}-\d{6}-[0-9a-f]{4}\b/g, '<session>'],
  [/\b\d{4}-\d{2}-\d{2}(-\d{4})?\b/g, '<day>'],
  [/\b\d{2}:\d{2}(:\d{2})?\b/g, '<clock>'],
  [/\bpid \d+/g, 'pid <pid>'],
  [/\b[0-9a-f]{12}\b/g, '<id>'],
  [/\+\d+ms\b/g, '+<duration>'],
  [/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>'],
  [/\b\d+(\.\d+)? MB\b/g, '<size>'],
  [/\(attempt \d+\)/g, '(attempt <n>)'],
  [/(?<![\d.])\d+\.\d+(?![\d.])/g, '<n>'],
]

/** LINE as it is compared: its volatile parts placeholders, its runs of blanks one (columns align on values). */
export function normalize(line: string): string {
  let normal = line
  for (const [pattern, placeholder] of VOLATILE) normal = normal.replace(pattern, placeholder)
  return normal.replace(/\s+/g, ' ').trimEnd()
}

/** The shown line that stands for any lines, none included. */
const ANY = '…'

/**
 * Whether the ACTUAL lines are what the SHOWN lines say, and if so which shown line stands for which actual one
 * (the pairs, for what a later command takes from them). A shown line that is only `…` matches any lines.
 */
export function match(shown: readonly string[], actual: readonly string[]): [string, string][] | undefined {
  const wanted = shown.map((line) => (line.trim() === ANY ? ANY : normalize(line)))
  const got = actual.map(normalize)
  const failed = new Set<string>()
  const from = (i: number, j: number): [string, string][] | undefined => {
    if (i === wanted.length) return j === got.length ? [] : undefined
    if (failed.has(`${i},${j}`)) return undefined
    let found: [string, string][] | undefined
    if (wanted[i] === ANY) {
      for (let k = j; k <= got.length && !found; k++) found = from(i + 1, k)
    } else if (j < got.length && wanted[i] === got[j]) {
      const rest = from(i + 1, j + 1)
      if (rest) found = [[shown[i]!, actual[j]!], ...rest]
    }
    if (!found) failed.add(`${i},${j}`)
    return found
  }
  return from(0, 0)
}

/** What a later command may name from an earlier output: an approval's id, a process's pid, a session's name. */
const TAKEN: RegExp[] = [/\b[0-9a-f]{12}\b/g, /(?<=\bpid )\d+/g, /\b\d{8}-\d{6}-[0-9a-f]{4}\b/g]

/** For each pair of matched lines, each id, pid and session name shown, and the one printed in its place. */
export function taken(pairs: readonly [string, string][]): Map<string, string> {
  const found = new Map<string, string>()
  for (const [shown, printed] of pairs) {
    for (const pattern of TAKEN) {
      const printedOnes = printed.match(pattern) ?? []
      ;(shown.match(pattern) ?? []).forEach((token, k) => {
        if (printedOnes[k] !== undefined) found.set(token, printedOnes[k]!)
      })
    }
  }
  return found
}
