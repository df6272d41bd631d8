/**
 * Writing the files of a run's documents: each document all or nothing, and a
 * file not at all when its bytes and mode are already right (so that watchers
 * and builds do not churn).
 *
 * Every changed file is first written to a temporary file beside its target
 * (staged); only when the run has planned and staged every document are they
 * renamed over their targets, document by document, each replaced file kept
 * under a second name (a hard link) until the document is done. A folder the
 * run makes is staged whole instead: its files are written, under their own
 * names, into a temporary folder beside it, which is renamed into place once,
 * before the documents' other files (one rename for all its files instead of
 * one each, and the folder appears with every file in it). A document
 * that fails while staging loses its temporary files (and any folder made for
 * them); a rename that fails puts back the document's files already replaced.
 * Either way that document is as it was, a reader never sees half a file, and
 * the other documents are written. One journal per run records the
 * transaction (journal.ts), so that the next run finishes or undoes a run that
 * was killed.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {Position} from 'unist'
import type {DiskView} from './disk.ts'
import {JournalWriter} from './journal.ts'
import {type StageEntry, stageDocument, type StageResult, StagingThread} from './staging.ts'

/**
 * A file a document writes: where, what, and the block that named it. Defined here, by what writes it: the
 * plans (run-document.ts) make them and the writer takes them, and the writer imports nothing of the plans.
 */
export interface WriteTarget {
  /** Absolute path of the file. */
  path: string
  /** The `:tangle` value (or NAME.EXT) the blocks named it by. */
  fileName: string
  content: string
  /** The mode to set, or undefined for the default (0666 minus the umask). */
  mode: number | undefined
  makeDirectory: boolean
  /** The `#+begin_src` line of its first block: where a problem writing it is reported. */
  place: Position | undefined
  /** 1-based lines of the `#+begin_src` lines of its blocks. */
  blockLines: number[]
  lineCount: number
}

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
export function intendedMode(target: Pick<WriteTarget, 'mode'>): number {
  return (target.mode ?? 0o666 & ~processUmask()) & 0o7777
}

/** What writing TARGET would do; DISK knows what the target's folder held when the run began. */
export function preview(target: Pick<WriteTarget, 'path' | 'content' | 'mode'>, disk: DiskView): WriteStatus {
  if (!disk.entryOf(target.path)) return 'written'
  const existing = existingMode(target.path, Buffer.from(target.content, 'utf8'))
  if (existing === undefined) return 'written'
  return existing === intendedMode(target) ? 'unchanged' : 'mode-changed'
}

/** A target that could not be written, and why: reported at its block. */
export class TargetWriteError extends Error {
  constructor(
    readonly target: WriteTarget,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause))
    this.name = 'TargetWriteError'
  }
}

/** What became of a document: the status of each target, or the error that left it as it was. */
export type DocumentWriteResult = {statuses: WriteStatus[]} | {error: TargetWriteError}

/**
 * Files staged on this thread before a run starts the staging thread: it takes ~20 ms to start, and a file
 * costs 0.1-0.8 ms to create on the disks measured here. A run told it has more documents than that to
 * stage (`expect`) starts the thread at once and stages none here.
 */
const STAGE_HERE = 32

const encoder = new TextEncoder()

/** A folder the run makes (`target`, the outermost missing), staged whole as `temporary` beside it. */
interface StagingFolder {
  target: string
  temporary: string
}

/** A document of the run: its plan's targets, what writing each does, and where its staging stands. */
interface RunDocument {
  document: string
  targets: readonly WriteTarget[]
  statuses: WriteStatus[]
  entries: StageEntry[]
  staged: Promise<StageResult> | StageResult | undefined
  error: TargetWriteError | undefined
  /** What an undo could not remove or put back. */
  left: string[]
  createdDirectories: string[]
  /** Refused after it was staged (`commit`'s DROPPED): its files are not written. */
  dropped: boolean
}

/**
 * The writes of one run. `stage` each document as soon as it is planned (its files go to temporary
 * files, on the staging thread once there are many), then `commit` the documents that are still wanted:
 * their files are renamed into place, each document all or nothing.
 */
