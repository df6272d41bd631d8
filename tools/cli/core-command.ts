/**
 * The commands a core runs (the command table's rows that the toolchain does not run: `skills`, `ask`,
 * `doctor`, the clients of the running core, and `run`): tangle the core (org/core/ of this installation, when it
 * has the core's documents), then run its commands module (generated/core/commands.ts), handing it the command as
 * the table writes it (`commandLine`); the core parses it with the same table. The core is TypeScript tangled
 * from Org, so it is bundled on first use, like the CLI; the package npm installs holds it bundled already.
 *
 * The server (`run`) keeps the core in a process of its own, watched by a supervisor that holds nothing else
 * (bin/supervisor.sh, a POSIX shell): when the core exits asking to be started again (RESTART_EXIT_CODE: one of its own documents
 * changed and checks), the core is tangled and started again, on the new code, while the supervisor, the process a
 * terminal or a service manager knows, stays. This module prepares each start, in a process that then exits.
 */
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {RESTART_EXIT_CODE} from '../core-process.ts'
import {hasSources, installationRoot, isInstallation} from '../installation.ts'
import {findProjectRoot, listOrgFiles} from '../project.ts'
import {readToolchainSettings} from '../settings.ts'
import {TangleCache} from '../tangle/cache.ts'
import {hasErrors, tangle} from '../tangle/tangle.ts'
import {paletteFor} from '../terminal.ts'
import {COMMANDS} from './command-table.ts'
import {type CommandInvocation, commandLine} from './command-line.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

type Launch = (entry: string, args: string[]) => Promise<number>

export async function runCore(invocation: CommandInvocation, context: CommandContext): Promise<number> {
  const home = readToolchainSettings().home ?? findProjectRoot(import.meta.dirname)!
  // Whether to show frames is settled here, once: the core is told, rather than asked to judge its stderr again.
  const frames = {frames: context.frames, 'no-frames': !context.frames}
  const handed = {...invocation, values: {...invocation.values, ...frames}}
  if (COMMANDS[invocation.command].runs !== 'server') {
    if (!(await tangleCore(home, context))) return 1
    const {launchEntry} = (await import(pathToFileURL(path.join(home, 'bin', 'launch.mjs')).href)) as {
      launchEntry: Launch
    }
    return launchEntry(CORE_ENTRY, commandLine(handed))
  }
  return prepareServer(home, handed, context)
}

/**
 * The server's start, prepared in this process for the supervisor (bin/supervisor.sh), which runs nothing of the
 * toolchain: the core tangled and its bundle built here, in a process that exits, so that neither the supervisor nor
 * the core holds the tangle's modules or esbuild's; then the core's command written for the supervisor into its folder
 * (PREPARING), given the TCP port a first start took. Reached without the supervisor (`passepartout --no-frames run`:
 * bin/passepartout's shell line knows a `run` by its first word only), this process hands the command over to it,
 * and waits: a Node that waits beside it, which the ordinary `passepartout run` does without.
 */
async function prepareServer(home: string, invocation: CommandInvocation, context: CommandContext): Promise<number> {
  const folder = process.env[PREPARING]
  if (folder === undefined) {
    const {handOver} = (await import(pathToFileURL(path.join(home, 'bin', 'launch.mjs')).href)) as {
      handOver: (program: string, args: string[]) => Promise<number>
    }
    const supervisor = path.join(home, 'bin', 'supervisor.sh')
    return handOver('/bin/sh', [supervisor, path.join(home, 'bin', 'passepartout'), ...commandLine(invocation)])
  }
  if (!(await tangleCore(home, context))) return 1
  const {ensureBundle, stopEsbuild} = (await import(pathToFileURL(path.join(home, 'bin', 'bundle.mjs')).href)) as {
    ensureBundle: (entry: string) => Promise<unknown>
    stopEsbuild: () => Promise<void>
  }
  await ensureBundle(path.join(home, CORE_ENTRY))
  await stopEsbuild()
  const port = portTaken(folder)
  const handed = port ? {...invocation, values: {...invocation.values, tcp: port}} : invocation
  const flags = [...LINKS, ...YOUNG_GENERATION, ...COLLECTOR]
  const argv = [...flags, path.join(home, 'bin', 'launch.mjs'), CORE_ENTRY, ...commandLine(handed)]
  // The caller's own malloc settings are kept.
  const env = {...MALLOC, ...pick(process.env, Object.keys(MALLOC)), [SUPERVISOR]: folder}
  const [open = '', close = ''] = paletteFor(process.stderr).error('\0').split('\0')
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellWord(value)}`)
  const command = [...assignments, ...[process.execPath, ...argv].map(shellWord)]
  const start = {restart: String(RESTART_EXIT_CODE), ended_open: open, ended_close: close, command: command.join(' ')}
  const lines = Object.entries(start).map(([name, value]) => `${name}=${shellWord(value)}\n`)
  fs.writeFileSync(path.join(folder, 'start'), lines.join(''))
  return 0
}

/**
 * The variable that makes `passepartout run` prepare a start instead of being supervised: its value the supervisor's
 * folder (bin/supervisor.sh says what it holds).
 */
const PREPARING = 'PASSEPARTOUT_PREPARE_CORE'

/** The variable that tells the core the supervisor's folder: where it says its TCP port, and how it knows it is there. */
const SUPERVISOR = 'PASSEPARTOUT_SUPERVISOR'

/** The TCP port the core that ran before took, which it wrote into the supervisor's FOLDER; empty at the first start. */
function portTaken(folder: string): string {
  try {
    return fs.readFileSync(path.join(folder, 'port'), 'utf8').trim()
  } catch {
    return ''
  }
}

/** VALUE as one word of a POSIX shell's command line: single-quoted, each quote of its own closed and escaped. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`
}

