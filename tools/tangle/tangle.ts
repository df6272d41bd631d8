/**
 * Tangle a set of Org documents: plan each one (or reuse what the cache knows
 * of it) and stage its files, refuse
 * targets claimed by two documents, then put what is left in place. A
 * document that fails writes nothing; the others are written.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {writeFailed} from '../messages/io.ts'
import {overwritesEdit, targetConflict} from '../messages/tangle.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {type CachedDocument, cachedWarnings, type TangleCache} from './cache.ts'
import {DiskView} from './disk.ts'
import {journalFolder, journalPath, recoverJournals} from './journal.ts'
import type {PlannedDocument, SourceMaps} from './run-document.ts'
import type {DocumentPlan} from './tangle-document.ts'
import {type PrunedFile, settleOrphans} from './orphans.ts'
import {type DocumentWriteResult, preview, type WriteStatus, WriteRun, type WriteTarget} from './write.ts'
import {hashOf, type WrittenFiles} from './written.ts'

export interface TangleOptions {
  /** Absolute paths of the Org files. */
  files: string[]
  /** Folders outside the project (or outside the Org file's folder) where targets may go; `/` allows everywhere. */
  allowOutside?: readonly string[]
  /** Plan and report, write nothing. */
  dryRun?: boolean
  /** Reuse the results of documents that did not change since the last run. */
  cache?: TangleCache
  /**
   * Write the source maps of the code the project's documents write (source-map.ts), or only update those there
   * (`SourceMaps`); none when not said. A document the cache holds without its maps is planned again for `write`.
   */
  sourceMaps?: SourceMaps
  /**
   * Keep the plan (every generated line with its Org origin) of the documents this says yes to, in the report:
   * a plan is otherwise dropped once its files are staged (a thousand plans kept to the end cost a tenth of a
   * run in collecting garbage).
   */
  keepPlans?: (document: string) => boolean
  /**
   * What each document wrote before (written.ts): a target edited since is said before it is replaced, and
   * the files a document no longer writes are said, or removed with `prune`.
   */
  written?: WrittenFiles
  /** Remove the files documents no longer write, when they hold exactly what was written. */
  prune?: boolean
  /** The folders the run covers, where a document that no longer exists leaves orphans. */
  folders?: readonly string[]
  /**
   * Filled with what each file the run changes held before it (`Replaced`), so that a caller can put it back: a
   * watcher whose save does not check leaves the files as they were (project-session.ts).
   */
  replaced?: Map<string, Replaced>
}

/** What a file held before a run replaced it: its bytes and permission bits; null when there was none. */
export type Replaced = {bytes: Buffer; mode: number} | null

export interface TargetOutcome {
  /** Absolute path of the file. */
  path: string
  /** The `:tangle` value (or NAME.EXT) the blocks named it by. */
  fileName: string
  /** The Org file that writes it. */
  document: string
  /** 1-based lines of the `#+begin_src` lines of its blocks. */
  blockLines: number[]
  mode: number | undefined
  lineCount: number
  status: WriteStatus
  /** A hash of the bytes it holds (written.ts), when the document was planned. */
  hash: string | undefined
}

export interface DocumentOutcome {
  path: string
  failed: boolean
  blockCount: number
  diagnostics: Diagnostic[]
  /** The cache answered for it: it was not read. */
  cached: boolean
  /** What the document declares about itself; absent when it could not be read. */
  meta: DocumentMeta | undefined
  targets: TargetOutcome[]
  /** The other files it read (setup files), absolute. */
  inputs: string[]
  /** Its plan, when it was planned and the run was asked to keep it (`keepPlans`). */
  plan?: DocumentPlan
}

export interface TangleReport {
  documents: DocumentOutcome[]
  outcomes: TargetOutcome[]
  diagnostics: Diagnostic[]
  /** Files removed because no document writes them any more (`prune`; for a dry run, that would be). */
  pruned: PrunedFile[]
  /** Blocks written (or, for a dry run, that would be). */
  blockCount: number
  elapsedMs: number
}

