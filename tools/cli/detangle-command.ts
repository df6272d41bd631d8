/**
 * `passepartout detangle [FILE ...]`: the edits of generated files, back into their Org documents. Prints each
 * region that went back (`org/x.org:12-14 ← generated/x.ts:20-22`) on stdout and each refusal on stderr, as every
 * diagnostic is; exit 0 when every edit went back, 1 when any was refused.
 */
import path from 'node:path'
import {diagnostic, displayPath} from '../diagnostics.ts'
import type {DetangleChange} from '../detangle/detangle.ts'
import type {DetangleReport} from '../detangle/files.ts'
import {findProjectRoot} from '../project.ts'
import {ProjectSession} from '../session/project-session.ts'
import {allowedOutside} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

export interface DetangleFlags {
  /** The folders --allow-outside named, as given. */
  allowOutside: string[]
}

export async function runDetangle(args: string[], flags: DetangleFlags, context: CommandContext): Promise<number> {
  const files = args.map((arg) => path.resolve(context.cwd, arg))
  // The record of what was written is the project's: the project of the first file named, or of the working folder.
  const folder = files[0] === undefined ? context.cwd : path.dirname(files[0])
  const project = findProjectRoot(folder)
  const allowed = allowedOutside(project, flags.allowOutside, context.cwd)
  // Without the tangle cache (and the other caches of a tangle): detangle plans only the documents that wrote the
  // edited files, and reading the cache of a 1000-document project (1.4 MB of JSON) was most of its own time.
  const session = new ProjectSession({project, stateFolder: folder, allowOutside: allowed.folders, cache: false})
  const shown = (file: string) => displayPath(file, context.cwd)
  const report = await session.detangle(files, shown)
  const problems = [
    ...(allowed.problem ? [diagnostic(path.join(project!, 'package.json'), allowed.problem)] : []),
    ...session.settingsProblems,
  ]
  printDiagnostics(problems, {cwd: context.cwd, frames: context.frames})
  printDetangle(report, context)
  return report.refusals.length > 0 ? 1 : 0
}

/** What went back, each refusal (on stderr) and the summary line: what `detangle` says, and `watch --detangle`. */
export function printDetangle(report: DetangleReport, context: CommandContext): void {
  const shown = (file: string) => displayPath(file, context.cwd)
  for (const change of report.changes) process.stdout.write(`${describeChange(change, shown)}\n`)
  printDiagnostics(report.refusals, {cwd: context.cwd, frames: context.frames})
  process.stdout.write(`${summary(report.settled.length, report.documents.length, report.refusals.length)}\n`)
}

/** `org/x.org:12-14 ← generated/x.ts:20-22`; lines removed: `org/x.org:12 (2 lines removed) ← generated/x.ts:20`. */
function describeChange(change: DetangleChange, shown: (file: string) => string): string {
  const org =
    change.orgCount === 0
      ? `${change.orgLine} (${change.orgRemoved} ${change.orgRemoved === 1 ? 'line' : 'lines'} removed)`
      : lines(change.orgLine, change.orgCount)
  const file = change.fileCount === 0 ? `${change.fileLine}` : lines(change.fileLine, change.fileCount)
  return `${shown(change.document)}:${org} ← ${shown(change.file)}:${file}`
}

function lines(first: number, count: number): string {
  return count === 1 ? `${first}` : `${first}-${first + count - 1}`
}

function summary(files: number, documents: number, refused: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const went = `detangled ${plural(files, 'file')} into ${plural(documents, 'document')}`
  return refused === 0 ? went : `${went}; ${plural(refused, 'edit')} refused`
}
