/**
 * Tangle a set of Org documents: plan each one, refuse targets claimed by two
 * documents, then write what is left. A document that fails writes nothing;
 * the others are written.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {findProjectRoot} from '../project.ts'
import {type DocumentPlan, planDocument, type TargetPlan} from './tangle-document.ts'
import {preview, type WriteStatus, writeDocument} from './write.ts'

export interface TangleOptions {
  /** Absolute paths of the Org files. */
  files: string[]
  /** Let targets resolve outside the project (or outside the Org file's folder). */
  allowOutside?: boolean
  /** Plan and report, write nothing. */
  dryRun?: boolean
}

export interface TargetOutcome {
  target: TargetPlan
  /** The Org file that wrote it. */
  document: string
  status: WriteStatus
}

export interface TangleReport {
  documents: DocumentPlan[]
  outcomes: TargetOutcome[]
  diagnostics: Diagnostic[]
  /** Blocks written (or, for a dry run, that would be). */
  blockCount: number
  elapsedMs: number
}

export function tangle(options: TangleOptions): TangleReport {
  const started = performance.now()
  const documents = options.files.map((file) => planFile(file, options.allowOutside === true))
  refuseSharedTargets(documents)
  const outcomes: TargetOutcome[] = []
  for (const document of documents) {
    try {
      const statuses = options.dryRun ? document.targets.map(preview) : writeDocument(document.targets)
      document.targets.forEach((target, k) => outcomes.push({target, document: document.path, status: statuses[k]!}))
    } catch (error) {
      document.diagnostics.push(diagnostic(document.path, 'io/write', `cannot write the files of this document, none was written: ${(error as Error).message}`))
      document.failed = true
    }
  }
  const diagnostics = documents.flatMap((document) => document.diagnostics)
  return {
    documents,
    outcomes,
    diagnostics,
    blockCount: documents.reduce((sum, document) => sum + document.blockCount, 0),
    elapsedMs: performance.now() - started,
  }
}

function planFile(file: string, allowOutside: boolean): DocumentPlan {
  let bytes: Uint8Array
  try {
    bytes = fs.readFileSync(file)
  } catch (error) {
    return {path: file, targets: [], diagnostics: [diagnostic(file, 'io/read', `cannot read ${file}: ${(error as Error).message}`)], blockCount: 0, failed: true, text: ''}
  }
  const boundary = allowOutside ? undefined : (findProjectRoot(path.dirname(file)) ?? path.dirname(file))
  return planDocument(file, bytes, {boundary})
}

/** Two documents writing one file: Emacs would let the later replace the earlier; we refuse both. */
function refuseSharedTargets(documents: DocumentPlan[]): void {
  const writers = new Map<string, DocumentPlan[]>()
  for (const document of documents) {
    for (const target of document.targets) {
      const list = writers.get(target.path) ?? []
      if (!list.includes(document)) list.push(document)
      writers.set(target.path, list)
    }
  }
  const refused = new Set<DocumentPlan>()
  for (const [target, list] of writers) {
    if (list.length < 2) continue
    for (const document of list) {
      const others = list.filter((other) => other !== document).map((other) => other.path)
      const block = document.targets.find((t) => t.path === target)?.blocks[0]
      document.diagnostics.push(diagnostic(document.path, 'tangle/target-conflict', `${target} is also written by ${others.join(', ')}; each target belongs to one document`, block?.open))
      refused.add(document)
    }
  }
  for (const document of refused) {
    document.targets = []
    document.blockCount = 0
    document.failed = true
  }
}

export function hasErrors(report: TangleReport): boolean {
  return report.diagnostics.some(isError)
}