/** The variables NAMES of ENV that are set. */
function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])))
}

/** The core's commands module, which the core's process runs. */
const CORE_ENTRY = 'generated/core/commands.ts'

/** The core finds its packages as this process does: from node_modules as written, when bin/passepartout says so. */
const LINKS = process.execArgv.includes('--preserve-symlinks') ? ['--preserve-symlinks'] : []

/**
 * V8 grows a process's young generation up to 16 MB a half as it allocates, and keeps it: the type checker's warm-up
 * (warm-checker.ts, since moved to a thread of its own, whose heap the flag bounds as well) grew the core's to its
 * full 32 MB, which then stood empty while the core ran. Capped at 4 MB a
 * half, a watching core on the shipped skills was 22-25 MB smaller (287-288 MB resident against 310-312). A save
 * was applied as fast (16 runs of 40 saves of a skill among 10, interleaved on a loaded machine: p50 52 ms and p95
 * 93-94 ms on average, either way) and the warm-up of this repository's program took 12% more CPU. At 2 MB the
 * warm-up took 20% more; at 1 MB the re-checks did.
 */
const YOUNG_GENERATION = ['--max-semi-space-size=4']

/**
 * The core collects its boot's garbage once, at rest (server.org, /Collect the boot's garbage/): 6 MB of its resident
 * memory at rest, on average. V8 gives a program its collector only with this flag.
 */
const COLLECTOR = ['--expose-gc']

/**
 * glibc's malloc, for the core and what it starts (the skill host, the type checker), which inherit it:
 *
 * - its arenas: glibc gives each thread that allocates at once an arena of its own (up to eight a CPU) and keeps what
 *   is freed in it: the core's threads (the daemon's, libuv's, V8's) held 90 MB of memory outside V8's heaps at rest.
 *   Two: with --no-watch on the shipped skills, against glibc's own bound here (16: eight a CPU), a core at rest
 *   182-185 MB resident instead of 215, after 100 clients of 5 tool turns each 258-259 instead of 281-288, for the
 *   same CPU (2.20-2.24 s against 2.20-2.28; two runs each, interleaved);
 * - what it gives back: glibc raises its bounds as the program frees large blocks (up to 32 MB), after which a block
 *   of that size comes from an arena and stays in it once freed, and only the top of an arena above the bound goes
 *   back to the system. Held at 128 KiB (glibc's first bound), a block that large is mapped and unmapped on its own
 *   and an arena's freed top goes back: V8 allocated 36 MB outside its heap as the core booted (its compilers'
 *   zones), and the core at rest kept 13-16 MB in its two arenas, 8-10 so bounded.
 */
const MALLOC = {MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072'}

/**
 * Tangle the installation's core before the check or the tests of PROJECT, as before a core runs: the project's
 * code imports the core's API, which a checkout declares in its tangled sources (a fresh clone has none yet). Nothing
 * to do for the installation itself, which tangles its core as a part of its own check, nor outside any project.
 */
export async function tangleCoreFor(project: string | undefined, context: CommandContext): Promise<boolean> {
  const home = installationRoot()
  return project === undefined || isInstallation(project, home) || tangleCore(home, context)
}

/**
 * Tangle the core's documents; false, with the errors printed, when they do not tangle. Only an installation
 * that has them (this repository) does: the package holds the core built (dist/), and nothing is written into it.
 */
async function tangleCore(home: string, context: CommandContext): Promise<boolean> {
  if (!hasSources(home)) return true
  const documents = path.join(home, 'org', 'core')
  const report = await tangle({
    files: listOrgFiles(documents),
    cache: TangleCache.open(home, {tool: readToolchainSettings().build ?? '', allowOutside: []}),
  })
  if (!hasErrors(report)) return true
  printDiagnostics(report.diagnostics, {cwd: context.cwd, frames: context.frames})
  process.stderr.write('passepartout: the core does not tangle; fix the errors above\n')
  return false
}
