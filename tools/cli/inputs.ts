/**
 * What a command works on, from its arguments: the Org files (a folder stands
 * for the Org files under it; none for the default folder: the project's org/,
 * or the Org files of the project or working folder), the folders given,
 * and the project session that owns them: the project of the first file or
 * folder given (not of the working folder: `tangle proj/docs` from a parent
 * folder is proj's), or that folder itself outside any project.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {allowOutsideInvalid, noDocuments} from '../messages/io.ts'
import {noSuchPath} from '../messages/usage.ts'
import {allowedOutside, defaultFolder, findProjectRoot, listOrgFiles} from '../project.ts'
import {ProjectSession} from '../session/project-session.ts'
import {printDiagnostics} from './output.ts'
import {type CommandContext, UsageError} from './usage.ts'

export interface SessionFlags {
  /** The folders --allow-outside named, as given (a bare --allow-outside names /). */
  allowOutside: string[]
  /** Reuse what the last run learnt about unchanged documents. */
  cache: boolean
}

export interface CommandInputs {
  session: ProjectSession
  /** The Org files, absolute, each once. */
  files: string[]
  /** The folders given (the project's org/ when nothing is): where deleted documents are looked for. */
  folders: string[]
  /** What the project's and the toolchain's settings hold that is wrong (config/invalid), to report with the command's own. */
  problems: Diagnostic[]
}

/** The inputs of a command given ARGS in CONTEXT. */
export function commandInputs(
  args: string[],
  flags: SessionFlags,
  context: CommandContext,
  options: {warmOnly?: boolean} = {},
): CommandInputs {
  const inputs = inputRoots(args, context.cwd)
  const files = resolveInputs(inputs, context.cwd)
  const folder = folderOf(inputs[0]!)
  const project = findProjectRoot(folder)
  const allowed = allowedOutside(project, flags.allowOutside, context.cwd)
  const problems = allowed.invalid ? [diagnostic(path.join(project!, 'package.json'), allowOutsideInvalid())] : []
  // Outside any project, each folder the command works on is a root its documents write under, as a project's
  // root is (run-document.ts): a folder of notes may keep its documents in docs/ and their code in src/.
  const looseRoots = project ? [] : inputs.map(folderOf)
  const session = new ProjectSession({
    project,
    stateFolder: folder,
    allowOutside: [...new Set([...allowed.folders, ...looseRoots])].sort(),
    cache: flags.cache,
    warmOnly: options.warmOnly,
  })
  problems.push(...session.settingsProblems)
  return {
    session,
    files,
    folders: inputs.filter((root) => fs.statSync(root, {throwIfNoEntry: false})?.isDirectory()),
    problems,
  }
}

/** The folder ROOT names: itself, or the folder of a file. */
function folderOf(root: string): string {
  return fs.existsSync(root) && !fs.statSync(root).isDirectory() ? path.dirname(root) : root
}

/** The files and folders ARGS name, as absolute paths; no argument names the default folder (`defaultFolder`). */
export function inputRoots(args: string[], cwd: string): string[] {
  return args.length > 0 ? args.map((arg) => path.resolve(cwd, arg)) : [defaultFolder(cwd)]
}

/** FILE arguments as given, DIR arguments expanded into their Org files. */
function resolveInputs(roots: string[], cwd: string): string[] {
  const files: string[] = []
  for (const full of roots) {
    const arg = path.relative(cwd, full) || '.'
    let stat: fs.Stats
    try {
      stat = fs.statSync(full)
    } catch {
      throw new UsageError(noSuchPath(arg))
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
