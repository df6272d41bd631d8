/**
 * What the last weave kept of each document it wove, so that the next reads only the documents that changed: the
 * stamps of its Org file and of the files it includes; what the site's map, the index and the search take from it
 * (its page, title, `#+DEPENDS_ON:`, headings, IDs, search entries); the answers the map gave its page's links;
 * its warnings; the size of its page. A document whose stamps are the same and whose page is on disk at that size
 * is not read again, and its page is not made again unless an answer its links had changed (a heading renamed in
 * another document). The record is one state file per project (`stateFile(base, 'weave')`), written whole, kept
 * only by a build of the tools (another build could make other pages) and for the same site and options; one that
 * is not the shape written is none.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, fromPlainDiagnostic, type PlainDiagnostic, toPlainDiagnostic} from '../diagnostics.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {array, nullable, number, object, record, type Shape, string} from '../shape.ts'
import {readStateJson, stateFile, writeStateFile} from '../tangle/cache.ts'
import type {SearchEntry} from './search-index.ts'
import type {Lookups} from './site-map.ts'

export interface Stamp {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

/** What a weave keeps of a document it wove. */
export interface KeptDocument {
  /** The stamp of the Org file and of each file it includes, by absolute path (null: there was none). */
  stamps: Record<string, Stamp | null>
  page: string
  title: string
  meta: DocumentMeta
  headings: {title: string; anchor: string; id: string | null}[]
  fileIds: string[]
  search: SearchEntry[]
  lookups: Lookups
  diagnostics: PlainDiagnostic[]
  /** The keys of its code's colours (colours.ts): kept while its page is. */
  colours: string[]
  /** The bytes of its page as written. */
  pageBytes: number
}

const stampShape = object({size: number, mtimeMs: number, ctimeMs: number, ino: number})
const keptShape = object({
  stamps: record(nullable(stampShape)),
  page: string,
  title: string,
  meta: object({path: string, ids: array(object({id: string})), dependsOn: array(object({name: string}))}),
  headings: array(object({title: string, anchor: string, id: nullable(string)})),
  fileIds: array(string),
  search: array(array(string)),
  lookups: record((value: unknown): value is unknown => value !== undefined),
  diagnostics: array(object({rule: string})),
  colours: array(string),
  pageBytes: number,
}) as unknown as Shape<KeptDocument>

const FORMAT = 1

export interface RecordOptions {
  base: string
  out: string
  allowOutside?: readonly string[]
  /** The build of the tools (PASSEPARTOUT_BUILD); none keeps no record. */
  build?: string
}

export class WeaveRecord {
  private readonly next: Record<string, KeptDocument> = {}
  /** The inputs of the index last made (`indexKey`). */
  index: string

  private constructor(
    private readonly file: string | undefined,
    private readonly identity: string,
    private readonly kept: Record<string, unknown>,
    index: unknown,
  ) {
    this.index = typeof index === 'string' ? index : ''
  }

  static open(options: RecordOptions): WeaveRecord {
    const identity = JSON.stringify([options.build, options.base, options.out, options.allowOutside ?? []])
    if (!options.build) return new WeaveRecord(undefined, identity, {}, undefined)
    const file = stateFile(options.base, 'weave')
    const state = (lastSaved(file) ?? readStateJson(file)) as {
      format?: unknown
      identity?: unknown
      documents?: unknown
      index?: unknown
    }
    const same = state?.format === FORMAT && state.identity === identity && isRecord(state.documents)
    return new WeaveRecord(
      file,
      identity,
      same ? (state.documents as Record<string, unknown>) : {},
      same && state.index,
    )
  }

  /** What the last weave kept of FILE, when the file and its includes are as they were and its page (under OUT) too. */
  unchanged(file: string, out: string): KeptDocument | undefined {
    const kept = this.kept[file]
    if (!keptShape(kept)) return undefined
    const same = Object.entries(kept.stamps).every(([name, stamp]) => sameStamp(stampOf(name), stamp))
    if (!same || stampOf(path.join(out, ...kept.page.split('/')))?.size !== kept.pageBytes) return undefined
    return kept
  }

  /** Keep DOCUMENT for the next weave. */
  keep(file: string, document: KeptDocument): void {
    this.next[file] = document
  }

  /** Write what this weave kept (the documents kept, no others), when it keeps a record. */
  save(): void {
    if (!this.file) return
    const state = {format: FORMAT, identity: this.identity, documents: this.next, index: this.index}
    // Each document's JSON once in the process: a save's weave changes one or two of a thousand.
    const documents = Object.entries(this.next).map(([file, kept]) => `${JSON.stringify(file)}:${jsonOf(kept)}`)
    const head = JSON.stringify({format: FORMAT, identity: this.identity, index: this.index})
    try {
      writeStateFile(this.file, `${head.slice(0, -1)},"documents":{${documents.join(',')}}}`)
      saved = {file: this.file, stamp: stampOf(this.file), state}
    } catch {
      // The record only saves time: the next weave reads every document again.
    }
  }
}

/**
 * The record this process saved last, and its file's stamp then: a weave after a save in the same process (`weave
 * --serve`) takes it as it is while the file is the one it wrote, instead of reading and parsing it again (for a
 * project of 1000 documents, a third of the time of a save's weave).
 */
let saved: {file: string; stamp: Stamp | null; state: unknown} | undefined

/** The record saved last by this process in FILE, when FILE is still what it wrote. */
function lastSaved(file: string): unknown {
  return saved?.file === file && saved.stamp !== null && sameStamp(stampOf(file), saved.stamp) ? saved.state : undefined
}

/** Each kept document's JSON, made once in a process. */
const json = new WeakMap<KeptDocument, string>()

function jsonOf(kept: KeptDocument): string {
  let text = json.get(kept)
  if (text === undefined) json.set(kept, (text = JSON.stringify(kept)))
  return text
}

/** The stamp of FILE now, null when there is none: taken before the file is read, so that an edit while it is read is seen next time. */
export function stampOf(file: string): Stamp | null {
  const stat = fs.statSync(file, {throwIfNoEntry: false})
  return stat ? {size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino} : null
}

function sameStamp(a: Stamp | null, b: Stamp | null): boolean {
  if (a === null || b === null) return a === b
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

export function plainDiagnostics(diagnostics: readonly Diagnostic[]): PlainDiagnostic[] {
  return diagnostics.map(toPlainDiagnostic)
}

export function keptDiagnostics(kept: KeptDocument): Diagnostic[] {
  return kept.diagnostics.map(fromPlainDiagnostic)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
