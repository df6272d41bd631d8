/**
 * The commands the core answers (`skills`, `ask`, `approve`, `deny`,
 * `doctor`): tangle the core (org/core/ of this installation), then run its
 * commands module (generated/core/commands.ts). The core is TypeScript
 * tangled from Org, so it is bundled on first use, like the CLI.
 */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {findProjectRoot, listOrgFiles} from '../project.ts'
import {TangleCache} from '../tangle/cache.ts'
import {hasErrors, tangle} from '../tangle/tangle.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

type Launch = (entry: string, args: string[]) => Promise<number>

export type CoreCommand = 'skills' | 'ask' | 'approve' | 'deny' | 'doctor'

export async function runCore(command: CoreCommand, args: string[], flags: {json: boolean}, context: CommandContext): Promise<number> {
  const home = process.env.PASSEPARTOUT_HOME ?? findProjectRoot(import.meta.dirname)!
  const report = await tangle({files: listOrgFiles(path.join(home, 'org', 'core')), cache: TangleCache.open(home, {tool: process.env.PASSEPARTOUT_BUILD ?? '', allowOutside: []})})
  if (hasErrors(report)) {
    printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
    process.stderr.write('passepartout: the core does not tangle; fix the errors above\n')
    return 1
  }
  const {launch} = (await import(pathToFileURL(path.join(home, 'bin', 'launch.mjs')).href)) as {launch: Launch}
  // The arguments travel after `--`: a text to ask may itself start with dashes.
  return launch('generated/core/commands.ts', [command, ...(flags.json ? ['--json'] : []), ...(context.frames ? ['--frames'] : []), '--', ...args])
}
