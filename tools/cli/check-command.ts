/**
 * `passepartout check [FILE|DIR ...]`: tangle, then type-check the generated
 * TypeScript and hold skills to their capabilities; every problem at its Org
 * line. `make tangle` runs it. `--json` prints the report for programs.
 */
import {type CheckReport, CheckSession, hasCheckErrors} from '../check/check-session.ts'
import {diagnosticJson, isError} from '../diagnostics.ts'
import {findProjectRoot} from '../project.ts'
import {printDiagnostics} from './output.ts'
import {allowedFolders, cacheFolder, inputFolders, printPruned, resolveInputs, summary, type TangleFlags, tangleJson} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export async function runCheck(args: string[], flags: Pick<TangleFlags, 'allowOutside' | 'cache' | 'prune' | 'json'>, context: CommandContext): Promise<number> {
  const files = resolveInputs(args, context.cwd)
  // The project of the files given, not of the working folder (as for tangle).
  const folder = cacheFolder(args, context.cwd)
  const {folders: allowOutside, problems} = allowedFolders(folder, flags, context.cwd)
  const session = new CheckSession({project: findProjectRoot(folder), allowOutside, cache: flags.cache, prune: flags.prune, folders: inputFolders(args, context.cwd)})
  const report = await session.checkAll(files)
  report.diagnostics.unshift(...problems)
  if (flags.json) process.stdout.write(`${JSON.stringify(checkJson(report, context.cwd), null, 2)}\n`)
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  if (!flags.json) {
    const errors = report.diagnostics.filter(isError).length
    const warnings = report.diagnostics.length - errors
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
    printPruned(report.tangle, false, context.cwd)
    process.stdout.write(`${summary(report.tangle, false)}\n`)
    process.stdout.write(`checked ${plural(report.checkedFiles, 'TypeScript file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${Math.round(report.elapsedMs)} ms\n`)
  }
  return hasCheckErrors(report) ? 1 : 0
}

/** The check for programs: what the tangle did, how many files were checked, and every diagnostic (the tangle's too). */
function checkJson(report: CheckReport, cwd: string) {
  const errors = report.diagnostics.filter(isError).length
  return {
    version: 1,
    tangle: tangleJson(report.tangle, cwd),
    checkedFiles: report.checkedFiles,
    checker: report.checker,
    errors,
    warnings: report.diagnostics.length - errors,
    elapsedMs: Math.round(report.elapsedMs),
    diagnostics: report.diagnostics.map((message) => diagnosticJson(message, cwd)),
  }
}
