/**
 * Tangle a set of Org documents: plan each one (or reuse what the cache knows
 * of it), refuse targets claimed by two documents, then write what is left.
 * A document that fails writes nothing; the others are written.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {type DocumentMeta, documentMeta} from '../org/document-meta.ts'
import {type CachedDocument, cachedWarnings, type TangleCache} from './cache.ts'
import {DiskView} from './disk.ts'
import {skillTargetRefusal} from './skill-targets.ts'
import {type DocumentPlan, planDocument} from './tangle-document.ts'
import {journalFolder, journalPath, recoverJournals} from './journal.ts'
import {type DocumentWriteResult, preview, type WriteStatus, WriteRun} from './write.ts'

export interface TangleOptions {
  /** Absolute paths of the Org files. */
  files: string[]
  /** Let targets resolve outside the project (or outside the Org file's folder). */
  allowOutside?: boolean
  /** Plan and report, write nothing. */
  dryRun?: boolean
  /** Reuse the results of documents that did not change since the last run. */
  cache?: TangleCache
}

export interface TargetOutcome {
  /** Absolute path of the file. */
  path: string
  /** The Org file that writes it. */
  document: string
  /** 1-based lines of the `#+begin_src` lines of its blocks. */
  blockLines: number[]
  mode: number | undefined
  lineCount: number
  status: WriteStatus
}

export interface DocumentOutcome {
  path: string
  failed: boolean
  blockCount: number
  diagnostics: Diagnostic[]
  /** The full plan (generated lines and their Org origins); absent when the cache answered. */
  plan: DocumentPlan | undefined
  /** What the document declares about itself; absent when it could not be read. */
  meta: DocumentMeta | undefined
  targets: TargetOutcome[]
}

export interface TangleReport {
  documents: DocumentOutcome[]
  outcomes: TargetOutcome[]
  diagnostics: Diagnostic[]
  /** Blocks written (or, for a dry run, that would be). */
  blockCount: number
  elapsedMs: number
}

export async function tangle(options: TangleOptions): Promise<TangleReport> {
  const started = performance.now()
  const disk = new DiskView()
  // What killed runs left half done is finished before anything else is read or written.
  const recovered = options.dryRun ? [] : [...new Set(options.files.map((file) => journalFolder(disk.projectRoot(path.dirname(file)))))].flatMap(recoverJournals)
  // One run of writes for the documents of each project (whose later runs look for its journal).
  const runs = new Map<string, WriteRun>()
  const runOf = (document: string) => {
    const folder = journalFolder(disk.projectRoot(path.dirname(document)))
    let run = runs.get(folder)
    if (!run) runs.set(folder, (run = new WriteRun(journalPath(folder))))
    return run
  }
  const documents = options.files.map((file) => {
    const cached = options.cache?.lookup(file)
    if (cached) return fromCache(file, cached)
    const document = fromPlan(planFile(file, options.allowOutside === true, disk))
    refuseSkillTargets(document, disk, options.cache)
    // Staged at once: its files are made while the next documents are planned.
    if (!options.dryRun && !document.failed) runOf(document.path).stage(document.path, document.plan!.targets)
    return document
  })
  const conflicting = refuseSharedTargets(documents, disk, options.cache)
  const writing = documents.filter((document) => document.plan && !document.failed)
  if (options.dryRun) {
    for (const document of writing) document.plan!.targets.forEach((target, k) => (document.targets[k]!.status = preview(target)))
  }
  const results = new Map<string, DocumentWriteResult>()
  for (const run of runs.values()) for (const [document, result] of await run.commit(conflicting)) results.set(document, result)
  for (const document of writing) {
    const result = results.get(document.path)
    if (result) settle(document, result, options.cache)
  }
  options.cache?.save()
  return {
    documents,
    outcomes: documents.flatMap((document) => document.targets),
    diagnostics: [...(options.cache?.warnings.splice(0) ?? []), ...recovered, ...documents.flatMap((document) => document.diagnostics)],
    blockCount: documents.reduce((sum, document) => sum + document.blockCount, 0),
    elapsedMs: performance.now() - started,
  }
}

