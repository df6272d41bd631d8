/**
 * `passepartout check [FILE|DIR ...]`: tangle, then type-check the generated
 * TypeScript and hold skills to their capabilities; every problem at its Org
 * line. `make tangle` runs it.
 */
import {CheckSession, hasCheckErrors} from '../check/check-session.ts'
import {isError} from '../diagnostics.ts'
import {findProjectRoot} from '../project.ts'
import {printDiagnostics} from './output.ts'
import {allowedFolders, cacheFolder, inputFolders, printPruned, resolveInputs, summary, type TangleFlags} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export async function runCheck(args: string[], flags: Pick<TangleFlags, 'allowOutside' | 'cache' | 'prune'>, context: CommandContext): Promise<number> {
  const files = resolveInputs(args, context.cwd)
  // The project of the files given, not of the working folder (as for tangle).
  const folder = cacheFolder(args, context.cwd)
  const {folders: allowOutside, problems} = allowedFolders(folder, flags, context.cwd)
  const session = new CheckSession({project: findProjectRoot(folder), allowOutside, cache: flags.cache, prune: flags.prune, folders: inputFolders(args, context.cwd)})
  const report = await session.checkAll(files)
  report.diagnostics.unshift(...problems)
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  const errors = report.diagnostics.filter(isError).length
  const warnings = report.diagnostics.length - errors
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  printPruned(report.tangle, false, context.cwd)
  process.stdout.write(`${summary(report.tangle, false)}\n`)
  process.stdout.write(`checked ${plural(report.checkedFiles, 'TypeScript file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${Math.round(report.elapsedMs)} ms\n`)
  return hasCheckErrors(report) ? 1 : 0
}
