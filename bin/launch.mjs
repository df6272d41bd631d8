// Run a TypeScript entry point of this repository with plain Node: bundle it
// (bundle.mjs) when any of its inputs changed, then import it and run it.
//
//   node bin/launch.mjs ENTRY.ts [ARGS...]      runs ENTRY's default export or main(args)
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {ensureBundle, root, stopEsbuild} from './bundle.mjs'

/**
 * A stop asked before a service's code has taken the signals: nothing was started, nothing needs saving. Once
 * its code listens too, the stop is that code's to carry out (whichever copy of this module it released).
 */
const stopBeforeStart = (signal) => {
  if (process.listenerCount(signal) === 1) process.exit(0)
}

/**
 * `passepartout run` is a service: SIGINT or SIGTERM stop it with exit status 0 from its first moment, also
 * before its code is loaded (a service manager may stop it at once). Held from here until the code takes
 * them over with `releaseEarlyStops`.
 */
export function holdEarlyStops() {
  process.on('SIGINT', stopBeforeStart)
  process.on('SIGTERM', stopBeforeStart)
}

export function releaseEarlyStops() {
  process.off('SIGINT', stopBeforeStart)
  process.off('SIGTERM', stopBeforeStart)
}

/**
 * Run ENTRY's main(ARGS); its exit status. Dependencies that are not there, or that Node cannot find, are one
 * line saying what to run, never a stack trace: a package missing from node_modules is said before anything
 * loads, and a module Node cannot find while the command loads or runs is said as it is found missing.
 */
export async function launch(entry, args) {
  const missing = missingDependency()
  if (missing) return cannotLoad(`the dependencies are not installed (there is no node_modules/${missing})`)
  process.setSourceMapsEnabled(true)
  // Bundled code cannot find the repository from its own location: tell it.
  process.env.PASSEPARTOUT_HOME = root
  try {
    const {build, main} = await ensureBundle(path.resolve(root, entry))
    // Nothing else builds yet: a build's esbuild service would stay as long as this process (stopEsbuild says why).
    await stopEsbuild()
    // Caches of results are valid for one build of the tools only.
    process.env.PASSEPARTOUT_BUILD = build
    const module = await import(pathToFileURL(main).href)
    return (await module.main(args)) ?? 0
  } catch (error) {
    if (!['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes(error?.code)) throw error
    return cannotLoad(`a dependency cannot be found: ${String(error.message).split('\n')[0]}`)
  }
}

/** The first package of package.json's dependencies that node_modules does not hold, if any. */
function missingDependency() {
  const {dependencies = {}} = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  return Object.keys(dependencies).find((name) => !fs.existsSync(path.join(root, 'node_modules', name, 'package.json')))
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
    : `run \`make setup\` (npm ci) in ${root}`
  process.stderr.write(`passepartout: ${why}; ${remedy}\n`)
  return 2
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [entry, ...args] = process.argv.slice(2)
  process.exitCode = await launch(entry, args)
}
