/**
 * `passepartout weave [FILE|DIR ...] [-o OUT] [--serve [--port N]]`: a static site of the documents (tools/weave/),
 * by default the project's org/ into the project's generated/site/: generated/ is what the toolchain derives from
 * the documents and nobody edits, and every project init writes ignores it already. With --serve, the site is then
 * served on 127.0.0.1 and woven again on each save (only what the save changed: weave-record.ts), and the pages
 * open in a browser reload themselves, until Ctrl-C.
 */
import fs from 'node:fs'
import path from 'node:path'
import {displayPath, isError} from '../diagnostics.ts'
import {outputHoldsDocument, outputInsideWoven, outputIsFile, outputIsProject} from '../messages/usage.ts'
import {isInside} from '../project.ts'
import {readToolchainSettings} from '../settings.ts'
import type {WeaveReport} from '../weave/weave.ts'
import {WEAVE_PORT} from './command-table.ts'
import {commandInputs, type SessionFlags} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import {type CommandContext, UsageError} from './usage.ts'

export interface WeaveFlags extends SessionFlags {
  /** The site's folder, as given. */
  out: string | undefined
  serve?: boolean
  /** The port of --serve, when given. */
  port?: number
}

/** Where the site goes when -o does not say, under the project (or the folder woven). */
const DEFAULT_SITE = path.join('generated', 'site')

export async function runWeave(args: string[], flags: WeaveFlags, context: CommandContext): Promise<number> {
  const started = performance.now()
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  const base = session.project ?? folders[0] ?? path.dirname(files[0] ?? context.cwd)
  const out = flags.out === undefined ? path.join(base, DEFAULT_SITE) : path.resolve(context.cwd, flags.out)
  refuseOutput(flags.out ?? displayPath(out, context.cwd), out, {
    base,
    project: session.project,
    files,
    folders,
    cwd: context.cwd,
  })
  const {weave} = await import('../weave/weave.ts')
  const build = readToolchainSettings().build
  const weaveFiles = (files: string[]) => weave({files, base, out, allowOutside: session.allowOutside, build})
  const report = await weaveFiles(files)
  report.diagnostics.unshift(...problems)
  const failed = say(report, out, started, context)
  if (!flags.serve) return failed ? 1 : 0
  // The files listed again at each weave: a document added to a folder woven, or removed, is seen.
  const weaveNow = () => weaveFiles(commandInputs(args, flags, context).files)
  return serve(weaveNow, out, flags.port ?? WEAVE_PORT, args, context)
}

/** What the site's folder must stay out of: the documents woven, the folders they were found in, the project. */
interface Woven {
  base: string
  project: string | undefined
  files: readonly string[]
  folders: readonly string[]
  /** Where paths are shown from. */
  cwd: string
}

/**
 * Throws a UsageError (exit 2, before anything is written) when the site's folder OUT (GIVEN as typed) would put
 * the site over what is not the site's: a file (one io/write error per page), the project's root (its index.html
 * and assets over the project's files), a folder holding a document woven or inside a folder woven (pages among
 * the documents). Links are resolved first: a link to the project is the project.
 */
function refuseOutput(given: string, out: string, woven: Woven): void {
  const real = realPath(out)
  if (fs.statSync(real, {throwIfNoEntry: false})?.isDirectory() === false) throw new UsageError(outputIsFile(given))
  const root = woven.project && realPath(woven.project)
  if (real === root) throw new UsageError(outputIsProject(given))
  const held = woven.files.find((file) => isInside(realPath(file), real))
  if (held) throw new UsageError(outputHoldsDocument(given, displayPath(held, woven.cwd)))
  // The project's root and the folder the site mirrors hold the default site (generated/site) themselves.
  const mirrored = new Set([root, realPath(woven.base)])
  const around = woven.folders.find((folder) => !mirrored.has(realPath(folder)) && !isOutside(real, realPath(folder)))
  if (around) throw new UsageError(outputInsideWoven(given, displayPath(around, woven.cwd)))
}

/** Whether FILE is neither FOLDER nor inside it. */
function isOutside(file: string, folder: string): boolean {
  return file !== folder && !isInside(file, folder)
}

/** FILE with every link resolved: its deepest part that exists made real, the rest (to be made) after it. */
function realPath(file: string): string {
  try {
    return fs.realpathSync(file)
  } catch {
    const parent = path.dirname(file)
    return parent === file ? file : path.join(realPath(parent), path.basename(file))
  }
}

/** Print REPORT's diagnostics and what it wrote; whether it has an error. */
function say(report: WeaveReport, out: string, started: number, context: CommandContext): boolean {
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const failed = report.documents.length - report.woven.length
  process.stdout.write(
    `wove ${plural(report.woven.length, 'document')} into ${displayPath(out, context.cwd)}/ ` +
      `(${plural(report.written.length, 'file')} written, ${report.unchanged.length} unchanged` +
      `${failed ? `, ${failed} not woven` : ''}) in ${Math.round(performance.now() - started)} ms\n`,
  )
  return report.diagnostics.some(isError)
}

/**
 * Serve OUT on PORT, weave again (WEAVE_NOW) after each settled batch of saves under the folders woven (ARGS, or
 * the project's org/), one weave at a time (saves during one make one more after it), and tell the open pages what
 * each wrote; until SIGINT, then exit 0 with the port closed and the watcher stopped.
 */
async function serve(
  weaveNow: () => Promise<WeaveReport>,
  out: string,
  port: number,
  args: string[],
  context: CommandContext,
): Promise<number> {
  const [{serveSite}, {watchOrgFiles}, {inputRoots}] = await Promise.all([
    import('../weave/serve.ts'),
    import('../watch/org-watcher.ts'),
    import('./inputs.ts'),
  ])
  const server = await serveSite(out, port)
  let running: Promise<void> | undefined
  let again = false
  const reweave = async (): Promise<void> => {
    const started = performance.now()
    try {
      const report = await weaveNow()
      say(report, out, started, context)
      server.written(report.written)
    } catch (error) {
      // A weave that throws (a bug) is said, and the site stays served as it was: the next save weaves again.
      process.stderr.write(`passepartout weave: ${(error as Error).message}\n`)
    }
  }
  const onSave = () => {
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await reweave()
      } while (again)
      running = undefined
    })()
  }
  const watcher = watchOrgFiles(inputRoots(args, context.cwd), onSave)
  await watcher.ready
  process.stdout.write(`serving ${displayPath(out, context.cwd)}/ at ${server.url} (Ctrl-C stops)\n`)
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()))
  await Promise.all([watcher.close(), server.close(), running])
  return 0
}
