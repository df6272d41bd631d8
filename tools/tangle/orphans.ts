/**
 * Files a document no longer writes (written.ts): after a run, each document
 * that tangled is held to what the record says it wrote before. A target it no
 * longer writes, and no other document of the run writes either, is an orphan:
 * said at the document (`tangle/orphaned-target`), or, with `--prune`, removed
 * when it still holds exactly what we wrote (an edited one is kept, and said).
 * The documents of a folder the run covers that no longer exist are held to the
 * same record: their files are orphans too. The record then holds what each
 * document writes now, and the orphans still on disk, so that they are said
 * again until they are gone.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {removeFailed} from '../messages/io.ts'
import {orphanedTarget} from '../messages/tangle.ts'
import type {WrittenFiles} from './written.ts'

export interface OrphanOptions {
  /** Remove the orphans that hold exactly what was written. */
  prune: boolean
  /** Say what would be removed; remove nothing. */
  dryRun: boolean
  /** Folders the run covers: a recorded document under one that no longer exists left orphans. */
  folders: readonly string[]
}

/**
 * What the orphans read of a document's outcome in the run: its path, whether it failed or the cache answered for
 * it, the files it writes now and their hashes. Named here rather than imported from tangle.ts, which calls this
 * module: the run's outcomes hold all of it.
 */
export interface TangledDocument {
  path: string
  failed: boolean
  cached: boolean
  targets: readonly {path: string; hash: string | undefined}[]
}

export interface PrunedFile {
  path: string
  /** The Org document that wrote it. */
  document: string
}

/** Settle the orphans of DOCUMENTS and update the record; returns what was (or, dry, would be) removed and what to say. */
export function settleOrphans(
  documents: readonly TangledDocument[],
  written: WrittenFiles,
  options: OrphanOptions,
): {diagnostics: Diagnostic[]; pruned: PrunedFile[]} {
  const diagnostics: Diagnostic[] = []
  const pruned: PrunedFile[] = []
  const writtenNow = new Set(
    documents
      .filter((document) => !document.failed)
      .flatMap((document) => document.targets.map((target) => target.path)),
  )
  const inRun = new Set(documents.map((document) => document.path))
  /** Decide for the orphan TARGET of DOCUMENT; true when it is kept in the record. */
  const settle = (document: string, target: string, deleted: boolean, at: string): boolean => {
    if (writtenNow.has(target) || !fs.existsSync(target)) return false
    // As a :tangle value would name it: relative to the document's folder.
    const shown = path.relative(path.dirname(document), target)
    const orphan = deleted ? {deletedDocument: path.basename(document)} : {shown}
    if (!options.prune) {
      diagnostics.push(diagnostic(at, orphanedTarget(orphan, false)))
      return true
    }
    if (written.edited(document, target)) {
      diagnostics.push(diagnostic(at, orphanedTarget(orphan, true)))
      return true
    }
    if (!options.dryRun) {
      try {
        fs.rmSync(target)
      } catch (error) {
        diagnostics.push(diagnostic(at, removeFailed(shown, (error as Error).message)))
        return true
      }
    }
    pruned.push({path: target, document})
    return options.dryRun
  }
  for (const document of documents) {
    if (document.failed) continue
    const before = written.targetsOf(document.path)
    const current = new Set(document.targets.map((target) => target.path))
    const kept = before
      .filter((target) => !current.has(target))
      .filter((target) => settle(document.path, target, false, document.path))
      .map((target) => [target, written.entryOf(document.path, target)!] as const)
    // A document the cache answered for writes what it wrote: its entries stand; a planned one is recorded anew.
    if (!document.cached)
      written.record(
        document.path,
        document.targets.flatMap((target) => (target.hash ? [{path: target.path, hash: target.hash}] : [])),
      )
    for (const [target, entry] of kept) written.keep(document.path, target, entry)
  }
  for (const folder of options.folders) {
    for (const document of written.documentsUnder(folder)) {
      if (inRun.has(document) || fs.existsSync(document)) continue
      const kept = written
        .targetsOf(document)
        .filter((target) => settle(document, target, true, target))
        .map((target) => [target, written.entryOf(document, target)!] as const)
      written.forget(document)
      for (const [target, entry] of kept) written.keep(document, target, entry)
    }
  }
  return {diagnostics, pruned}
}
