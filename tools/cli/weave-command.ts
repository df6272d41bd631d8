/**
 * `passepartout weave [FILE|DIR ...] [-o OUT]`: a static site of the documents (tools/weave/), by default the
 * project's org/ into the project's generated/site/: generated/ is what the toolchain derives from the documents
 * and nobody edits, and every project init writes ignores it already.
 */
import path from 'node:path'
import {displayPath, isError} from '../diagnostics.ts'
import {readToolchainSettings} from '../settings.ts'
import {commandInputs, type SessionFlags} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

export interface WeaveFlags extends SessionFlags {
  /** The site's folder, as given. */
  out: string | undefined
}

/** Where the site goes when -o does not say, under the project (or the folder woven). */
const DEFAULT_SITE = path.join('generated', 'site')

export async function runWeave(args: string[], flags: WeaveFlags, context: CommandContext): Promise<number> {
  const started = performance.now()
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  const base = session.project ?? folders[0] ?? path.dirname(files[0] ?? context.cwd)
  const out = flags.out === undefined ? path.join(base, DEFAULT_SITE) : path.resolve(context.cwd, flags.out)
  const {weave} = await import('../weave/weave.ts')
  const build = readToolchainSettings().build
  const report = await weave({files, base, out, allowOutside: session.allowOutside, build})
  report.diagnostics.unshift(...problems)
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const failed = report.documents.length - report.woven.length
  process.stdout.write(
    `wove ${plural(report.woven.length, 'document')} into ${displayPath(out, context.cwd)}/ ` +
      `(${plural(report.written.length, 'file')} written, ${report.unchanged.length} unchanged` +
      `${failed ? `, ${failed} not woven` : ''}) in ${Math.round(performance.now() - started)} ms\n`,
  )
  return report.diagnostics.some(isError) ? 1 : 0
}
