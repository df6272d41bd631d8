/**
 * What one Org document declares about itself, each with its place: the IDs
 * it holds (`:ID:` in the file-level drawer and in headings' drawers, as Org
 * 9.5 reads them), what its `#+DEPENDS_ON:` lines name, what its
 * `#+CAPABILITIES:` lines grant its code, and which version of the skill API
 * its `#+PASSEPARTOUT:` line says it needs. Plain data, so the tangle cache can
 * keep it for documents it does not read again.
 */
import type {Position} from 'unist'
import type {OrgRoot} from '../org/ast.ts'

export interface DocumentMeta {
  /** Absolute path of the Org file. */
  path: string
  ids: {id: string; position: Position}[]
  dependsOn: DependencyEntry[]
  /** The values of the `#+CAPABILITIES:` lines, as written. */
  capabilities: {value: string; position: Position}[]
  /** The value of its `#+PASSEPARTOUT:` line, as written (the last, when there are several, as Org reads keywords). */
  apiVersion?: {value: string; position: Position}
  /** The place of the first `#+PASSEPARTOUT:` line, when there are several: a document says once what it needs. */
  apiVersionFirst?: Position
}

export interface DependencyEntry {
  /** `id:X` and `[[id:X]]` name an ID; a bare word names an ID or a document's file name. */
  kind: 'id' | 'word'
  name: string
  /** The entry as written, for messages. */
  text: string
  /** The entry's place in its `#+DEPENDS_ON:` line (lines 1-based, columns 1-based in UTF-16 code units). */
  position: Position
}

export function documentMeta(path: string, root: OrgRoot): DocumentMeta {
  const meta: DocumentMeta = {path, ids: [], dependsOn: [], capabilities: []}
  for (const node of root.children) {
    if (node.type === 'propertyDrawer') {
      for (const property of node.properties) {
        // Org compares property keys ignoring case; `:ID:` with no value holds no ID.
        if (property.key.toUpperCase() === 'ID' && property.value !== '')
          meta.ids.push({id: property.value, position: property.position})
      }
    } else if (node.type === 'keyword' && node.key === 'DEPENDS_ON') {
      const line = node.position.start.line
      meta.dependsOn.push(...dependencyEntries(root.data.lines[line - 1] ?? '', line))
    } else if (node.type === 'keyword' && node.key === 'CAPABILITIES')
      meta.capabilities.push({value: node.value, position: node.position})
    else if (node.type === 'keyword' && node.key === 'PASSEPARTOUT') {
      meta.apiVersionFirst ??= meta.apiVersion?.position
      meta.apiVersion = {value: node.value, position: node.position}
    }
  }
  return meta
}

/**
 * The entries of one `#+DEPENDS_ON:` line: words separated by spaces or tabs,
 * where an Org link `[[id:X][a label]]` counts as one entry however many spaces
 * its label holds.
 *
 *     #+DEPENDS_ON: bouncer id:policy-core [[id:vault][the vault]]
 *                   ^       ^              ^
 */
export function dependencyEntries(text: string, line: number): DependencyEntry[] {
  const entries: DependencyEntry[] = []
  let i = text.indexOf(':', text.indexOf('#+') + 2) + 1
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code === 32 || code === 9) {
      i++
      continue
    }
    const end = text.startsWith('[[', i) ? linkEnd(text, i) : wordEnd(text, i)
    const written = text.slice(i, end)
    const position = {start: {line, column: i + 1}, end: {line, column: end + 1}}
    entries.push({...parseEntry(written), text: written, position})
    i = end
  }
  return entries
}

function wordEnd(text: string, from: number): number {
  let i = from
  while (i < text.length && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) i++
  return i
}

/** The end of the link opening at FROM (after its `]]`), or of its first word when it is never closed. */
function linkEnd(text: string, from: number): number {
  const close = text.indexOf(']]', from + 2)
  return close === -1 ? wordEnd(text, from) : close + 2
}

function parseEntry(written: string): {kind: DependencyEntry['kind']; name: string} {
  const link = /^\[\[([^\]]*)\](?:\[[^\]]*\])?\]$/.exec(written)
  const target = link ? link[1]! : written
  if (target.startsWith('id:')) return {kind: 'id', name: target.slice(3)}
  return {kind: 'word', name: target}
}
