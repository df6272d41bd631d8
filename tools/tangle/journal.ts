/**
 * The journal that makes one document's writes a transaction. Renaming a
 * document's new files over their targets is several system calls; a run
 * killed between two of them, or a rename that fails (an immutable file, a
 * full disk), would leave the document half applied. So before the first
 * rename the writer records, in a journal file, each target with its staged
 * temporary file and a hard link to the file it replaces; it removes the
 * journal when the document is done. A journal found at the start of a run
 * belongs to a run that did not finish: staged files only (nothing renamed
 * yet, or a failure the run could not wholly undo) are removed and replaced
 * files put back; once renaming had begun, the remaining renames are
 * completed. Either way the run says so.
 *
 * Journals live in the project's `node_modules/.cache/passepartout/journal/`,
 * or in the temporary folder outside an npm project.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {z} from 'zod'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'

const journalSchema = z.object({
  document: z.string(),
  pid: z.number(),
  /** `staging`: temporary files being written, no target touched; `renaming`: targets being replaced. */
  phase: z.enum(['staging', 'renaming']),
  entries: z.array(z.object({target: z.string(), temporary: z.string(), backup: z.string().nullable()})),
})
export type Journal = z.infer<typeof journalSchema>

/** Where the journals of documents under PROJECT go. */
export function journalFolder(project: string | undefined): string {
  if (project && fs.existsSync(path.join(project, 'node_modules'))) return path.join(project, 'node_modules', '.cache', 'passepartout', 'journal')
  return path.join(os.tmpdir(), 'passepartout-journal')
}

export function journalPath(folder: string, document: string): string {
  return path.join(folder, `${createHash('sha256').update(document).digest('hex').slice(0, 24)}.json`)
}

/** Write JOURNAL at FILE in one step (a journal is never read half written). */
export function writeJournal(file: string, journal: Journal): void {
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, JSON.stringify(journal))
  fs.renameSync(temporary, file)
}

function alive(pid: number): boolean {
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
    names = fs.readdirSync(folder).filter((name) => name.endsWith('.json'))
  } catch {
    return []
  }
  const said: Diagnostic[] = []
  for (const name of names) {
    const file = path.join(folder, name)
    let journal: Journal
    try {
      journal = journalSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))
    } catch {
      fs.rmSync(file, {force: true})
      continue
    }
    if (alive(journal.pid)) continue
    if (journal.phase === 'staging') {
      for (const entry of journal.entries) {
        fs.rmSync(entry.temporary, {force: true})
        if (entry.backup) restoreOrDrop(entry.backup, entry.target)
      }
      said.push(diagnostic(journal.document, 'io/recovered', 'an earlier run did not finish writing the files of this document (it was killed, or could not undo a failure); what it left was removed and every target is as it was'))
    } else {
      const failed: string[] = []
      for (const entry of journal.entries) {
        try {
          if (fs.existsSync(entry.temporary)) fs.renameSync(entry.temporary, entry.target)
          if (entry.backup) fs.rmSync(entry.backup, {force: true})
        } catch (error) {
          failed.push(`${entry.target} (${(error as Error).message})`)
        }
      }
      said.push(
        diagnostic(
          journal.document,
          'io/recovered',
          failed.length === 0
            ? `a run that was killed while replacing the files of this document left it half written; its remaining files were put in place`
            : `a run that was killed while replacing the files of this document left it half written, and these could not be put in place: ${failed.join('; ')}`,
        ),
      )
    }
    fs.rmSync(file, {force: true})
  }
  return said
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
