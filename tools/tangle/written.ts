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

/**
 * A long-lived session (watch, run) keeps the record in memory while commands in other terminals (tangle, detangle)
 * write it: it takes theirs again before each run (`refresh`), and writes only the documents it changed over what it
 * finds on disk (`save`). Without that, a watch saved the copy it read at its start over a tangle's newer record,
 * and its next look at a file took the tangle's writing for an edit (detangle refused it as both sides edited).
 */
export class WrittenFiles {
  private documents: Record<string, Record<string, Entry>> = {}
  /** The documents this session recorded or forgot since it last saved. */
  private readonly changed = new Set<string>()
  /** The record file's stamp when this session last read or wrote it. */
  private stamp: string | undefined

  private constructor(private readonly file: string) {}

  /** The record of the documents under FOLDER (their project, or the folder itself outside any). */
  static open(folder: string): WrittenFiles {
    const written = new WrittenFiles(stateFile(folder, 'written'))
    written.stamp = recordStamp(written.file)
    written.documents = storedDocuments(written.file)
    return written
  }

  /** Take the record as another process left it since this session last read or wrote it, keeping what this one changed. */
  refresh(): void {
    const stamp = recordStamp(this.file)
    if (stamp === this.stamp) return
    const documents = storedDocuments(this.file)
    for (const document of this.changed) {
      const ours = this.documents[document]
      if (ours) documents[document] = ours
      else delete documents[document]
    }
    this.documents = documents
    this.stamp = stamp
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
    this.changed.add(document)
  }

  /** Keep, for DOCUMENT, the orphans still on disk beside what it writes now (so that they are said again). */
  keep(document: string, target: string, entry: Entry): void {
    this.documents[document] = {...this.documents[document], [target]: entry}
    this.changed.add(document)
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
    this.changed.add(document)
  }

  /** Write the documents this session changed over the record as it is on disk now. */
  save(): void {
    if (this.changed.size === 0) return
    this.refresh()
    try {
      writeStateFile(this.file, JSON.stringify({version: VERSION, documents: this.documents}))
      this.stamp = recordStamp(this.file)
      this.changed.clear()
    } catch {
      // Without the record, the next run cannot tell orphans or edits: it says nothing, as Emacs.
    }
  }

  private writtenByAnyone(target: string): Entry | undefined {
    for (const targets of Object.values(this.documents)) if (targets[target]) return targets[target]
    return undefined
  }
}

/** The documents of the record FILE; none when there is none yet, or one of another shape: it only costs the warnings it would have given. */
function storedDocuments(file: string): Record<string, Record<string, Entry>> {
  const stored = readStateJson(file)
  return fileShape(stored) && stored.version === VERSION ? stored.documents : {}
}

/** FILE's size, modification time and inode, which a rename over it changes; undefined when it is not there. */
function recordStamp(file: string): string | undefined {
  const stat = fs.statSync(file, {throwIfNoEntry: false})
  return stat && `${stat.size}:${stat.mtimeMs}:${stat.ino}`
}

export function hashOf(content: string | Uint8Array): string {
  return createHash('sha1').update(content).digest('hex')
}
