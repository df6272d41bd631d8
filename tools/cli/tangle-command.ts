/**
 * `passepartout tangle [FILE|DIR ...]`.
 */
import {diagnosticJson, displayPath} from '../diagnostics.ts'
import {hasErrors, type TangleReport} from '../tangle/tangle.ts'
import {commandInputs, type SessionFlags} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

export interface TangleFlags extends SessionFlags {
  dryRun: boolean
  json: boolean
  /** Remove the files documents no longer write. */
  prune: boolean
}

export async function runTangle(args: string[], flags: TangleFlags, context: CommandContext): Promise<number> {
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  const report = await session.tangle(files, {dryRun: flags.dryRun, prune: flags.prune, folders})
  report.diagnostics.unshift(...problems)
  if (flags.json)
    process.stdout.write(
      `${JSON.stringify({version: 1, ...tangleJson(report, context.cwd), diagnostics: report.diagnostics.map((message) => diagnosticJson(message, context.cwd))}, null, 2)}\n`,
    )
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  if (!flags.json) {
    if (flags.dryRun) {
      for (const outcome of report.outcomes) {
        const verb =
          outcome.status === 'written'
            ? 'would write'
            : outcome.status === 'mode-changed'
              ? 'would change the mode of'
              : 'unchanged'
        process.stdout.write(
          `${verb} ${displayPath(outcome.path, context.cwd)} (${outcome.blockLines.length} blocks from ${displayPath(outcome.document, context.cwd)})\n`,
        )
      }
    }
    printPruned(report, flags.dryRun, context.cwd)
    process.stdout.write(`${summary(report, flags.dryRun)}\n`)
  }
  return hasErrors(report) ? 1 : 0
}

/** One line for each file removed (or, dry, that would be) because no document writes it any more. */
export function printPruned(report: TangleReport, dryRun: boolean, cwd: string): void {
  for (const file of report.pruned)
    process.stdout.write(
      `${dryRun ? 'would remove' : 'removed'} ${displayPath(file.path, cwd)} (${displayPath(file.document, cwd)} no longer writes it)\n`,
    )
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
    pruned: report.pruned.map((file) => ({
      path: displayPath(file.path, cwd),
      document: displayPath(file.document, cwd),
    })),
  }
}
