/**
 * What the last run learnt, so that a re-tangle with nothing changed reads no
 * Org file: for each document that tangled cleanly, the stamps (size, times,
 * inode) of the Org file and of every file it wrote, its block count, its
 * warnings and what it declares about itself (IDs, dependencies, capabilities). A document is reused only when all those stamps still match and
 * the tool, HOME, umask and options are the same; anything else tangles it
 * again. The cache lives in the project's `node_modules/.cache/passepartout/`.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  type Diagnostic,
  diagnostic,
  fromPlainDiagnostic,
  type PlainDiagnostic,
  toPlainDiagnostic,
} from '../diagnostics.ts'
import {cacheDamaged} from '../messages/io.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {array, literal, nullable, number, object, optional, record, string} from '../shape.ts'
import {userStateFolder} from '../project.ts'
import {readProjectText, STATE_FILE_MAX_BYTES} from '../project-file.ts'
import {processUmask} from './write.ts'

export interface Stamp {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

export interface CachedTarget {
  path: string
  fileName: string
  /** 1-based lines of the `#+begin_src` lines of its blocks. */
  blockLines: number[]
  mode: number | null
  lineCount: number
  stamp: Stamp
}

export interface CachedDocument {
  stamp: Stamp
  /** The other files the document read (setup files), with their stamps; null for one that did not exist. */
  inputs: {path: string; stamp: Stamp | null}[]
  blockCount: number
  targets: CachedTarget[]
  warnings: PlainDiagnostic[]
  meta: Omit<DocumentMeta, 'path'>
  /** The maps of its code files were written (run-document.ts's `SourceMaps`): a run that writes them needs them. */
  maps: boolean
}

/**
 * How recent a change must be for its stamp to be doubted: file times come from the kernel's coarse clock
 * (a tick of a few milliseconds), so two saves inside one tick carry the same times.
 */
const RACY_MS = 50

/** Changes whenever what the cache holds changes shape. */
const FORMAT = 7

interface CacheFile {
  key: string
  documents: Record<string, CachedDocument>
}

const point = object({line: number, column: number})
const position = object({start: point, end: point})
const stampShape = object({size: number, mtimeMs: number, ctimeMs: number, ino: number})
/** A cache file as this build writes it: one of another shape (edited, cut short, another program's) is not used. */
const cacheFileShape = object({
  key: string,
  documents: record(
    object({
      stamp: stampShape,
      inputs: array(object({path: string, stamp: nullable(stampShape)})),
      blockCount: number,
      targets: array(
        object({
          path: string,
          fileName: string,
          blockLines: array(number),
          mode: nullable(number),
          lineCount: number,
          stamp: stampShape,
        }),
      ),
      warnings: array(
        object({
          file: nullable(string),
          rule: string,
          severity: literal('error', 'warning'),
          code: nullable(string),
          reason: string,
          note: nullable(string),
          expected: nullable(array(string)),
          start: nullable(point),
          end: nullable(point),
        }),
      ),
      meta: object({
        ids: array(object({id: string, position})),
        dependsOn: array(object({kind: literal('id', 'word'), name: string, text: string, position})),
        capabilities: array(object({value: string, position})),
        apiVersion: optional(object({value: string, position})),
        apiVersionFirst: optional(position),
      }),
      maps: literal(true, false),
    }),
  ),
})

export class TangleCache {
  private documents: Record<string, CachedDocument> = {}
  private dirty = false
  /** What opening the cache found wrong (a damaged file); the next tangle reports it, once. */
  readonly warnings: Diagnostic[] = []

  private constructor(
    private readonly file: string,
    private readonly key: string,
  ) {}

  /**
   * The cache of the documents under FOLDER (their project, or the folder given when they are in none) for
   * this tool build and environment: in the project's node_modules/.cache/passepartout/ when it has
   * node_modules, else in the user's cache folder ($XDG_CACHE_HOME, or ~/.cache), one file per real path.
   */
  static open(folder: string, parts: {tool: string; allowOutside: readonly string[]}): TangleCache | undefined {
    if (!parts.tool) return undefined
    const key = JSON.stringify({
      format: FORMAT,
      tool: parts.tool,
      home: process.env.HOME ?? '',
      umask: processUmask(),
      allowOutside: parts.allowOutside,
    })
    const cache = new TangleCache(stateFile(folder, 'tangle'), key)
    const text = readStateFile(cache.file)
    // No cache yet, or none that can be read: start afresh.
    if (text === undefined) return cache
    let stored: unknown
    try {
      stored = JSON.parse(text)
    } catch {
      stored = undefined
    }
    if (cacheFileShape(stored) && stored.key === key)
      cache.documents = stored.documents as Record<string, CachedDocument>
    else if (
      !cacheFileShape(stored) &&
      !(stored !== null && typeof stored === 'object' && (stored as {key?: unknown}).key !== key)
    ) {
      // A cache of this build that is not of its shape was damaged: said once, then rebuilt by this run.
      cache.warnings.push(diagnostic(cache.file, cacheDamaged()))
      cache.dirty = true
    }
    return cache
  }

