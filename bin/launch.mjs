// Run a TypeScript entry point of this repository with plain Node: bundle it
// (bundle.mjs) when any of its inputs changed, then import it and run it.
//
//   node bin/launch.mjs ENTRY.ts [ARGS...]      runs ENTRY's default export or main(args)
import {spawn} from 'node:child_process'
import {once} from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {ensureBundle, hasSources, root, stopEsbuild} from './bundle.mjs'

/** The clients' entry (org/core/commands.org): what a command a client of the running core runs loads, alone. */
const CLIENTS = 'generated/core/clients.ts'
/** What the clients' entry returns for a command that needs the whole core (its OWN_CORE). */
const OWN_CORE = 'own-core'

/**
 * Run the command line ARGS (bin/passepartout); its exit status. Which entry runs it is decided first, by the
 * command table (command-line.ts, `entryOf`), before anything is read or written: a command a client of the running
 * core runs loads the clients' entry alone (its bundle holds the client, its protocol and its printing, none of
 * the core: a client costs little more than Node's own start), any other the command line's (tools/cli/main.ts),
 * which tangles the core before it runs a core of its own. A client that does its work without a core when none
 * runs (`ask` with no core) is told so by the clients' entry before it did anything, and then runs from the
 * command line's. A checkout that has not tangled the core yet has no clients' entry: the command line's tangles it.
 */
export async function launchCommandLine(args) {
  return launch(async () => {
    const {entryOf} = await import(pathToFileURL((await ensureBundle(COMMAND_LINE, {lean: true})).main).href)
    if (entryOf(args) === 'clients' && (!hasSources || fs.existsSync(path.join(root, CLIENTS)))) {
      const status = await runBundle(CLIENTS, args, {lean: true})
      if (status !== OWN_CORE) return status
    }
    return runBundle('tools/cli/main.ts', args)
  })
}

/** The module that reads a command line by the table. */
const COMMAND_LINE = path.join(root, 'tools', 'cli', 'command-line.ts')

/** Run ENTRY's main(ARGS); its exit status (`launch` says what it says when that cannot load). */
export async function launchEntry(entry, args) {
  return launch(() => runBundle(entry, args))
}

/**
 * RUN's exit status. Dependencies that are not there, or that Node cannot find, are one line saying what to run,
 * never a stack trace: a package missing from node_modules is said before anything loads, and a module Node
 * cannot find while the command loads or runs is said as it is found missing.
 */
async function launch(run) {
  const missing = missingDependency()
  if (missing) return cannotLoad(`the dependencies are not installed (there is no node_modules/${missing})`)
  // Bundled code cannot find the repository from its own location: tell it.
  process.env.PASSEPARTOUT_HOME = root
  try {
    return await run()
  } catch (error) {
    if (error?.code === 'PASSEPARTOUT_NOT_BUILT') return cannotLoad(error.message)
    if (!['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes(error?.code)) throw error
    return cannotLoad(`a dependency cannot be found: ${String(error.message).split('\n')[0]}`)
  }
}

/** main(ARGS) of ENTRY's bundle (built first when any of its inputs changed, `lean` as bundle.mjs says). */
async function runBundle(entry, args, {lean = false} = {}) {
  const {build, main} = await ensureBundle(path.resolve(root, entry), {lean})
  // Nothing else builds yet: a build's esbuild service would stay as long as this process (stopEsbuild says why).
  await stopEsbuild()
  // Caches of results are valid for one build of the tools only.
  process.env.PASSEPARTOUT_BUILD = build
  // Node reads a bundle's map as it loads it once maps are on: a lean bundle's command prints no stack (its failure
  // is one line), and its map stays beside it for a person to read one by.
  if (!lean) process.setSourceMapsEnabled(true)
  const module = await import(pathToFileURL(main).href)
  return (await module.main(args)) ?? 0
}

/**
 * The first package of package.json's dependencies that Node would not find from this installation, if any: in
 * its own node_modules (this repository, a global install) or in one above it (a project's node_modules, where npm
 * puts an installed package's dependencies beside it).
 */
function missingDependency() {
  const {dependencies = {}} = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  const folders = []
  for (let folder = root; folders.at(-1) !== folder; folder = path.dirname(folder)) folders.push(folder)
  const found = (name) =>
    folders.some((folder) => fs.existsSync(path.join(folder, 'node_modules', name, 'package.json')))
  return Object.keys(dependencies).find((name) => !found(name))
}

/** Say WHY the dependencies cannot be loaded, and what to run; exit status 2. */
function cannotLoad(why) {
  const modules = path.join(root, 'node_modules')
  const target = fs.existsSync(modules) ? fs.realpathSync(modules) : modules
  // Without --preserve-symlinks (node bin/launch.mjs), Node looks for a package's dependencies beside the link's
  // target, and finds them only in a folder named node_modules.
  const linked = path.basename(target) !== 'node_modules' && !process.execArgv.includes('--preserve-symlinks')
  const remedy = linked
    ? `node_modules is a link to ${target}: run bin/passepartout, or node --preserve-symlinks`
    : hasSources
      ? `run \`make setup\` (npm ci) in ${root}`
      : `install passepartout again (${root} is not whole)`
  process.stderr.write(`passepartout: ${why}; ${remedy}\n`)
  return 2
}

/**
 * The `passepartout` a project installed for itself, nearest CWD (`node_modules/.bin/passepartout` there or in a
 * folder above, as npm puts it on PATH for a project's scripts: a workspace's is at its root), when it is another
 * installation than this one: that one answers there, as a project's own version of an npm tool does. Undefined
 * when there is none, or it is this one (linked to it, `npm link passepartout`).
 */
export function projectInstallation(cwd) {
  const here = fs.realpathSync(root)
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    const program = path.join(folder, 'node_modules', '.bin', 'passepartout')
    const installation = installationOf(program)
    if (installation) return installation === here ? undefined : program
    if (path.dirname(folder) === folder) return undefined
  }
}

/** The installation whose bin/passepartout PROGRAM is (or links to), if it is one. */
function installationOf(program) {
  try {
    return path.dirname(path.dirname(fs.realpathSync(program)))
  } catch {
    return undefined
  }
}

/**
 * Run PROGRAM (another installation's passepartout) on ARGS in this terminal until it ends; its exit status, or
 * this process ends by the signal that ended it. A SIGTERM (a service manager's stop, sent to this process alone)
 * is passed on; a SIGINT or SIGHUP comes from the terminal, which sends it to both: this process lets the program
 * take it, and ends when the program does. A SIGKILL cannot be passed on: the program's fd 5
 * (PASSEPARTOUT_HANDED_OVER) is a socket whose other end this process holds, which ends when it does.
 */
export async function handOver(program, args) {
  // Its end of a socket, which the program is told of: a core started under it stops when this process is killed.
  const stdio = ['inherit', 'inherit', 'inherit', 'ignore', 'ignore', 'pipe']
  const child = spawn(program, args, {stdio, env: {...process.env, PASSEPARTOUT_HANDED_OVER: '5'}})
  const passOn = () => child.kill('SIGTERM')
  const leaveIt = () => {}
  process.on('SIGTERM', passOn)
  process.on('SIGINT', leaveIt)
  process.on('SIGHUP', leaveIt)
  const [code, signal] = await once(child, 'exit')
  child.stdio[5].destroy()
  process.off('SIGTERM', passOn)
  process.off('SIGINT', leaveIt)
  process.off('SIGHUP', leaveIt)
  if (signal) process.kill(process.pid, signal)
  return code ?? 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [entry, ...args] = process.argv.slice(2)
  process.exitCode = await launchEntry(entry, args)
}