/** The plan of the Org file FILE as it is on disk: what it would write, line by line with origins. */
export function planFile(file: string, allowOutside: boolean, disk = new DiskView()): DocumentPlan {
  let bytes: Uint8Array
  try {
    bytes = fs.readFileSync(file)
  } catch (error) {
    return {path: file, targets: [], diagnostics: [diagnostic(file, 'io/read', `cannot read ${file}: ${(error as Error).message}`)], blockCount: 0, failed: true, root: undefined}
  }
  const boundary = allowOutside ? undefined : (disk.projectRoot(path.dirname(file)) ?? path.dirname(file))
  return planDocument(file, bytes, {boundary, disk})
}

function fromPlan(plan: DocumentPlan): DocumentOutcome {
  return {
    path: plan.path,
    failed: plan.failed,
    blockCount: plan.blockCount,
    diagnostics: plan.diagnostics,
    plan,
    meta: plan.root && documentMeta(plan.path, plan.root),
    targets: plan.targets.map((target) => ({
      path: target.path,
      document: plan.path,
      blockLines: target.blocks.map((block) => block.open.start.line),
      mode: target.mode,
      lineCount: target.lines.length - 1,
      status: 'written',
    })),
  }
}

function fromCache(file: string, cached: CachedDocument): DocumentOutcome {
  return {
    path: file,
    failed: false,
    blockCount: cached.blockCount,
    diagnostics: cachedWarnings(file, cached),
    plan: undefined,
    meta: {path: file, ...cached.meta},
    targets: cached.targets.map((target) => ({
      path: target.path,
      document: file,
      blockLines: target.blockLines,
      mode: target.mode ?? undefined,
      lineCount: target.lineCount,
      status: 'unchanged',
    })),
  }
}

/** Two documents writing one file: Emacs would let the later replace the earlier; we refuse both. Returns their paths. */
function refuseSharedTargets(documents: DocumentOutcome[], disk: DiskView, cache: TangleCache | undefined): Set<string> {
  // By real path: two spellings of one file through a linked folder are one file.
  const writers = new Map<string, DocumentOutcome[]>()
  for (const document of documents) {
    for (const target of document.targets) {
      const real = disk.realpath(target.path)
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
      const line = document.targets.find((t) => disk.realpath(t.path) === target)?.blockLines[0]
      const place = line === undefined ? undefined : {line, column: 1}
      document.diagnostics.push(diagnostic(document.path, 'tangle/target-conflict', `${target} is also written by ${others.join(', ')}; each target belongs to one document`, place))
      refused.add(document.path)
    }
  }
  for (const document of documents) if (refused.has(document.path)) refuse(document, cache)
  return refused
}

/** A skill document that writes outside the skills' folders writes nothing (skill-targets.ts). */
function refuseSkillTargets(document: DocumentOutcome, disk: DiskView, cache: TangleCache | undefined): void {
  const project = disk.projectRoot(path.dirname(document.path))
  if (!project) return
  const skillsDir = path.join(project, 'org', 'skills')
  const refused = document.targets.flatMap((target) => {
    const reason = skillTargetRefusal(document.path, target.path, skillsDir, project)
    const line = target.blockLines[0]
    return reason ? [diagnostic(document.path, 'sandbox/tangle-target', reason, line === undefined ? undefined : {line, column: 1})] : []
  })
  if (refused.length === 0) return
  document.diagnostics.push(...refused)
  refuse(document, cache)
}

/** Record what DOCUMENT's writing came to: the status of each target and the cache entry, or the error. */
function settle(document: DocumentOutcome, result: DocumentWriteResult, cache: TangleCache | undefined): void {
  if ('error' in result) {
    const target = result.error.target
    const what = target ? `cannot write :tangle ${target.fileName}` : 'cannot write the files of this document'
    document.diagnostics.push(diagnostic(document.path, 'io/write', `${what}, so none of this document's files was written: ${result.error.message}`, target?.blocks[0]?.open))
    refuse(document, cache)
    return
  }
  document.targets.forEach((target, k) => (target.status = result.statuses[k]!))
  const warnings = document.diagnostics.filter((message) => !isError(message))
  const plan = document.plan!
  const targets = plan.targets.map((t, k) => ({path: t.path, fileName: t.fileName, blockLines: document.targets[k]!.blockLines, mode: t.mode ?? null, lineCount: document.targets[k]!.lineCount}))
  if (document.meta) cache?.record(document.path, document.blockCount, targets, warnings, document.meta)
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