export async function tangle(options: TangleOptions): Promise<TangleReport> {
  const started = performance.now()
  const disk = new DiskView()
  // What killed runs left half done is finished before anything else is read or written.
  const projects = new Set(options.files.map((file) => disk.projectRoot(path.dirname(file))))
  const recovered = options.dryRun ? [] : [...new Set([...projects].map(journalFolder))].flatMap(recoverJournals)
  // One run of writes for the documents of each project (whose later runs look for its journal).
  const runs = new Map<string | undefined, WriteRun>()
  const runOf = (document: string) => {
    const project = disk.projectRoot(path.dirname(document))
    let run = runs.get(project)
    if (!run) runs.set(project, (run = new WriteRun(journalPath(journalFolder(project)), disk)))
    return run
  }
  const sourceMaps = options.sourceMaps ?? 'none'
  const documents: DocumentOutcome[] = new Array(options.files.length)
  const toPlan: number[] = []
  options.files.forEach((file, index) => {
    const cached = options.cache?.lookup(file, {maps: sourceMaps === 'write'})
    if (cached) documents[index] = fromCache(file, cached)
    else toPlan.push(index)
  })
  if (!options.dryRun) for (const index of toPlan) runOf(options.files[index]!).expect(toPlan.length)
  const runOptions = {allowOutside: options.allowOutside ?? [], sourceMaps}
  // The reader and the planner are loaded only when a document must be read: a run the cache answers does without.
  const {planForRun} = toPlan.length > 0 ? await import('./run-document.ts') : {planForRun: undefined}
  for (const index of toPlan) {
    const planned = planForRun!(options.files[index]!, runOptions, disk)
    const document = fromPlan(planned, options.written !== undefined)
    if (!document.failed) {
      if (options.written) sayOverwrittenEdits(document, planned, options.written, disk)
      if (options.replaced && !options.dryRun) keepReplaced(planned.targets, disk, options.replaced)
      if (options.dryRun) planned.targets.forEach((target, t) => (document.targets[t]!.status = preview(target, disk)))
      // Staged at once, and the plan dropped: a thousand plans kept to the end cost a tenth of the run in collecting garbage.
      else runOf(document.path).stage(document.path, planned.targets)
    } else options.cache?.forget(document.path)
    if (options.keepPlans?.(document.path)) document.plan = planned.plan
    documents[index] = document
  }
  const conflicting = refuseSharedTargets(documents, disk, options.cache)
  const results = new Map<string, DocumentWriteResult>()
  for (const run of runs.values())
    for (const [document, result] of await run.commit(conflicting)) results.set(document, result)
  for (const document of documents) {
    const result = results.get(document.path)
    if (result && !document.failed) settle(document, result, options.cache, sourceMaps === 'write')
  }
  options.cache?.save()
  const orphans = options.written
    ? settleOrphans(documents, options.written, {
        prune: options.prune === true,
        dryRun: options.dryRun === true,
        folders: options.folders ?? [],
      })
    : {diagnostics: [], pruned: []}
  if (!options.dryRun) options.written?.save()
  return {
    documents,
    outcomes: documents.flatMap((document) => document.targets),
    diagnostics: [
      ...(options.cache?.warnings.splice(0) ?? []),
      ...recovered,
      ...documents.flatMap((document) => document.diagnostics),
      ...orphans.diagnostics,
    ],
    pruned: orphans.pruned,
    blockCount: documents.reduce((sum, document) => sum + document.blockCount, 0),
    elapsedMs: performance.now() - started,
  }
}

/** A target this run replaces whose bytes are not what was written there last: said, at its block, before it goes. */
function sayOverwrittenEdits(
  document: DocumentOutcome,
  planned: PlannedDocument,
  written: WrittenFiles,
  disk: DiskView,
): void {
  for (const target of planned.targets) {
    if (
      !disk.entryOf(target.path) ||
      !written.edited(document.path, target.path) ||
      preview(target, disk) !== 'written'
    )
      continue
    document.diagnostics.push(diagnostic(document.path, overwritesEdit(target.fileName), target.place))
  }
}

/** Keep in REPLACED what each of TARGETS this run changes holds now (a file that cannot be read is not kept). */
function keepReplaced(targets: readonly WriteTarget[], disk: DiskView, replaced: Map<string, Replaced>): void {
  for (const target of targets) {
    if (preview(target, disk) === 'unchanged') continue
    try {
      const stat = fs.statSync(target.path, {throwIfNoEntry: false})
      replaced.set(target.path, stat ? {bytes: fs.readFileSync(target.path), mode: stat.mode & 0o7777} : null)
    } catch {
      // Not kept: what cannot be read cannot be put back, and the run writes it all the same.
    }
  }
}

