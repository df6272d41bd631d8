/**
 * `passepartout watch [FILE|DIR ...]`: check, then check again after every
 * saved change until interrupted, printing what `check` prints: each problem at
 * its Org line, type errors included. The first check is the whole program's;
 * after a save, the project session tangles the documents that changed and
 * re-checks their files and their importers on its warm program. A document
 * with errors writes nothing (an Org error), or has what it wrote put back as
 * it was (an error the check found, project-session.ts), so its last good
 * output stays in place while its author fixes it; the watcher says so.
 *
 * With --detangle, the generated files the record says a document wrote are
 * watched too, and a save of one is detangled (detangle-command.ts says it as
 * `detangle` does). Whether a file was edited is read from its bytes against
 * the record, never from the event, and the detangle waits its turn behind the
 * tangles: the watcher's own tangle of a document has recorded what it wrote by
 * the time its file's event is looked at, so it is no edit. The document the
 * detangle rewrites is then a saved document like any other: tangled, it
 * writes nothing, its record being up to date.
 */
import fs from 'node:fs'
import path from 'node:path'
import {displayPath, isError} from '../diagnostics.ts'
import {isInside, isSkippedEntry} from '../project.ts'
import {printable} from '../terminal.ts'
import type {CheckReport} from '../session/project-checker.ts'
import {type OrgChange, watchOrgFiles} from '../watch/org-watcher.ts'
import {printDetangle} from './detangle-command.ts'
import {commandInputs, inputRoots} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import {printPruned, summary, type TangleFlags} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export interface WatchFlags extends TangleFlags {
  /** Detangle each saved generated file. */
  detangle: boolean
}

export async function runWatch(args: string[], flags: WatchFlags, context: CommandContext): Promise<number> {
  const documentRoots = inputRoots(args, context.cwd)
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
  const roots = flags.detangle ? withGeneratedFolders(documentRoots, session.generatedFolders()) : documentRoots
  // One check or detangle at a time: a save during one is taken after it.
  let running = Promise.resolve()
  const inTurn = (work: () => Promise<void>) =>
    (running = running.then(async () => {
      try {
        await work()
      } catch (error) {
        // A watcher outlives what one save does to it: said, and the next save is taken.
        process.stderr.write(`passepartout: ${printable((error as Error).message)}\n`)
      }
    }))
  const saved = (changes: OrgChange[]) =>
    changes.filter((change) => change.kind === 'changed' && fs.existsSync(change.path)).map((change) => change.path)
  const isGenerated = (file: string) => session.writerOf(file) !== undefined
  const detangle = async (edited: string[]) => {
    const report = await session.detangle(edited, (file) => displayPath(file, context.cwd))
    // A file that holds what was written (the watcher's own tangle, a save that changed nothing) is no edit.
    if (report.changes.length > 0 || report.refusals.length > 0) printDetangle(report, context)
  }
  const watcher = watchOrgFiles(
    roots,
    (changes) => {
      const documents = changes.filter((change) => change.path.endsWith('.org'))
      const generated = saved(changes.filter((change) => !change.path.endsWith('.org')))
      if (generated.length > 0) void inTurn(() => detangle(generated))
      if (documents.length === 0) return
      // A file's name is written out: it may hold what a terminal would act on.
      const said = documents.map((change) => `${displayPath(change.path, context.cwd)} ${change.kind}`).join(', ')
      process.stdout.write(`${printable(said)}\n`)
      const rechecked = saved(documents)
      if (rechecked.length > 0) void inTurn(async () => print(await session.recheck(rechecked)))
    },
    {
      onError: (error) => process.stderr.write(`passepartout: watching: ${printable(error.message)}\n`),
      alsoReports: flags.detangle ? isGenerated : undefined,
    },
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

/**
 * The document ROOTS and the folders of generated files they do not see: each folder once, none a watcher of
 * another sees (one sees its subfolders, but for those a search for documents skips: generated/, node_modules/).
 */
function withGeneratedFolders(roots: readonly string[], generated: readonly string[]): string[] {
  const chosen = [...roots]
  for (const folder of [...generated].sort()) {
    if (chosen.some((root) => root === folder || seenUnder(folder, root))) continue
    chosen.push(folder)
  }
  return chosen
}

function seenUnder(folder: string, root: string): boolean {
  return (
    isInside(folder, root) &&
    path
      .relative(root, folder)
      .split(path.sep)
      .every((name) => !isSkippedEntry(name, true))
  )
}
