/**
 * Detangling files of a project: which files to bring back (those named, or every file a document is recorded to
 * have written whose bytes are no longer what was written), grouped by the document that wrote them; each document
 * detangled in memory (detangle.ts) and written atomically, or not at all; the record of what was written brought up
 * to date for the files that went back, so that the next tangle neither warns of their edit nor writes them.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {linkedFile, noRecord, savedMeanwhile} from '../messages/detangle.ts'
import {documentWriteFailed, readFailed} from '../messages/io.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import type {DocumentPlan} from '../tangle/tangle-document.ts'
import type {WrittenFiles} from '../tangle/written.ts'
import {type DetangleChange, detangleDocument, type EditedFile} from './detangle.ts'

export interface DetangleFilesRequest {
  /**
   * The generated files to bring back, absolute, a folder standing for the files recorded under it that were edited;
   * none: FOLDER.
   */
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
  const add = (document: string, file: string) => byDocument.set(document, [...(byDocument.get(document) ?? []), file])
  for (const given of request.files.length > 0 ? request.files : [request.folder]) {
    if (fs.statSync(given, {throwIfNoEntry: false})?.isDirectory()) {
      for (const {document, target} of editedUnder(given, request.written)) add(document, target)
      continue
    }
    const document = request.written.documentOf(given)
    if (document) add(document, given)
    else report.refusals.push(diagnostic(given, noRecord('never'), {line: 1, column: 1}))
  }
  for (const [document, targets] of byDocument) detangleOne(document, [...new Set(targets)], request, report)
  request.written.save()
  return report
}

/** The files recorded under FOLDER whose bytes are not what was last written there. */
function editedUnder(folder: string, written: WrittenFiles): {document: string; target: string}[] {
  return written.targetsUnder(folder).filter(({document, target}) => written.edited(document, target))
}

function detangleOne(
  document: string,
  targets: readonly string[],
  request: DetangleFilesRequest,
  report: DetangleReport,
): void {
  const edited: EditedFile[] = []
  for (const target of targets) {
    if (linkSaid(target, report)) continue
    const bytes = readOrSay(target, report, request.display)
    if (bytes) edited.push({path: target, recordedHash: request.written.entryOf(document, target)!.hash, bytes})
  }
  const bytes = readOrSay(document, report, request.display)
  if (!bytes || edited.length === 0) return
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
      if (!writeAtomically(document, bytes, result.bytes)) {
        report.refusals.push(diagnostic(document, savedMeanwhile()))
        return
      }
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

/**
 * Whether the generated file FILE is a symbolic link, said in REPORT: the tangle writes files, never links, so a link
 * is no edit of what it wrote, and what it leads to (a file outside the project, /etc/passwd) must not go into a
 * document. (Whoever could swap it for a link between this look and the read could as well edit the document.)
 */
function linkSaid(file: string, report: DetangleReport): boolean {
  if (!fs.lstatSync(file, {throwIfNoEntry: false})?.isSymbolicLink()) return false
  report.refusals.push(diagnostic(file, linkedFile(fs.readlinkSync(file)), {line: 1, column: 1}))
  return true
}

/**
 * The bytes of FILE; undefined, said in REPORT, when it cannot be read (gone, say), or is no regular file of at most
 * a document's bytes: an edited file is anything whoever can write the project put there (a named pipe waited for
 * good). DISPLAY names it in the message as every other message names a file: from the working folder.
 */
function readOrSay(file: string, report: DetangleReport, display: (file: string) => string): Buffer | undefined {
  const read = readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
  if (read.ok) return read.bytes
  report.refusals.push(diagnostic(file, readFailed(display(file), read.why)))
  return undefined
}

/**
 * BYTES in FILE, which held BEFORE, by a rename over it: a reader sees the old document or the new one, never half of
 * it; its mode kept; through a link, where the link leads (the link kept). A document saved meanwhile (its bytes no
 * longer BEFORE) is not replaced: false.
 */
function writeAtomically(file: string, before: Uint8Array, bytes: Uint8Array): boolean {
  const real = fs.realpathSync(file)
  const temporary = path.join(path.dirname(real), `.${path.basename(real)}.${process.pid}.detangle`)
  try {
    fs.writeFileSync(temporary, bytes, {mode: fs.statSync(real).mode & 0o7777})
    const now = readProjectFile(real, ORG_DOCUMENT_MAX_BYTES)
    if (!now.ok || !now.bytes.equals(before)) return false
    fs.renameSync(temporary, real)
    return true
  } finally {
    fs.rmSync(temporary, {force: true})
  }
}
