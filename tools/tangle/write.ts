/**
 * Writing the files of one document: all or nothing, and not at all when the
 * bytes and the mode are already right (so that watchers and builds do not
 * churn).
 *
 * Every changed file is first written to a temporary file beside its target;
 * only when all of them are written are they renamed over their targets, each
 * replaced file kept under a second name until all are in place. A failure
 * before the renames removes the temporary files (and any folder created for
 * them); a rename that fails puts back the files already replaced. So a
 * document that cannot be written leaves the disk as it was, and a reader
 * never sees half a file. A journal records the transaction while it runs, for
 * a run that is killed (journal.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Journal, writeJournal} from './journal.ts'
import type {TargetPlan} from './tangle-document.ts'

export type WriteStatus = 'written' | 'unchanged' | 'mode-changed'

let temporaryCounter = 0
let umask: number | undefined

/** The process's umask (read once). */
export function processUmask(): number {
  if (umask === undefined) {
    umask = process.umask(0o022)
    process.umask(umask)
  }
  return umask
}

/** The permission bits Emacs leaves on a freshly written file: the plan's, else 0666 minus the umask. */
export function intendedMode(target: TargetPlan): number {
  return (target.mode ?? 0o666 & ~processUmask()) & 0o7777
}

/** What writing TARGET would do. */
export function preview(target: TargetPlan): WriteStatus {
  const existing = existingMode(target.path, Buffer.from(target.content, 'utf8'))
  if (existing === undefined) return 'written'
  return existing === intendedMode(target) ? 'unchanged' : 'mode-changed'
}

/** A target that could not be written, and why: reported at its block. */
export class TargetWriteError extends Error {
  constructor(
    readonly target: TargetPlan,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause))
    this.name = 'TargetWriteError'
  }
}

/**
 * Write the targets of one document as one transaction; throws a TargetWriteError when one cannot be written,
 * having put every target back as it was. JOURNAL is where the transaction is recorded while it runs
 * (journal.ts), so that a run killed in the middle is finished by the next.
 */
export function writeDocument(targets: readonly TargetPlan[], journal: {file: string; document: string}): WriteStatus[] {
  let current: TargetPlan | undefined
  let statuses: WriteStatus[]
  try {
    statuses = targets.map((target) => ((current = target), preview(target)))
  } catch (error) {
    throw new TargetWriteError(current!, error)
  }
  const changed = targets.filter((_, k) => statuses[k] === 'written')
  const entries = changed.map((target) => {
    const stem = path.join(path.dirname(target.path), `.${path.basename(target.path)}.${process.pid}.${temporaryCounter++}`)
    return {target, temporary: `${stem}.tmp`, backup: fs.existsSync(target.path) ? `${stem}.bak` : null}
  })
  const record = (phase: Journal['phase']) =>
    writeJournal(journal.file, {document: journal.document, pid: process.pid, phase, entries: entries.map(({target, temporary, backup}) => ({target: target.path, temporary, backup}))})
  const createdDirectories: string[] = []
  // The undo goes on past a step it cannot take (the folder that refused the rename may refuse a removal
  // too) and names what it had to leave, for the message.
  const left: string[] = []
  const attempt = (what: string, step: () => void) => {
    try {
      step()
    } catch {
      left.push(what)
    }
  }
  const undoStaging = () => {
    for (const {temporary, backup} of entries) {
      attempt(temporary, () => fs.rmSync(temporary, {force: true}))
      if (backup) attempt(backup, () => fs.rmSync(backup, {force: true}))
    }
    for (const directory of createdDirectories.reverse()) attempt(directory, () => fs.rmSync(directory, {recursive: true, force: true}))
    // What could not be undone is left to the next run, as an undo (journal.ts).
    if (left.length === 0) fs.rmSync(journal.file, {force: true})
    else attempt(journal.file, () => record('staging'))
  }
  const failure = (error: unknown) => new TargetWriteError(current!, left.length === 0 ? error : new Error(`${(error as Error).message}; left behind: ${left.join(', ')}`))
  if (entries.length > 0) {
    try {
      record('staging')
      for (const {target, temporary, backup} of entries) {
        current = target
        if (target.makeDirectory) {
          const created = fs.mkdirSync(path.dirname(target.path), {recursive: true})
          if (created) createdDirectories.push(created)
        }
        fs.writeFileSync(temporary, target.content, {mode: 0o666})
        if (target.mode !== undefined) fs.chmodSync(temporary, intendedMode(target))
        // A second name for the file about to be replaced: what an undo puts back.
        if (backup) fs.linkSync(target.path, backup)
      }
      record('renaming')
    } catch (error) {
      undoStaging()
      throw failure(error)
    }
    let renamed = 0
    try {
      for (const {target, temporary} of entries) {
        current = target
        fs.renameSync(temporary, target.path)
        renamed++
      }
    } catch (error) {
      // Put back what was replaced, remove what was new: the document is as it was before this run.
      for (const {target, backup} of entries.slice(0, renamed)) {
        if (backup) attempt(target.path, () => fs.renameSync(backup, target.path))
        else attempt(target.path, () => fs.rmSync(target.path, {force: true}))
      }
      undoStaging()
      throw failure(error)
    }
    for (const {backup} of entries) if (backup) fs.rmSync(backup, {force: true})
    fs.rmSync(journal.file, {force: true})
  }
  targets.forEach((target, k) => {
    if (statuses[k] === 'mode-changed') fs.chmodSync(target.path, intendedMode(target))
  })
  return statuses
}

/** The permission bits of the regular file at FILE when it holds exactly the bytes of CONTENT, else undefined. */
function existingMode(file: string, bytes: Buffer): number | undefined {
  const stat = fs.lstatSync(file, {throwIfNoEntry: false})
  if (!stat?.isFile() || stat.size !== bytes.length) return undefined
  return fs.readFileSync(file).equals(bytes) ? stat.mode & 0o7777 : undefined
}