export class WriteRun {
  private readonly documents: RunDocument[] = []
  private readonly journal: JournalWriter
  private stagedHere = 0
  private stager: StagingThread | undefined
  /** The folders the run makes, by the outermost missing folder of their targets. */
  private readonly folders = new Map<string, StagingFolder>()

  constructor(
    journalFile: string,
    private readonly disk: DiskView,
  ) {
    this.journal = new JournalWriter(journalFile)
  }

  /**
   * The run is about to plan DOCUMENTS documents: when they are many, the staging thread starts now, while
   * the planner loads and plans the first one, and every file is staged there (measured at 1000 documents:
   * the thread stood idle, waiting for its first job, while this one created the first 32 files).
   */
  expect(documents: number): void {
    if (documents <= STAGE_HERE) return
    this.stagedHere = STAGE_HERE
    this.stager ??= this.startStager()
  }

  /** Stage the files of DOCUMENT that change (a failure is in `commit`'s answer). */
  stage(document: string, targets: readonly WriteTarget[]): void {
    const run: RunDocument = {
      document,
      targets,
      statuses: [],
      entries: [],
      staged: undefined,
      error: undefined,
      left: [],
      createdDirectories: [],
      dropped: false,
    }
    this.documents.push(run)
    let current: WriteTarget | undefined
    try {
      run.statuses = targets.map((target) => ((current = target), preview(target, this.disk)))
    } catch (error) {
      run.error = new TargetWriteError(current!, error)
      return
    }
    try {
      run.entries = targets
        .filter((_, k) => run.statuses[k] === 'written')
        .map((target) => ((current = target), this.entryFor(target)))
    } catch (error) {
      run.error = new TargetWriteError(current!, error)
      run.entries = []
      return
    }
    if (run.entries.length === 0) return
    try {
      // Recorded before the first file is made: a run killed from here on leaves nothing the next one does not know of.
      this.journal.stage({
        document,
        entries: run.entries.map(({target, temporary, backup}) => ({target, temporary, backup})),
      })
    } catch (error) {
      run.error = new TargetWriteError(
        targets.find((target) => target.path === run.entries[0]!.target)!,
        error,
      )
      run.entries = []
      return
    }
    const id = this.documents.length - 1
    if (this.stagedHere < STAGE_HERE) {
      this.stagedHere += run.entries.length
      run.staged = stageDocument(fs, path, id, run.entries)
    } else run.staged = this.stageElsewhere(id, run.entries)
  }

  /**
   * Rename the staged files of every document but those in DROPPED (refused after they were staged: their
   * files are removed), each document all or nothing. Answers for each staged document, by its path.
   */
  async commit(dropped: ReadonlySet<string> = new Set()): Promise<Map<string, DocumentWriteResult>> {
    this.stager?.answer()
    for (const run of this.documents) {
      if (run.staged === undefined) continue
      const result = await run.staged
      run.createdDirectories = result.createdDirectories
      if (result.failedAt !== null) this.fail(run, result.failedAt, new Error(result.message), result.left)
    }
    this.stager?.close()
    this.stager = undefined
    const staged = this.documents.filter((run) => run.entries.length > 0 && !run.error)
    const refused = staged.filter((run) => dropped.has(run.document))
    for (const run of refused) run.dropped = true
    for (const run of refused) {
      this.unstage(run)
      this.settle(run)
    }
    const renaming = staged.filter((run) => !dropped.has(run.document))
    if (renaming.length > 0) {
      try {
        this.journal.renaming()
        const failedFolders = this.renameFolders(renaming)
        for (const run of renaming) this.rename(run, failedFolders)
      } catch (error) {
        // The journal could not say that renaming begins: nothing is renamed.
        for (const run of renaming) {
          this.unstage(run)
          this.fail(run, 0, error, [])
        }
      }
    }
    const foldersLeft = this.removeFolders()
    for (const run of this.documents) if (!run.error && !dropped.has(run.document)) this.changeModes(run)
    this.journal.close(foldersLeft || this.documents.some((run) => run.left.length > 0))
    return new Map(
      this.documents.map((run) => [run.document, run.error ? {error: run.error} : {statuses: run.statuses}]),
    )
  }