  /**
   * The cached result for an Org file, if neither it nor any file it wrote changed since; with MAPS, only if the
   * maps of its code files were written too (else it is planned again, and the entry stays for runs without).
   */
  lookup(orgPath: string, {maps = false} = {}): CachedDocument | undefined {
    const cached = this.documents[orgPath]
    if (!cached || (maps && !cached.maps)) return undefined
    const valid =
      sameStamp(stampOf(orgPath), cached.stamp) &&
      cached.targets.every((target) => sameStamp(stampOf(target.path), target.stamp)) &&
      cached.inputs.every((input) =>
        input.stamp === null ? !stampOf(input.path) : sameStamp(stampOf(input.path), input.stamp),
      )
    if (!valid) {
      delete this.documents[orgPath]
      this.dirty = true
      return undefined
    }
    return cached
  }

  /** Remember what ORG_PATH tangled to, as DOCUMENT says, with the stamps its files have now. */
  record(
    orgPath: string,
    document: {
      blockCount: number
      targets: Omit<CachedTarget, 'stamp'>[]
      warnings: readonly Diagnostic[]
      meta: DocumentMeta
      inputs: readonly string[]
      maps: boolean
    },
  ): void {
    const {blockCount, targets, warnings, meta, inputs, maps} = document
    const stamp = stampOf(orgPath)
    const stamped = targets.map((target) => ({...target, stamp: stampOf(target.path)}))
    if (!stamp || stamped.some((target) => !target.stamp)) return
    // A file changed within the file system's clock tick of now is not trusted (git's "racily clean"): a
    // second save of the same size in the same tick would keep this stamp, and the cache would miss it.
    if (Date.now() - Math.max(stamp.mtimeMs, stamp.ctimeMs) < RACY_MS) {
      this.forget(orgPath)
      return
    }
    this.documents[orgPath] = {
      stamp,
      inputs: inputs.map((input) => ({path: input, stamp: stampOf(input) ?? null})),
      blockCount,
      targets: stamped as CachedTarget[],
      warnings: warnings.map(toPlainDiagnostic),
      // All it declares, but its path (the key): a check the cache answers for refuses what a planned document's would.
      meta: {
        ids: meta.ids,
        dependsOn: meta.dependsOn,
        capabilities: meta.capabilities,
        apiVersion: meta.apiVersion,
        apiVersionFirst: meta.apiVersionFirst,
      },
      maps,
    }
    this.dirty = true
  }

  forget(orgPath: string): void {
    if (this.documents[orgPath]) {
      delete this.documents[orgPath]
      this.dirty = true
    }
  }

  save(): void {
    if (!this.dirty) return
    try {
      writeStateFile(this.file, JSON.stringify({key: this.key, documents: this.documents} satisfies CacheFile))
    } catch {
      // A cache that cannot be written only costs time.
    }
  }
}

/** The warnings of a cached document, as diagnostics again. */
export function cachedWarnings(cached: CachedDocument): Diagnostic[] {
  return cached.warnings.map(fromPlainDiagnostic)
}

function stampOf(file: string): Stamp | undefined {
  const stat = fs.statSync(file, {throwIfNoEntry: false})
  return stat ? {size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino} : undefined
}

function sameStamp(a: Stamp | undefined, b: Stamp): boolean {
  return a !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

/**
 * Where the tangle's state named NAME (`tangle`, `written`) for the documents under FOLDER is kept: in the
 * project's node_modules/.cache/passepartout/ when it has node_modules, else in the user's (`userStateFolder`),
 * one file per real path of FOLDER.
 */
export function stateFile(folder: string, name: string): string {
  return `${stateFolder(folder, name)}.json`
}

/**
 * The folder of the state named NAME (the tangle's `maps`, the core's compiled `skills`) for the documents under
 * FOLDER, kept where the tangle's state files are (`stateFile`): NAME in the project's cache, else NAME-HASH in the
 * user's, HASH one of the real path of FOLDER, so that two projects never share one.
 * EXISTS says whether a file is there (a run asks its DiskView, which asks the file system once).
 */
export function stateFolder(folder: string, name: string, exists: (file: string) => boolean = fs.existsSync): string {
  if (exists(path.join(folder, 'node_modules')))
    return path.join(folder, 'node_modules', '.cache', 'passepartout', name)
  let real = folder
  try {
    real = fs.realpathSync(folder)
  } catch {
    // A folder that does not exist has no documents to cache; its path names the folder all the same.
  }
  return path.join(userStateFolder(), `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 24)}`)
}

/**
 * The text of the state file FILE (`stateFile`); undefined when there is none that can be read, which its reader
 * takes as none yet. It is read as a project's file (project-file.ts): it lies in the project's node_modules/, and
 * one that was a named pipe held every command that read it for good.
 */
export function readStateFile(file: string): string | undefined {
  const read = readProjectText(file, STATE_FILE_MAX_BYTES)
  return read.ok ? read.text : undefined
}

/** What the state file FILE holds, parsed; undefined when there is none that can be read, or it is not JSON (cut short). */
export function readStateJson(file: string): unknown {
  const text = readStateFile(file)
  try {
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * TEXT into the state file FILE (`stateFile`), whole or not at all: written beside it, then renamed over it, so
 * that a run killed while it writes leaves the last file, never half of one. Throws what the file system threw.
 */
export function writeStateFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, text)
  fs.renameSync(temporary, file)
}
