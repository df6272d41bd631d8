/**
 * The messages of the `graph/*` rules: `#+DEPENDS_ON:` entries that name no
 * document, or too many, and documents that cannot be put in an order. Paths
 * in them are shown relative to the project by the caller.
 */
import type {Message} from '../diagnostics.ts'

/** Documents that depend on each other: CYCLE, the first again at its end. */
export function cycle(cycle: readonly string[]): Message {
  return {ruleId: 'graph/cycle', reason: `documents depend on each other: ${cycle.join(' → ')}`}
}

/** The ID ID is also held at FIRST (`path:LINE:COL`). */
export function duplicateId(id: string, first: string): Message {
  return {ruleId: 'graph/duplicate-id', reason: `the ID '${id}' is also at ${first}; each ID names one place`}
}

/** The entry TEXT names the documents NAMES by their file name. */
export function ambiguousDependency(text: string, names: readonly string[]): Message {
  return {
    ruleId: 'graph/ambiguous-dependency',
    reason: `'${text}' names several documents (${names.join(', ')})`,
    expected: ['name one by an ID (id:X)'],
  }
}

/** The entry TEXT (an `id:` entry when BY_ID) names NAME, which no ID and no document is. */
export function unknownDependency(text: string, name: string, byId: boolean): Message {
  const what = byId
    ? `no document holds the ID '${name}'`
    : `no document holds the ID '${name}' or is called ${name}.org`
  return {ruleId: 'graph/unknown-dependency', reason: `unknown dependency '${text}': ${what}`}
}

/** The entry TEXT names a shipped skill that does not boot: passepartout.json turns it off, or SHIPPED_SKILLS leaves it out. */
export function dependencyOff(text: string): Message {
  return {
    ruleId: 'graph/unknown-dependency',
    reason: `unknown dependency '${text}': the shipped skill ${text} is turned off (passepartout.json's skills, or SHIPPED_SKILLS)`,
  }
}

/** The entry TEXT names the document it is in. */
export function selfDependency(text: string): Message {
  return {ruleId: 'graph/self-dependency', reason: `the document depends on itself ('${text}')`}
}

/** START, said to be in a group of documents that depend on each other, has no cycle through it: a bug of the graph. */
export function noCycleThrough(start: string): string {
  return `no cycle through ${start} in its group`
}