  /** How TARGET is staged: in the staging folder of a folder the run makes, else beside it. */
  private entryFor(target: WriteTarget): StageEntry {
    const content = encoder.encode(target.content)
    const mode = target.mode === undefined ? null : intendedMode(target)
    const staging = this.stagingFolderOf(target)
    if (staging) {
      const temporary = path.join(staging.temporary, path.relative(staging.target, target.path))
      // The staging folder is made with it; only a folder inside it is left to make.
      const makeDirectory = target.makeDirectory && path.dirname(temporary) !== staging.temporary
      return {target: target.path, temporary, backup: null, content, mode, makeDirectory, folder: staging.temporary}
    }
    const folder = path.dirname(target.path)
    const stem = path.join(folder, `.${path.basename(target.path)}.${process.pid}.${temporaryCounter++}`)
    return {
      target: target.path,
      temporary: `${stem}.tmp`,
      backup: this.disk.entryOf(target.path) ? `${stem}.bak` : null,
      content,
      mode,
      // A folder there when the run began is not made again: a mkdir and a stat a file, where the plan knows.
      makeDirectory: target.makeDirectory && !this.disk.isDirectory(folder),
      folder: null,
    }
  }

  /**
   * The staging folder TARGET goes into, when its folder does not exist: the one of its outermost missing folder,
   * made (journal first) for a target that makes its folder. A target that does not, in a folder no target before it
   * made, is staged beside itself, and fails as writing into a missing folder does.
   */
  private stagingFolderOf(target: WriteTarget): StagingFolder | undefined {
    let outermost = path.dirname(target.path)
    if (this.disk.kind(outermost) !== 'missing') return undefined
    while (this.disk.kind(path.dirname(outermost)) === 'missing') outermost = path.dirname(outermost)
    let staging = this.folders.get(outermost)
    if (staging || !target.makeDirectory) return staging
    const name = `.${path.basename(outermost)}.${process.pid}.${temporaryCounter++}.tmp`
    staging = {target: outermost, temporary: path.join(path.dirname(outermost), name)}
    // Recorded before it is made: a run killed from here on leaves nothing the next one does not know of.
    this.journal.folder(staging)
    fs.mkdirSync(staging.temporary)
    this.folders.set(outermost, staging)
    return staging
  }

  /**
   * Rename each staging folder that RENAMING's documents stage into into place (the others go): answers the error of
   * each that could not be.
   */
  private renameFolders(renaming: readonly RunDocument[]): Map<string, unknown> {
    const used = new Set(renaming.flatMap((run) => run.entries.map((entry) => entry.folder)))
    const failed = new Map<string, unknown>()
    for (const {target, temporary} of this.folders.values()) {
      if (!used.has(temporary)) continue
      try {
        fs.renameSync(temporary, target)
      } catch (error) {
        failed.set(temporary, error)
      }
    }
    return failed
  }

  /**
   * Remove the staging folders left: those no document renamed into place, and those that could not be. True when
   * one could not be removed: the journal stays, for the next run to remove it (journal.ts).
   */
  private removeFolders(): boolean {
    let left = false
    for (const {temporary} of this.folders.values()) {
      try {
        fs.rmSync(temporary, {recursive: true, force: true})
      } catch {
        left = true
      }
    }
    return left
  }

  /** Stage ENTRIES on the staging thread, while this one plans the next documents. */
  private stageElsewhere(id: number, entries: StageEntry[]): Promise<StageResult> {
    return (this.stager ??= this.startStager()).stage(id, entries)
  }

