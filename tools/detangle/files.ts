/**
 * Detangling files of a project: which files to bring back (those named, or every file a document is recorded to
 * have written whose bytes are no longer what was written), grouped by the document that wrote them; each document
 * detangled in memory (detangle.ts) and written atomically, or not at all; the record of what was written brought up
 * to date for the files that went back, so that the next tangle neither warns of their edit nor writes them.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {noRecord} from '../messages/detangle.ts'
import {documentWriteFailed} from '../messages/io.ts'
import type {DocumentPlan} from '../tangle/tangle-document.ts'
import type {WrittenFiles} from '../tangle/written.ts'
import {type DetangleChange, detangleDocument, type EditedFile} from './detangle.ts'

export interface DetangleFilesRequest {
  /** The generated files to bring back, absolute; none: every recorded file under FOLDER that was edited. */
  files: readonly string[]
  folder: string
  written: WrittenFiles
  /** Tangle BYTES as the Org document DOCUMENT, in memory. */
  plan: (document: string, bytes: Uint8Array) => DocumentPlan
  display: (file: string) => string
}

export interface DetangleReport {
  changes: DetangleChange[]
  refusals: Diagnostic[]
  /** The Org documents written. */
  documents: string[]
  /** The generated files that went back (their documents now tangle to them). */
  settled: string[]
}

export function detangleFiles(request: DetangleFilesRequest): DetangleReport {
  const report: DetangleReport = {changes: [], refusals: [], documents: [], settled: []}
  const byDocument = new Map<string, string[]>()
  const files = request.files.length > 0 ? request.files : editedUnder(request.folder, request.written)
  for (const file of files) {
    const document = request.written.documentOf(file)
    if (!document) {
      report.refusals.push(diagnostic(file, noRecord(request.display(file), 'never'), {line: 1, column: 1}))
      continue
    }
    byDocument.set(document, [...(byDocument.get(document) ?? []), file])
  }
  for (const [document, targets] of byDocument) detangleOne(document, targets, request, report)
  request.written.save()
  return report
}

/** The files under FOLDER's documents whose bytes are not what was last written there. */
function editedUnder(folder: string, written: WrittenFiles): string[] {
  return written
    .documentsUnder(folder)
    .flatMap((document) => written.targetsOf(document).filter((target) => written.edited(document, target)))
}

function detangleOne(
  document: string,
  targets: readonly string[],
  request: DetangleFilesRequest,
  report: DetangleReport,
): void {
  const edited: EditedFile[] = targets.map((target) => ({
    path: target,
    recordedHash: request.written.entryOf(document, target)!.hash,
    bytes: fs.readFileSync(target),
  }))
  const bytes = fs.readFileSync(document)
  const result = detangleDocument({
    document,
    bytes,
    plan: (candidate) => request.plan(document, candidate),
    edited,
    display: request.display,
  })
  report.refusals.push(...result.refusals)
  if (result.bytes) {
    try {
      writeAtomically(document, result.bytes)
    } catch (error) {
      report.refusals.push(diagnostic(document, documentWriteFailed((error as Error).message)))
      return
    }
    report.documents.push(document)
    report.changes.push(...result.changes)
  }
  const settled = new Map(result.settled.map((file) => [file.path, file.hash]))
  if (settled.size === 0) return
  report.settled.push(...settled.keys())
  request.written.record(
    document,
    request.written.targetsOf(document).map((target) => ({
      path: target,
      hash: settled.get(target) ?? request.written.entryOf(document, target)!.hash,
    })),
  )
}

/** BYTES in FILE by a rename over it: a reader sees the old document or the new one, never half of it; its mode kept. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.detangle`)
  try {
    fs.writeFileSync(temporary, bytes, {mode: fs.statSync(file).mode & 0o7777})
    fs.renameSync(temporary, file)
  } finally {
    fs.rmSync(temporary, {force: true})
  }
}
