/**
 * Writing the files of one document: all or nothing, and not at all when the
 * bytes and the mode are already right (so that watchers and builds do not
 * churn).
 *
 * Every changed file is first written to a temporary file beside its target;
 * only when all of them are written are they renamed over their targets. A
 * failure before that removes the temporary files (and any folder created for
 * them), so a document that cannot be written leaves the disk as it was, and
 * a reader never sees half a file.
 */
import fs from 'node:fs'
import path from 'node:path'
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

/** Write the targets of one document; throws a TargetWriteError (having changed nothing) when one cannot be written. */
export function writeDocument(targets: readonly TargetPlan[]): WriteStatus[] {
  let current: TargetPlan | undefined
  let statuses: WriteStatus[]
  try {
    statuses = targets.map((target) => ((current = target), preview(target)))
  } catch (error) {
    throw new TargetWriteError(current!, error)
  }
  const staged: {temporary: string; target: string}[] = []
  const createdDirectories: string[] = []
  try {
    targets.forEach((target, k) => {
      current = target
      if (statuses[k] !== 'written') return
      if (target.makeDirectory) {
        const created = fs.mkdirSync(path.dirname(target.path), {recursive: true})
        if (created) createdDirectories.push(created)
      }
      const temporary = path.join(path.dirname(target.path), `.${path.basename(target.path)}.${process.pid}.${temporaryCounter++}.tmp`)
      staged.push({temporary, target: target.path})
      fs.writeFileSync(temporary, target.content, {mode: 0o666})
      if (target.mode !== undefined) fs.chmodSync(temporary, intendedMode(target))
    })
  } catch (error) {
    for (const {temporary} of staged) fs.rmSync(temporary, {force: true})
    for (const directory of createdDirectories.reverse()) fs.rmSync(directory, {recursive: true, force: true})
    throw new TargetWriteError(current!, error)
  }
  for (const {temporary, target} of staged) fs.renameSync(temporary, target)
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
