/**
 * Property inheritance as `org-entry-get` with INHERIT does it, for the
 * `header-args` properties: the nearest definition wins as a whole, `NAME+`
 * definitions append to it on their way up, and `#+PROPERTY` lines come last.
 */
import type {Position} from 'unist'
import type {OrgDocument} from './document.ts'

export interface InheritedValue {
  value: string
  /** Where the definitions that make up the value are, nearest first. */
  origins: Position[]
}

/** The inherited value of PROPERTY for the entry of `headline` (-1: before the first headline). */
export function inheritedProperty(doc: OrgDocument, headline: number, property: string): InheritedValue | undefined {
  let value: string | undefined
  const origins: Position[] = []
  let entry = headline
  for (;;) {
    const local = localValues(doc, entry, property)
    if (local) {
      const own = local.values.filter((v): v is string => v !== null).join(' ')
      value = value === undefined ? own : `${own} ${value}`
      origins.push(...local.origins)
      if (local.values[0] !== null) return finish(value, origins)
    }
    const up = entryAbove(doc, entry)
    if (up === undefined) break
    entry = up
  }
  const global = doc.keywordProperties.get(property.toLowerCase())
  if (global && global.value !== 'nil') {
    value = value === undefined ? global.value : `${global.value} ${value}`
    origins.push(linePosition(doc, global.line))
  }
  return finish(value, origins)
}

function finish(value: string | undefined, origins: Position[]): InheritedValue | undefined {
  return value === undefined || value === 'nil' ? undefined : {value, origins}
}

/**
 * `org--property-local-values`: the first `:PROPERTY:` of the entry's drawer
 * (null when absent or "nil") followed by every `:PROPERTY+:`.
 */
function localValues(
  doc: OrgDocument,
  entry: number,
  property: string,
): {values: (string | null)[]; origins: Position[]} | undefined {
  const drawer = doc.drawers.get(entry)
  if (!drawer) return undefined
  const name = property.toLowerCase()
  let base: string | null = null
  let found = false
  const plus: string[] = []
  const origins: Position[] = []
  for (const item of drawer.properties) {
    const key = item.key.toLowerCase()
    if (key === name && !found) {
      found = true
      base = item.value === 'nil' ? null : item.value
      origins.push(item.position)
    } else if (key === `${name}+`) {
      plus.push(item.value)
      origins.push(item.position)
    }
  }
  if (base === null && plus.length === 0) return undefined
  return {values: [base, ...plus], origins}
}

/**
 * `org-up-heading-or-point-min`: the parent headline, else the entry at the
 * start of the buffer (the file-level drawer, or the first headline when the
 * file starts with one), else nothing.
 */
function entryAbove(doc: OrgDocument, entry: number): number | undefined {
  if (entry < 0) return undefined
  const headline = doc.headlines[entry]!
  if (headline.level > 1) return headline.parent >= 0 ? headline.parent : undefined
  if (headline.position.start.line === 1) return undefined
  return doc.headlines[0]!.position.start.line === 1 ? 0 : -1
}

function linePosition(doc: OrgDocument, line: number): Position {
  const start = doc.lineStart(line)
  const text = doc.lines[line - 1] ?? ''
  return {start: {line, column: 1, offset: start}, end: {line, column: text.length + 1, offset: start + text.length}}
}
