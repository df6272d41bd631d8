/**
 * `passepartout tangle [FILE|DIR ...]`.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, diagnosticJson, displayPath} from '../diagnostics.ts'
import {allowOutsideInvalid, noDocuments} from '../messages/io.ts'
import {allowedOutside, findProjectRoot, listOrgFiles} from '../project.ts'
import {TangleCache} from '../tangle/cache.ts'
import {hasErrors, type TangleReport, tangle} from '../tangle/tangle.ts'
import {WrittenFiles} from '../tangle/written.ts'
import {printDiagnostics} from './output.ts'
import {type CommandContext, UsageError} from './usage.ts'

export interface TangleFlags {
  dryRun: boolean
  json: boolean
  /** The folders --allow-outside named, as given (a bare --allow-outside names /). */
  allowOutside: string[]
  /** Reuse what the last run learnt about unchanged documents. */
  cache: boolean
  /** Remove the files documents no longer write. */
  prune: boolean
}

export async function runTangle(args: string[], flags: TangleFlags, context: CommandContext): Promise<number> {
  const files = resolveInputs(args, context.cwd)
  const folder = cacheFolder(args, context.cwd)
  const {folders: allowOutside, problems} = allowedFolders(folder, flags, context.cwd)
  const cache = flags.cache ? TangleCache.open(folder, {tool: process.env.PASSEPARTOUT_BUILD ?? '', allowOutside}) : undefined
  const report = await tangle({files, allowOutside, dryRun: flags.dryRun, cache, written: WrittenFiles.open(folder), prune: flags.prune, folders: inputFolders(args, context.cwd)})
  report.diagnostics.unshift(...problems)
  if (flags.json) process.stdout.write(`${JSON.stringify({version: 1, ...tangleJson(report, context.cwd), diagnostics: report.diagnostics.map((message) => diagnosticJson(message, context.cwd))}, null, 2)}\n`)
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  if (!flags.json) {
    if (flags.dryRun) {
      for (const outcome of report.outcomes) {
        const verb = outcome.status === 'written' ? 'would write' : outcome.status === 'mode-changed' ? 'would change the mode of' : 'unchanged'
        process.stdout.write(`${verb} ${displayPath(outcome.path, context.cwd)} (${outcome.blockLines.length} blocks from ${displayPath(outcome.document, context.cwd)})\n`)
      }
    }
    printPruned(report, flags.dryRun, context.cwd)
    process.stdout.write(`${summary(report, flags.dryRun)}\n`)
  }
  return hasErrors(report) ? 1 : 0
}

/** The files and folders ARGS name, as absolute paths; no argument means the project's org/ folder. */
export function inputRoots(args: string[], cwd: string): string[] {
  if (args.length > 0) return args.map((arg) => path.resolve(cwd, arg))
  const root = findProjectRoot(cwd)
  if (!root || !fs.existsSync(path.join(root, 'org'))) throw new UsageError('no org/ folder in this project: name the Org files or folders to tangle')
  return [path.join(root, 'org')]
}

/**
 * Whose cache a run uses: the project of the first file or folder it was given (not of the working folder:
 * `tangle proj/docs` from a parent folder is proj's run), or that folder itself outside any project.
 */
export function cacheFolder(args: string[], cwd: string): string {
  const [first] = inputRoots(args, cwd)
  const folder = fs.existsSync(first!) && !fs.statSync(first!).isDirectory() ? path.dirname(first!) : first!
  return findProjectRoot(folder) ?? folder
}

/**
 * The folders outside the project where targets may go, from the command line and the package.json of the
 * project of FOLDER; a setting that is not a list of folders is said (and allows nothing).
 */
export function allowedFolders(folder: string, flags: Pick<TangleFlags, 'allowOutside'>, cwd: string): {folders: string[]; problems: Diagnostic[]} {
  const project = findProjectRoot(folder)
  const allowed = allowedOutside(project, flags.allowOutside, cwd)
  return {folders: allowed.folders, problems: allowed.invalid ? [diagnostic(path.join(project!, 'package.json'), allowOutsideInvalid())] : []}
}

/** The folders among what ARGS name (the project's org/ when none is named): where deleted documents are looked for. */
export function inputFolders(args: string[], cwd: string): string[] {
  return inputRoots(args, cwd).filter((root) => fs.statSync(root, {throwIfNoEntry: false})?.isDirectory())
}

/** One line for each file removed (or, dry, that would be) because no document writes it any more. */
export function printPruned(report: TangleReport, dryRun: boolean, cwd: string): void {
  for (const file of report.pruned) process.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${displayPath(file.path, cwd)} (${displayPath(file.document, cwd)} no longer writes it)\n`)
}

/** FILE arguments as given, DIR arguments expanded into their Org files. */
export function resolveInputs(args: string[], cwd: string): string[] {
  const files: string[] = []
  for (const full of inputRoots(args, cwd)) {
    const arg = path.relative(cwd, full) || '.'
    let stat: fs.Stats
    try {
      stat = fs.statSync(full)
    } catch {
      throw new UsageError(`no such file or directory: ${arg}`)
    }
    if (stat.isDirectory()) {
      const found = listOrgFiles(full)
      // Said, not refused: a new project's org/ may be empty yet, and a script may pass a folder that is.
      if (found.length === 0) printDiagnostics([diagnostic(full, noDocuments(arg))], {cwd, frames: false})
      files.push(...found)
    } else files.push(full)
  }
  return [...new Set(files)]
}

export function summary(report: TangleReport, dryRun: boolean): string {
  const documents = report.documents.length
  const files = report.outcomes.length
  const unchanged = report.outcomes.filter((outcome) => outcome.status === 'unchanged').length
  const failed = report.documents.filter((document) => document.failed).length
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const verb = dryRun ? 'would tangle' : 'tangled'
  return `${verb} ${plural(report.blockCount, 'block')} from ${plural(documents, 'document')} into ${plural(files, 'file')} (${unchanged} unchanged${failed ? `, ${failed} failed` : ''}) in ${Math.round(report.elapsedMs)} ms`
}

/** What a tangle did, for `--json` reports (`tangle`'s, and the tangle part of `check`'s); its diagnostics go beside it. */
export function tangleJson(report: TangleReport, cwd: string) {
  return {
    blocks: report.blockCount,
    elapsedMs: Math.round(report.elapsedMs),
    documents: report.documents.map((document) => ({
      path: displayPath(document.path, cwd),
      failed: document.failed,
      cached: document.cached,
      blocks: document.blockCount,
      targets: document.targets.map((target) => ({
        path: displayPath(target.path, cwd),
        status: target.status,
        blocks: target.blockLines,
        mode: target.mode === undefined ? null : `0${target.mode.toString(8)}`,
        lines: target.lineCount,
      })),
    })),
    pruned: report.pruned.map((file) => ({path: displayPath(file.path, cwd), document: displayPath(file.document, cwd)})),
  }
}