/** DOCUMENT as planned; with HASH, each target with the hash of its bytes. */
function fromPlan(planned: PlannedDocument, hash: boolean): DocumentOutcome {
  return {
    path: planned.path,
    failed: planned.failed,
    blockCount: planned.blockCount,
    diagnostics: planned.diagnostics,
    cached: false,
    meta: planned.meta,
    inputs: planned.inputs,
    targets: planned.targets.map((target) => ({
      path: target.path,
      fileName: target.fileName,
      document: planned.path,
      blockLines: target.blockLines,
      mode: target.mode,
      lineCount: target.lineCount,
      status: 'written',
      hash: hash ? hashOf(target.content) : undefined,
    })),
  }
}

function fromCache(file: string, cached: CachedDocument): DocumentOutcome {
  return {
    path: file,
    failed: false,
    blockCount: cached.blockCount,
    diagnostics: cachedWarnings(cached),
    cached: true,
    meta: {path: file, ...cached.meta},
    inputs: cached.inputs.map((input) => input.path),
    targets: cached.targets.map((target) => ({
      path: target.path,
      fileName: target.fileName,
      document: file,
      blockLines: target.blockLines,
      mode: target.mode ?? undefined,
      lineCount: target.lineCount,
      status: 'unchanged',
      hash: undefined,
    })),
  }
}

/** Two documents writing one file: Emacs would let the later replace the earlier; we refuse both. Returns their paths. */
function refuseSharedTargets(
  documents: DocumentOutcome[],
  disk: DiskView,
  cache: TangleCache | undefined,
): Set<string> {
  // By real path: two spellings of one file through a linked folder are one file.
  const writers = new Map<string, DocumentOutcome[]>()
  for (const document of documents) {
    for (const target of document.targets) {
      const real = disk.realTarget(target.path)
      const list = writers.get(real) ?? []
      if (!list.includes(document)) list.push(document)
      writers.set(real, list)
    }
  }
  const refused = new Set<string>()
  for (const [target, list] of writers) {
    if (list.length < 2) continue
    for (const document of list) {
      const others = list.filter((other) => other !== document).map((other) => other.path)
      const line = document.targets.find((t) => disk.realTarget(t.path) === target)?.blockLines[0]
      const place = line === undefined ? undefined : {line, column: 1}
      document.diagnostics.push(diagnostic(document.path, targetConflict(target, others), place))
      refused.add(document.path)
    }
  }
  for (const document of documents) if (refused.has(document.path)) refuse(document, cache)
  return refused
}

/**
 * Record what DOCUMENT's writing came to: the status of each target and the cache entry (MAPS: its code files' maps
 * were written), or the error.
 */
function settle(
  document: DocumentOutcome,
  result: DocumentWriteResult,
  cache: TangleCache | undefined,
  maps: boolean,
): void {
  if ('error' in result) {
    const target = result.error.target
    document.diagnostics.push(
      diagnostic(document.path, writeFailed(target?.fileName, result.error.message), target?.place),
    )
    refuse(document, cache)
    return
  }
  document.targets.forEach((target, k) => (target.status = result.statuses[k]!))
  // What the document says, not what this run did: an edit replaced is said once.
  const warnings = document.diagnostics.filter(
    (message) => !isError(message) && message.ruleId !== 'tangle/overwrites-edit',
  )
  const targets = document.targets.map((t) => ({
    path: t.path,
    fileName: t.fileName,
    blockLines: t.blockLines,
    mode: t.mode ?? null,
    lineCount: t.lineCount,
  }))
  if (document.meta)
    cache?.record(document.path, {
      blockCount: document.blockCount,
      targets,
      warnings,
      meta: document.meta,
      inputs: document.inputs,
      maps,
    })
}

function refuse(document: DocumentOutcome, cache: TangleCache | undefined): void {
  document.failed = true
  document.blockCount = 0
  document.targets = []
  cache?.forget(document.path)
}

export function hasErrors(report: TangleReport): boolean {
  return report.diagnostics.some(isError)
}
