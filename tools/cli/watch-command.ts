/**
 * `passepartout watch [FILE|DIR ...]`: check, then check again after every
 * saved change until interrupted, printing what `check` prints: each problem at
 * its Org line, type errors included. The first check is the whole program's;
 * after a save, the project session tangles the documents that changed and
 * re-checks their files and their importers on its warm program. A document
 * with errors writes nothing (an Org error), or has what it wrote put back as
 * it was (an error the check found, project-session.ts), so its last good
 * output stays in place while its author fixes it; the watcher says so.
 */
import fs from 'node:fs'
import {displayPath, isError} from '../diagnostics.ts'
import {printable} from '../terminal.ts'
import type {CheckReport} from '../session/project-checker.ts'
import {type OrgChange, watchOrgFiles} from '../watch/org-watcher.ts'
import {commandInputs, inputRoots} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import {printPruned, summary, type TangleFlags} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export async function runWatch(args: string[], flags: TangleFlags, context: CommandContext): Promise<number> {
  const roots = inputRoots(args, context.cwd)
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  printDiagnostics(problems, context)
  const print = (report: CheckReport) => {
    printDiagnostics(report.diagnostics, context)
    printPruned(report.tangle, false, context.cwd)
    for (const document of report.keptOut ?? []) {
      const name = printable(displayPath(document, context.cwd))
      process.stdout.write(`${name}: its last good output stays (the save does not check)\n`)
    }
    const errors = report.diagnostics.filter(isError).length
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
    process.stdout.write(`${summary(report.tangle, false)}\n`)
    process.stdout.write(
      `checked ${plural(report.checkedFiles, 'TypeScript file')}: ${plural(errors, 'error')}, ${plural(report.diagnostics.length - errors, 'warning')} in ${Math.round(report.elapsedMs)} ms\n`,
    )
  }
  print(await session.check(files, {prune: flags.prune, folders}))
  // One check at a time: a save during a check is checked after it.
  let running = Promise.resolve()
  const recheck = (changes: OrgChange[]) =>
    (running = running.then(async () => {
      try {
        const saved = changes
          .filter((change) => change.kind === 'changed' && fs.existsSync(change.path))
          .map((change) => change.path)
        if (saved.length > 0) print(await session.recheck(saved))
      } catch (error) {
        // A watcher outlives what one save does to it: said, and the next save is checked.
        process.stderr.write(`passepartout: ${printable((error as Error).message)}\n`)
      }
    }))
  const watcher = watchOrgFiles(
    roots,
    (changes) => {
      // A file's name is written out: it may hold what a terminal would act on.
      const saved = changes.map((change) => `${displayPath(change.path, context.cwd)} ${change.kind}`).join(', ')
      process.stdout.write(`${printable(saved)}\n`)
      void recheck(changes)
    },
    {onError: (error) => process.stderr.write(`passepartout: watching: ${printable(error.message)}\n`)},
  )
  await watcher.ready
  // The warm program is made now, not at the first save.
  await session.warmUp()
  process.stdout.write(
    `watching ${roots.map((root) => (root === context.cwd ? '.' : displayPath(root, context.cwd))).join(', ')} for changes (Ctrl-C to stop)\n`,
  )
  // Held open by a timer of its own: while a deleted folder is awaited, no file handle keeps the process up.
  const alive = setInterval(() => {}, 1 << 30)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  clearInterval(alive)
  await watcher.close()
  await running
  return 0
}
