/**
 * Source maps (v3) from generated files to their Org documents, so that a
 * stack trace, a test's failure or a debugger shows the Org line. The
 * generated files stay exactly what Emacs writes: the maps of the code a
 * project's documents write (the skills' and their tests') live in the
 * project's cache, `maps/<target relative to the project>.map` in its state
 * folder (`stateFolder`: node_modules/.cache/passepartout/, or the user's
 * cache for a project without node_modules/), by line, a test file's by
 * token (run-document.ts says why). They hold no `sourcesContent` (the Org
 * text is on disk beside them: copies of it were two thirds of every map's
 * bytes).
 */
import fs from 'node:fs'
import path from 'node:path'
import {isInside} from '../project.ts'
import {stateFolder} from './cache.ts'
import type {SourceLine} from './text.ts'

/** The folder of the source maps of PROJECT's generated code; EXISTS says whether a file is there (`stateFolder`). */
export function sourceMapsFolder(project: string, exists?: (file: string) => boolean): string {
  return stateFolder(project, 'maps', exists)
}

/**
 * Where the map of TARGET, a file a document of PROJECT writes, is kept in MAPS (`sourceMapsFolder`): for code
 * (TypeScript or JavaScript, a test too) inside PROJECT; else undefined (no map is written).
 */
export function sourceMapPath(maps: string, project: string, target: string): string | undefined {
  if (!CODE_FILE.test(target) || !isInside(target, project)) return undefined
  return path.join(maps, `${path.relative(project, target)}.map`)
}

const CODE_FILE = /\.[cm]?[jt]sx?$/

export interface SourceMap {
  version: 3
  file: string
  sources: [string]
  names: []
  mappings: string
}

/**
 * The map of the generated file TARGET whose lines are LINES, from the Org file at ORG_PATH; sources are
 * absolute, so the map can move. By line, each run of characters from one place in Org gets one mapping:
 * a stack trace lands on the Org line. By token, each token in a run (an identifier, a number, one
 * punctuation character) gets one: columns then survive a compiler's own map, which composes with this one
 * token by token (the skill loader's). The files written for other tools are by line: by token, a thousand
 * skills' maps took a fifth of a cold check.
 *
 *     const greet = (name: string) => …
 *     ^                                      by line
 *     ^     ^     ^ ^^   ^ ^     ^ ^^        by token
 */
export function sourceMapOf(
  target: string,
  lines: readonly SourceLine[],
  orgPath: string,
  precision: 'line' | 'token',
): SourceMap {
  const encoded: string[] = []
  // Source map fields are relative to the previous segment: the column within a line, the rest across lines.
  let lastOrgLine = 0
  let lastOrgColumn = 0
  lines.forEach((line, index) => {
    if (index > 0) encoded.push(';')
    let lastColumn = 0
    let first = true
    const segment = (column: number, orgLine?: number, orgColumn?: number) => {
      if (!first) encoded.push(',')
      first = false
      encoded.push(vlq(column - lastColumn))
      lastColumn = column
      if (orgLine === undefined || orgColumn === undefined) return
      encoded.push('A', vlq(orgLine - lastOrgLine), vlq(orgColumn - lastOrgColumn))
      lastOrgLine = orgLine
      lastOrgColumn = orgColumn
    }
    line.segments.forEach((run, k) => {
      // A run Org does not hold ends the previous mapping without starting one.
      if (run.line === 0) return segment(run.from)
      if (precision === 'line') return segment(run.from, run.line - 1, run.column - 1)
      const end = line.segments[k + 1]?.from ?? line.text.length
      const text = line.text
      for (let at = run.from; at < end;) {
        const code = text.charCodeAt(at)
        if (isBlank(code)) {
          at++
          continue
        }
        segment(at, run.line - 1, run.column - 1 + (at - run.from))
        if (!isWordCode(code)) at++
        else while (at < end && isWordCode(text.charCodeAt(at))) at++
      }
    })
  })
  // Lines with no mapping at the end say nothing.
  let last = encoded.length
  while (last > 0 && encoded[last - 1] === ';') last--
  return {
    version: 3,
    file: path.basename(target),
    sources: [orgPath],
    names: [],
    mappings: encoded.slice(0, last).join(''),
  }
}

/** Letters and digits of any script, `_` and `$`: the characters of a word. */
function isWordCode(code: number): boolean {
  if (code < 128)
    return (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95 ||
      code === 36
    )
  return WORD_BEYOND_ASCII.test(String.fromCharCode(code))
}

function isBlank(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 13 ||
    code === 12 ||
    code === 11 ||
    (code >= 128 && BLANK_BEYOND_ASCII.test(String.fromCharCode(code)))
  )
}

// A surrogate half is neither: the pair's code point is judged by neither test, as a one-character token each.
const WORD_BEYOND_ASCII = /[\p{L}\p{N}]/u
const BLANK_BEYOND_ASCII = /\s/u

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** VALUE as a base-64 VLQ: the sign in the lowest bit, five bits a digit, the sixth saying more follow. */
function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1
  let out = ''
  do {
    let digit = rest & 31
    rest >>>= 5
    if (rest > 0) digit |= 32
    out += BASE64[digit]
  } while (rest > 0)
  return out
}

/** Write JSON (a map) at FILE atomically, unless it already holds exactly that. */
export function writeSourceMap(file: string, json: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === json) return
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, json)
  fs.renameSync(temporary, file)
}
