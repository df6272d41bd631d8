/**
 * Writing tangled files: atomically (a temporary file renamed over the
 * target, so a reader never sees half a file), and not at all when the bytes
 * and the mode are already right, so that watchers and builds do not churn.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {TargetPlan} from './tangle-document.ts'

export type WriteStatus = 'written' | 'unchanged' | 'mode-changed'

let temporaryCounter = 0
let umask: number | undefined

/** The permission bits Emacs leaves on a freshly written file: the plan's, else 0666 minus the umask. */
export function intendedMode(target: TargetPlan): number {
  if (umask === undefined) {
    umask = process.umask(0o022)
    process.umask(umask)
  }
  return (target.mode ?? 0o666 & ~umask) & 0o7777
}

/** What writing TARGET would do. */
export function preview(target: TargetPlan): WriteStatus {
  const existing = existingMode(target.path, Buffer.from(target.content, 'utf8'))
  if (existing === undefined) return 'written'
  return existing === intendedMode(target) ? 'unchanged' : 'mode-changed'
}

export function writeTarget(target: TargetPlan): WriteStatus {
  const bytes = Buffer.from(target.content, 'utf8')
  const mode = intendedMode(target)
  const existing = existingMode(target.path, bytes)
  if (existing === mode) return 'unchanged'
  if (existing !== undefined) {
    fs.chmodSync(target.path, mode)
    return 'mode-changed'
  }
  if (target.makeDirectory) fs.mkdirSync(path.dirname(target.path), {recursive: true})
  const temporary = path.join(path.dirname(target.path), `.${path.basename(target.path)}.${process.pid}.${temporaryCounter++}.tmp`)
  try {
    fs.writeFileSync(temporary, bytes, {mode: 0o666})
    if (target.mode !== undefined) fs.chmodSync(temporary, mode)
    fs.renameSync(temporary, target.path)
  } catch (error) {
    fs.rmSync(temporary, {force: true})
    throw error
  }
  return 'written'
}

/** The permission bits of the regular file at FILE when it holds exactly BYTES, else undefined. */
function existingMode(file: string, bytes: Buffer): number | undefined {
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(file)
  } catch {
    return undefined
  }
  if (!stat.isFile() || stat.size !== bytes.length) return undefined
  return fs.readFileSync(file).equals(bytes) ? stat.mode & 0o7777 : undefined
}
