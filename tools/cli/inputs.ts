/**
 * What a command works on, from its arguments: the Org files (a folder stands
 * for the Org files under it; none for the project's org/), the folders given,
 * and the project session that owns them: the project of the first file or
 * folder given (not of the working folder: `tangle proj/docs` from a parent
 * folder is proj's), or that folder itself outside any project.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {allowOutsideInvalid, noDocuments} from '../messages/io.ts'
import {allowedOutside, findProjectRoot, listOrgFiles} from '../project.ts'
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
  /** What the project's settings hold that is wrong (config/invalid), to report with the command's own. */
  problems: Diagnostic[]
}

/** The inputs of a command given ARGS in CONTEXT. */
export function commandInputs(
  args: string[],
  flags: SessionFlags,
  context: CommandContext,
  options: {warmOnly?: boolean} = {},
): CommandInputs {
  const roots = inputRoots(args, context.cwd)
  const files = resolveInputs(roots, context.cwd)
  const first = roots[0]!
  const folder = fs.existsSync(first) && !fs.statSync(first).isDirectory() ? path.dirname(first) : first
  const project = findProjectRoot(folder)
  const allowed = allowedOutside(project, flags.allowOutside, context.cwd)
  const problems = allowed.invalid ? [diagnostic(path.join(project!, 'package.json'), allowOutsideInvalid())] : []
  const session = new ProjectSession({
    project,
    stateFolder: folder,
    allowOutside: allowed.folders,
    cache: flags.cache,
    warmOnly: options.warmOnly,
  })
  return {
    session,
    files,
    folders: roots.filter((root) => fs.statSync(root, {throwIfNoEntry: false})?.isDirectory()),
    problems,
  }
}

/** The files and folders ARGS name, as absolute paths; no argument means the project's org/ folder. */
export function inputRoots(args: string[], cwd: string): string[] {
  if (args.length > 0) return args.map((arg) => path.resolve(cwd, arg))
  const root = findProjectRoot(cwd)
  if (!root || !fs.existsSync(path.join(root, 'org')))
    throw new UsageError('no org/ folder in this project: name the Org files or folders to tangle')
  return [path.join(root, 'org')]
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
