/**
 * Which skill files the sandbox rules need to parse. Every rule needs one of
 * these in the text: the specifier of a module of Node that needs a
 * capability (capabilities.ts), `fs`, `require`, `import(`, a global's name,
 * `process`, or a backslash, since an escape in a string or a name
 * (`'\x63hild_process'`, `\u0065val`) can spell any of them. A file with none cannot break a rule,
 * so neither it nor TypeScript's parser is loaded for it. The rules
 * themselves always read the syntax tree.
 */
import fs from 'node:fs'
import {builtinModules} from 'node:module'
import {moduleCapability} from './capabilities.ts'

/** A specifier of Node's modules that are not free: `'node:` anything, or a restricted name closed by a quote or a slash. */
const RESTRICTED_SPECIFIER = `["'\`](?:node:|(?:${builtinModules
  .filter((name) => moduleCapability(name) !== undefined)
  .map((name) => name.replace(/[/]/g, '\\/'))
  .join('|')})["'\`/])`

const MAY_VIOLATE = new RegExp(
  `${RESTRICTED_SPECIFIER}|\\bfs\\b|require|\\bimport\\s*[(/]|\\beval\\b|Function|process|fetch|WebSocket|XMLHttpRequest|EventSource|\\bmodule\\b|\\\\`,
)

export function mayViolate(text: string): boolean {
  return MAY_VIOLATE.test(text)
}

/** The text of FILE when it may hold a violation; undefined when it cannot, or cannot be read. */
export function suspectText(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8')
    return mayViolate(text) ? text : undefined
  } catch {
    return undefined
  }
}