  /** The staging thread; one that cannot run leaves its jobs to this one (the bytes it was sent are encoded again). */
  private startStager(): StagingThread {
    return new StagingThread((job) => {
      const run = this.documents[job]!
      const textOf = (file: string) => run.targets.find((target) => target.path === file)!.content
      for (const entry of run.entries) entry.content = encoder.encode(textOf(entry.target))
      return stageDocument(fs, path, job, run.entries)
    })
  }

  /** Rename RUN's staged files into place; those in a staging folder are there once their folder is (FAILED_FOLDERS: it is not). */
  private rename(run: RunDocument, failedFolders: ReadonlyMap<string, unknown>): void {
    const unplaced = run.entries.findIndex((entry) => entry.folder !== null && failedFolders.has(entry.folder))
    if (unplaced >= 0) {
      this.unstage(run)
      this.fail(run, unplaced, failedFolders.get(run.entries[unplaced]!.folder!), [])
      return
    }
    let renamed = 0
    try {
      for (const entry of run.entries) {
        if (entry.folder === null) fs.renameSync(entry.temporary, entry.target)
        renamed++
      }
    } catch (error) {
      // Put back what was replaced, remove what was new: the document is as it was before this run.
      const placed = run.entries.filter((entry, k) => k < renamed || entry.folder !== null)
      for (const {target, backup} of placed) {
        if (backup) this.attempt(run, target, () => fs.renameSync(backup, target))
        else this.attempt(run, target, () => fs.rmSync(target, {force: true}))
      }
      this.unstage(run)
      this.fail(run, renamed, error, [])
      return
    }
    for (const {backup} of run.entries) if (backup) this.attempt(run, backup, () => fs.rmSync(backup, {force: true}))
    this.settle(run)
  }

  private unstage(run: RunDocument): void {
    for (const {temporary, backup} of run.entries) {
      this.attempt(run, temporary, () => fs.rmSync(temporary, {force: true}))
      if (backup) this.attempt(run, backup, () => fs.rmSync(backup, {force: true}))
    }
    // A folder it made that another document's files are staged in now stays theirs.
    const others = this.documents
      .filter((other) => other !== run && !other.error && !other.dropped)
      .flatMap((other) => other.entries)
    for (const directory of run.createdDirectories.reverse()) {
      if (others.some((entry) => entry.temporary.startsWith(`${directory}${path.sep}`))) continue
      this.attempt(run, directory, () => fs.rmSync(directory, {recursive: true, force: true}))
    }
  }

  private changeModes(run: RunDocument): void {
    run.targets.forEach((target, k) => {
      if (run.statuses[k] !== 'mode-changed') return
      try {
        fs.chmodSync(target.path, intendedMode(target))
      } catch (error) {
        run.error ??= new TargetWriteError(target, error)
      }
    })
  }

  /** Record that RUN failed at its entry AT: its error names that target and what its undo had to leave. */
  private fail(run: RunDocument, at: number, error: unknown, left: string[]): void {
    run.left.push(...left)
    const target = run.entries[at]?.target
    const plan = run.targets.find((candidate) => candidate.path === target) ?? run.targets[0]!
    const cause =
      run.left.length === 0 ? error : new Error(`${(error as Error).message}; left behind: ${run.left.join(', ')}`)
    run.error = new TargetWriteError(plan, cause)
    this.settle(run)
  }

  /** Nothing of RUN is pending any more, or (when its undo left something) the next run is to undo it. */
  private settle(run: RunDocument): void {
    try {
      this.journal.settle(run.document, run.left.length > 0)
    } catch {
      // The journal's folder went away: what it would have said is in the messages.
    }
  }

  private attempt(run: RunDocument, what: string, step: () => void): void {
    try {
      step()
    } catch {
      run.left.push(what)
    }
  }
}

/** The permission bits of the regular file at FILE when it holds exactly the bytes of CONTENT, else undefined. */
function existingMode(file: string, bytes: Uint8Array): number | undefined {
  const stat = fs.lstatSync(file, {throwIfNoEntry: false})
  if (!stat?.isFile() || stat.size !== bytes.length) return undefined
  return fs.readFileSync(file).equals(bytes) ? stat.mode & 0o7777 : undefined
}
