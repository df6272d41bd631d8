/**
 * What each document wrote, remembered across runs (as Entangled's file
 * database does), to answer two questions the tangle cache cannot, since it is
 * thrown away with every new build of the tool:
 *
 * - Did someone edit this target since we wrote it? Before a tangle replaces a
 *   file whose content is not what it last wrote there, it says so
 *   (`tangle/overwrites-edit`, at the block): Emacs replaces it silently,
 *   Entangled refuses; we replace it and warn.
 * - Does a document still write everything it wrote? A file it no longer
 *   writes (a renamed `:tangle`, a removed block, a deleted document) is an
 *   orphan (`tangle/orphaned-target`); `--prune` removes it when it still holds
 *   exactly what we wrote, and keeps it, saying so, when it was edited.
 *
 * For each target: a hash of the bytes written and the file's stamp right after
 * (size, times, inode), so that an untouched file is recognised without being
 * read. The record lives beside the tangle cache (`written.json`).
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import {type Infer, number, object, record, string} from '../shape.ts'
import {readStateJson, stateFile, writeStateFile} from './cache.ts'

const entryShape = object({hash: string, size: number, mtimeMs: number, ino: number})
type Entry = Infer<typeof entryShape>
const fileShape = object({version: number, documents: record(record(entryShape))})

const VERSION = 1

export class WrittenFiles {
  private documents: Record<string, Record<string, Entry>> = {}
  private dirty = false

  private constructor(private readonly file: string) {}

  /** The record of the documents under FOLDER (their project, or the folder itself outside any). */
  static open(folder: string): WrittenFiles {
    const written = new WrittenFiles(stateFile(folder, 'written'))
    const stored = readStateJson(written.file)
    // None yet, or a record of another shape, is started anew: it only costs the warnings it would have given.
    if (fileShape(stored) && stored.version === VERSION) written.documents = stored.documents
    return written
  }

  /** The targets DOCUMENT wrote, as recorded. */
  targetsOf(document: string): string[] {
    return Object.keys(this.documents[document] ?? {})
  }

  /** The files DOCUMENTS wrote last time, when every one of them has a record and every file is there; else undefined. */
  filesOf(documents: readonly string[]): string[] | undefined {
    const files: string[] = []
    for (const document of documents) {
      const targets = this.documents[document]
      if (!targets) return undefined
      files.push(...Object.keys(targets))
    }
    return files.every((file) => fs.existsSync(file)) ? files : undefined
  }

  /** The documents recorded under FOLDER. */
  documentsUnder(folder: string): string[] {
    return Object.keys(this.documents).filter((document) => document.startsWith(`${folder}${path.sep}`))
  }

  /**
   * Whether the file at TARGET, which DOCUMENT wrote, no longer holds what it wrote there: false when we
   * never wrote it (nothing to compare with) or it is gone.
   */
  edited(document: string, target: string): boolean {
    const entry = this.documents[document]?.[target] ?? this.writtenByAnyone(target)
    if (!entry) return false
    const stat = fs.statSync(target, {throwIfNoEntry: false})
    if (!stat) return false
    if (stat.size === entry.size && stat.mtimeMs === entry.mtimeMs && stat.ino === entry.ino) return false
    // Read as a project's file: a named pipe put in its place waited for good. One that is no regular file (of at
    // most a document's bytes) no longer holds what was written.
    const read = readProjectFile(target, ORG_DOCUMENT_MAX_BYTES)
    if (!read.ok) return !read.missing
    return hashOf(read.bytes) !== entry.hash
  }

  /** DOCUMENT now writes TARGETS (path and the hash of their bytes, just written or found already right). */
  record(document: string, targets: readonly {path: string; hash: string}[]): void {
    const entries: Record<string, Entry> = {}
    for (const target of targets) {
      const stat = fs.statSync(target.path, {throwIfNoEntry: false})
      if (stat) entries[target.path] = {hash: target.hash, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino}
    }
    this.documents[document] = entries
    this.dirty = true
  }

  /** Keep, for DOCUMENT, the orphans still on disk beside what it writes now (so that they are said again). */
  keep(document: string, target: string, entry: Entry): void {
    this.documents[document] = {...this.documents[document], [target]: entry}
    this.dirty = true
  }

  /** What DOCUMENT is recorded to have written, for `restore`; undefined when nothing is. */
  entriesOf(document: string): Readonly<Record<string, Entry>> | undefined {
    const entries = this.documents[document]
    return entries && {...entries}
  }

  /** DOCUMENT's files are again what they were when ENTRIES (`entriesOf`) were its record: so is the record. */
  restore(document: string, entries: Readonly<Record<string, Entry>> | undefined): void {
    if (!entries) return this.forget(document)
    this.record(
      document,
      Object.entries(entries).map(([target, entry]) => ({path: target, hash: entry.hash})),
    )
  }

  /** The files recorded under FOLDER (whichever document wrote them), each with its document. */
  targetsUnder(folder: string): {document: string; target: string}[] {
    return Object.entries(this.documents).flatMap(([document, targets]) =>
      Object.keys(targets)
        .filter((target) => target.startsWith(`${folder}${path.sep}`))
        .map((target) => ({document, target})),
    )
  }

  /** The document recorded to have written TARGET, or undefined. */
  documentOf(target: string): string | undefined {
    for (const [document, targets] of Object.entries(this.documents)) if (targets[target]) return document
    return undefined
  }

  entryOf(document: string, target: string): Entry | undefined {
    return this.documents[document]?.[target]
  }

  forget(document: string): void {
    if (!this.documents[document]) return
    delete this.documents[document]
    this.dirty = true
  }

  save(): void {
    if (!this.dirty) return
    try {
      writeStateFile(this.file, JSON.stringify({version: VERSION, documents: this.documents}))
    } catch {
      // Without the record, the next run cannot tell orphans or edits: it says nothing, as Emacs.
    }
  }

  private writtenByAnyone(target: string): Entry | undefined {
    for (const targets of Object.values(this.documents)) if (targets[target]) return targets[target]
    return undefined
  }
}

export function hashOf(content: string | Uint8Array): string {
  return createHash('sha1').update(content).digest('hex')
}
