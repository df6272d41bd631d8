/**
 * The journal that makes each document's writes a transaction. Renaming a
 * document's new files over their targets is several system calls; a run
 * killed between two of them, or a rename that fails (an immutable file, a
 * full disk), would leave the document half applied. So a run keeps a journal,
 * one line appended per step (a line costs a write, not a new file): each
 * document's targets with their temporary files and the second names (hard
 * links) of the files they replace, before any is made; that renaming begins;
 * each document that is done, or that the next run must undo. It removes the
 * journal when it is done. A journal found at the start of a run belongs to a
 * run that did not finish: a document still staging (or whose undo left
 * something) has its temporary files removed and its replaced files put back;
 * one being renamed has its remaining renames completed. Either way the run
 * says so, at each document. A line cut short by the kill is not read.
 *
 * Journals live in the project's `node_modules/.cache/passepartout/journal/`,
 * or outside an npm project in the user's (`~/.cache/passepartout/journal/`):
 * never in the temporary folder, where another user could leave one to be
 * "completed" by our next run.
 */
import fs from 'node:fs'
import path from 'node:path'
import {array, type Infer, literal, nullable, number, object, string, union} from '../shape.ts'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {renamesCompleted, stagingUndone} from '../messages/io.ts'
import {userStateFolder} from '../project.ts'
import {readProjectText, STATE_FILE_MAX_BYTES} from '../project-file.ts'

const documentShape = object({
  document: string,
  entries: array(object({target: string, temporary: string, backup: nullable(string)})),
})
export type JournalDocument = Infer<typeof documentShape>

/** The lines of a journal after its first, `{"pid": N}`. */
const folderShape = object({target: string, temporary: string})
type JournalFolder = Infer<typeof folderShape>
const lineShape = union(
  object({folder: folderShape}),
  object({stage: documentShape}),
  object({renaming: literal(true)}),
  object({settled: string}),
  object({undo: string}),
)
type JournalLine = Infer<typeof lineShape>
const headerShape = object({pid: number})

/** Where the journals of documents under PROJECT go: its cache, or outside an npm project the user's own folder. */
export function journalFolder(project: string | undefined): string {
  if (project && fs.existsSync(path.join(project, 'node_modules')))
    return path.join(project, 'node_modules', '.cache', 'passepartout', 'journal')
  return path.join(userStateFolder(), 'journal')
}

let runs = 0

/** A journal file of its own for a run of this process. */
export function journalPath(folder: string): string {
  return path.join(folder, `${process.pid}-${runs++}.jsonl`)
}

/** The journal of one run, written as it goes; created at its first line. */
export class JournalWriter {
  private fd: number | undefined

  constructor(private readonly file: string) {}

  /** The folder TARGET, which the run makes, is about to be staged whole as TEMPORARY. */
  folder(folder: JournalFolder): void {
    this.append({folder})
  }

  /** DOCUMENT's files are about to be staged. */
  stage(document: JournalDocument): void {
    this.append({stage: document})
  }

  /** The staged documents not settled are being renamed into place. */
  renaming(): void {
    this.append({renaming: true})
  }

  /** Nothing of DOCUMENT is pending; or, with UNDO, the next run is to undo what is left of it. */
  settle(document: string, undo: boolean): void {
    this.append(undo ? {undo: document} : {settled: document})
  }

  /** The run is over: the journal goes, unless KEEP (an undo left something for the next run). */
  close(keep: boolean): void {
    if (this.fd === undefined) return
    fs.closeSync(this.fd)
    this.fd = undefined
    if (!keep) fs.rmSync(this.file, {force: true})
  }

  private append(line: JournalLine): void {
    if (this.fd === undefined) {
      fs.mkdirSync(path.dirname(this.file), {recursive: true})
      this.fd = fs.openSync(this.file, 'w')
      fs.writeSync(this.fd, `${JSON.stringify({pid: process.pid})}\n`)
    }
    fs.writeSync(this.fd, `${JSON.stringify(line)}\n`)
  }
}

