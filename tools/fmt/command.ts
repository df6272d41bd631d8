/**
 * `passepartout fmt [FILE|DIR ...] [--check]`: format the TypeScript and
 * JavaScript blocks of Org documents and the TypeScript and JavaScript files
 * (default: the project's org/ and tools/, else the Org documents of the project
 * or of the working folder). With `--check`, write nothing, list
 * the files that would change, and exit 1 when there is one.
 */
import fs from 'node:fs'
import path from 'node:path'
import {displayPath} from '../diagnostics.ts'
import {printDiagnostics} from '../cli/output.ts'
import {type CommandContext, UsageError} from '../cli/usage.ts'
import {noSuchPath, notFormattable} from '../messages/usage.ts'
import {findProjectRoot, listOrgFiles} from '../project.ts'
import {type FileOutcome, formatFiles, isFormattable, listFormattable} from './fmt.ts'

/** What fmt formats when it is given nothing: the documents and the toolchain (the "org/ and tools/"). */
const DEFAULT_FOLDERS = ['org', 'tools']

export async function runFmt(args: string[], flags: {check: boolean}, context: CommandContext): Promise<number> {
  const files = [...new Set(inputRoots(args, context.cwd).flatMap((root) => filesOf(root, context.cwd)))]
  const report = await formatFiles(files, {check: flags.check})
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  const changed = report.files.filter((file) => file.changed)
  const verb = flags.check ? 'would reformat' : 'reformatted'
  for (const file of changed)
    process.stdout.write(`${verb} ${displayPath(file.path, context.cwd)}${blocksChanged(file)}\n`)
  const blocks = report.files.flatMap((file) => file.blocks ?? [])
  const changedBlocks = blocks.filter((block) => block.status === 'changed').length
  const ofBlocks = blocks.length > 0 ? ` (${changedBlocks} of ${plural(blocks.length, 'block')})` : ''
  const summary = `${verb} ${changed.length} of ${plural(report.files.length, 'file')}${ofBlocks}`
  process.stdout.write(`${summary} in ${Math.round(report.elapsedMs)} ms\n`)
  const failed = report.diagnostics.some((message) => message.fatal)
  return failed || (flags.check && changed.length > 0) ? 1 : 0
}

/**
 * The files and folders ARGS name, absolute; none: the project's org/ and tools/ that exist, else the Org
 * documents under the project's root, or outside any project under CWD. Their documents alone: the code
 * beside them in such a folder is mostly what they tangle, which a format of its own would set apart from
 * what they write (the next tangle would call it an edit, and put it back).
 */
function inputRoots(args: string[], cwd: string): string[] {
  if (args.length > 0) return args.map((arg) => path.resolve(cwd, arg))
  const project = findProjectRoot(cwd) ?? path.resolve(cwd)
  const roots = DEFAULT_FOLDERS.map((folder) => path.join(project, folder)).filter((folder) => fs.existsSync(folder))
  return roots.length > 0 ? roots : listOrgFiles(project)
}

/** ROOT's files to format: the file itself, or those under the folder. */
function filesOf(root: string, cwd: string): string[] {
  const shown = path.relative(cwd, root) || '.'
  const stat = fs.statSync(root, {throwIfNoEntry: false})
  if (!stat) throw new UsageError(noSuchPath(shown))
  if (stat.isDirectory()) return listFormattable(root)
  if (!isFormattable(root)) throw new UsageError(notFormattable(shown))
  return [root]
}

/** ` (3 of 7 blocks)` for a document, nothing for a code file. */
function blocksChanged(file: FileOutcome): string {
  if (!file.blocks) return ''
  const changed = file.blocks.filter((block) => block.status === 'changed').length
  return ` (${changed} of ${plural(file.blocks.length, 'block')})`
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}
