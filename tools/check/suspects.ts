/**
 * Which skill files the sandbox rules need to parse. Every rule needs one of
 * these words in the text (a module's name in its specifier, `require`,
 * `import(`, a global's name, `process`) or a unicode escape that could spell
 * one; a file with none cannot break a rule, so neither it nor TypeScript's
 * parser is loaded for it. The rules themselves always read the syntax tree.
 */
import fs from 'node:fs'

const MAY_VIOLATE = /child_process|worker_threads|cluster|\bvm\b|inspector|\bnet\b|\bhttps?\b|http2|dgram|\btls\b|\bdns\b|\bfs\b|require|\bimport\s*[(/]|\beval\b|Function|process|fetch|WebSocket|XMLHttpRequest|EventSource|\bmodule\b|\\u/

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
