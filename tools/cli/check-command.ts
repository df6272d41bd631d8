/**
 * `passepartout check [FILE|DIR ...]`: tangle, then type-check the generated
 * TypeScript and hold skills to their capabilities; every problem at its Org
 * line. A document named is checked with the documents it depends on, and no
 * other (an editor checks the one it saved). `make tangle` runs it. `--json`
 * prints the report for programs.
 */
import {diagnosticJson, isError} from '../diagnostics.ts'
import {type CheckReport, hasCheckErrors} from '../session/project-checker.ts'
import {tangleCoreFor} from './core-command.ts'
import {commandInputs} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import {printPruned, summary, type TangleFlags, tangleJson} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export async function runCheck(
  args: string[],
  flags: Pick<TangleFlags, 'allowOutside' | 'cache' | 'prune' | 'json'>,
  context: CommandContext,
): Promise<number> {
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  if (!(await tangleCoreFor(session.project, context))) return 1
  // Documents named are checked with those they depend on; the whole of org/ (no argument) holds them already.
  const checked = args.length > 0 ? await session.withDependencies(files) : files
  const report = await session.check(checked, {prune: flags.prune, folders})
  report.diagnostics.unshift(...problems)
  if (flags.json) process.stdout.write(`${JSON.stringify(checkJson(report, context.cwd), null, 2)}\n`)
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  if (!flags.json) {
    const errors = report.diagnostics.filter(isError).length
    const warnings = report.diagnostics.length - errors
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
    printPruned(report.tangle, false, context.cwd)
    process.stdout.write(`${summary(report.tangle, false)}\n`)
    process.stdout.write(
      `checked ${plural(report.checkedFiles, 'TypeScript file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${Math.round(report.elapsedMs)} ms\n`,
    )
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
