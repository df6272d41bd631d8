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
import {type Diagnostic, diagnostic, type Message} from '../diagnostics.ts'
import {allowOutsideInvalid, noDocuments, readFailed} from '../messages/io.ts'
import {noSuchPath} from '../messages/usage.ts'
import {defaultFolder, findProjectRoot, listOrgFiles} from '../project.ts'
import {readProjectText, SETTINGS_FILE_MAX_BYTES} from '../project-file.ts'
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
  const problems = allowed.problem ? [diagnostic(path.join(project!, 'package.json'), allowed.problem)] : []
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

/**
 * The folders outside the project where targets may go: those named on the command line (GIVEN, relative to
 * CWD) and in the project's package.json (`"passepartout": {"allowOutside": ["~/.config"]}`, relative to the
 * project), absolute, `~` expanded with HOME. `/` allows everywhere. A setting that is not a list of strings is
 * the `problem`, said, not guessed at, as is a package.json that cannot be read (project-file.ts): either allows
 * nothing beyond GIVEN.
 */
export function allowedOutside(
  project: string | undefined,
  given: readonly string[],
  cwd: string,
): {folders: string[]; problem?: Message} {
  const folders = given.map((folder) => absoluteFolder(folder, cwd))
  const setting = project === undefined ? {} : allowOutsideSetting(project)
  if ('problem' in setting) return {folders: [...new Set(folders)].sort(), problem: setting.problem}
  const {allowOutside} = setting
  if (Array.isArray(allowOutside) && allowOutside.every((folder) => typeof folder === 'string' && folder !== ''))
    folders.push(...allowOutside.map((folder: string) => absoluteFolder(folder, project!)))
  else if (allowOutside !== undefined) return {folders: [...new Set(folders)].sort(), problem: allowOutsideInvalid()}
  return {folders: [...new Set(folders)].sort()}
}

/** PROJECT's package.json's `"passepartout": {"allowOutside": …}` as written (none in a file that is not JSON); the problem when it cannot be read. */
function allowOutsideSetting(project: string): {allowOutside?: unknown} | {problem: Message} {
  const file = path.join(project, 'package.json')
  const read = readProjectText(file, SETTINGS_FILE_MAX_BYTES)
  if (!read.ok) return read.missing ? {} : {problem: readFailed(file, read.why)}
  try {
    return {
      allowOutside: (JSON.parse(read.text) as {passepartout?: {allowOutside?: unknown}})?.passepartout?.allowOutside,
    }
  } catch {
    return {}
  }
}

function absoluteFolder(folder: string, base: string): string {
  const home = process.env.HOME
  const expanded = home && (folder === '~' || folder.startsWith('~/')) ? path.join(home, folder.slice(1)) : folder
  return path.resolve(base, expanded)
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
