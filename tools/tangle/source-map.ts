/**
 * Source maps (v3) from generated files to their Org documents, so that a
 * stack trace or a debugger shows the Org line. The generated files stay
 * exactly what Emacs writes: the maps of the code the skill loader runs (a
 * skill document's TypeScript, tests aside) live in the project's cache, at
 * `node_modules/.cache/passepartout/maps/<target relative to the project>.map`.
 * They hold no `sourcesContent` (the Org text is on disk beside them: copies of
 * it were two thirds of every map's bytes).
 */
import fs from 'node:fs'
import path from 'node:path'
import {addSegment, type EncodedSourceMap, GenMapping, toEncodedMap} from '@jridgewell/gen-mapping'
import {isInside, skillsFolder} from '../project.ts'
import type {SourceLine} from './text.ts'

/** Identifiers and single punctuation characters: where a compiler's mappings can start. */
const TOKEN = /[\p{L}\p{N}_$]+|[^\s\p{L}\p{N}_$]/gu

/**
 * Where the map of TARGET, written by the Org document DOCUMENT of PROJECT, is kept: for the code the
 * skill loader runs, when the project has node_modules/; else undefined (no map is written).
 */
export function sourceMapPath(project: string, document: string, target: string): string | undefined {
  if (!isInside(document, skillsFolder(project)) || !/\.tsx?$/.test(target) || /\.test\.tsx?$/.test(target)) return undefined
  if (!fs.existsSync(path.join(project, 'node_modules'))) return undefined
  return path.join(project, 'node_modules', '.cache', 'passepartout', 'maps', `${path.relative(project, target)}.map`)
}

/** The map of the generated file TARGET whose lines are LINES, from the Org file at ORG_PATH; sources are absolute, so the map can move. */
export function sourceMapOf(target: string, lines: readonly SourceLine[], orgPath: string): Omit<EncodedSourceMap, 'sourcesContent'> {
  const map = new GenMapping({file: path.basename(target)})
  lines.forEach((line, index) => {
    line.segments.forEach((run, k) => {
      // A run Org does not hold ends the previous mapping without starting one.
      if (run.line === 0) return addSegment(map, index, run.from)
      // A run is copied character for character: map each token, so that columns survive a compiler's own map.
      const end = line.segments[k + 1]?.from ?? line.text.length
      for (const token of line.text.slice(run.from, end).matchAll(TOKEN)) {
        addSegment(map, index, run.from + token.index, orgPath, run.line - 1, run.column - 1 + token.index)
      }
    })
  })
  const {sourcesContent: _none, ...encoded} = toEncodedMap(map)
  return encoded
}

/** Write JSON (a map) at FILE atomically, unless it already holds exactly that. */
export function writeSourceMap(file: string, json: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === json) return
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, json)
  fs.renameSync(temporary, file)
}