/** Whether the process PID runs, other than this one (one of another user's does: the signal is refused, not unknown). */
export function alive(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Finish what killed runs left in FOLDER (a journal whose process still runs is another run's, left alone),
 * and say what was done, as warnings at each document.
 */
export function recoverJournals(folder: string): Diagnostic[] {
  let names: string[]
  try {
    names = fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl'))
  } catch {
    return []
  }
  const said: Diagnostic[] = []
  for (const name of names) {
    const file = path.join(folder, name)
    const journal = readJournal(file)
    if (journal && alive(journal.pid)) continue
    if (journal) said.push(...recoverRun(journal))
    fs.rmSync(file, {force: true})
  }
  return said
}

/**
 * Finish or undo what the run of JOURNAL left: the documents to undo first (their files leave the staging folders),
 * then its staging folders (renamed into place once renaming had begun, else removed), then the documents whose
 * renames are to be completed; a staging folder left after that goes.
 */
function recoverRun(journal: NonNullable<ReturnType<typeof readJournal>>): Diagnostic[] {
  const pending = [...journal.staged.values()].filter((document) => !journal.settled.has(document.document))
  const undone = (document: JournalDocument) => !journal.renaming || journal.undo.has(document.document)
  const said = pending.filter(undone).map(undoStaging)
  if (journal.renaming) journal.folders.forEach(placeFolder)
  said.push(...pending.filter((document) => !undone(document)).map(completeRenames))
  for (const folder of journal.folders) fs.rmSync(folder.temporary, {recursive: true, force: true})
  return said
}

/** The staging folder of FOLDER into place, when the folder is not there yet; else its files go one by one (`completeRenames`). */
function placeFolder(folder: JournalFolder): void {
  try {
    if (fs.existsSync(folder.temporary) && !fs.existsSync(folder.target)) fs.renameSync(folder.temporary, folder.target)
  } catch {
    // Its documents' renames say what could not be done.
  }
}

/** What a journal says; undefined when it has no readable first line. */
function readJournal(file: string) {
  const read = readProjectText(file, STATE_FILE_MAX_BYTES)
  if (!read.ok) return undefined
  const lines = read.text.split('\n')
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as unknown
    } catch {
      return undefined
    }
  }
  const header = parse(lines[0]!)
  if (!headerShape(header)) return undefined
  const journal = {
    pid: header.pid,
    staged: new Map<string, JournalDocument>(),
    folders: [] as JournalFolder[],
    renaming: false,
    settled: new Set<string>(),
    undo: new Set<string>(),
  }
  for (const line of lines.slice(1)) {
    // The last line of a killed run may be cut short: it is not read (nothing it announced was begun).
    const step = parse(line)
    if (!lineShape(step)) continue
    if ('folder' in step) journal.folders.push(step.folder)
    else if ('stage' in step) journal.staged.set(step.stage.document, step.stage)
    else if ('renaming' in step) journal.renaming = true
    else if ('settled' in step) journal.settled.add(step.settled)
    else journal.undo.add(step.undo)
  }
  return journal
}

function undoStaging(document: JournalDocument): Diagnostic {
  for (const entry of document.entries) {
    fs.rmSync(entry.temporary, {force: true})
    if (entry.backup) restoreOrDrop(entry.backup, entry.target)
  }
  return diagnostic(document.document, stagingUndone())
}

function completeRenames(document: JournalDocument): Diagnostic {
  const failed: string[] = []
  for (const entry of document.entries) {
    try {
      if (fs.existsSync(entry.temporary)) fs.renameSync(entry.temporary, entry.target)
      if (entry.backup) fs.rmSync(entry.backup, {force: true})
    } catch (error) {
      failed.push(`${entry.target} (${(error as Error).message})`)
    }
  }
  return diagnostic(document.document, renamesCompleted(failed))
}

/**
 * BACKUP is a second name of what TARGET held before a run replaced it. While TARGET is that same file it
 * is only a name to drop; when it is not (the run replaced TARGET and could not put it back), it is the
 * old content, put back.
 */
function restoreOrDrop(backup: string, target: string): void {
  const kept = fs.statSync(backup, {throwIfNoEntry: false})
  if (!kept) return
  const current = fs.statSync(target, {throwIfNoEntry: false})
  if (current && current.ino === kept.ino && current.dev === kept.dev) fs.rmSync(backup, {force: true})
  else fs.renameSync(backup, target)
}
