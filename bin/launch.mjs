// Run a TypeScript entry point of this repository with plain Node: bundle it
// (bundle.mjs) when any of its inputs changed, then import it and run it.
//
//   node bin/launch.mjs ENTRY.ts [ARGS...]      runs ENTRY's default export or main(args)
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {ensureBundle, root} from './bundle.mjs'

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

export async function launch(entry, args) {
  if (!fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) {
    process.stderr.write(`passepartout: dependencies are not installed; run \`make setup\` (npm ci) in ${root}\n`)
    return 2
  }
  process.setSourceMapsEnabled(true)
  // Bundled code cannot find the repository from its own location: tell it.
  process.env.PASSEPARTOUT_HOME = root
  const {build, main} = await ensureBundle(path.resolve(root, entry))
  // Caches of results are valid for one build of the tools only.
  process.env.PASSEPARTOUT_BUILD = build
  const module = await import(pathToFileURL(main).href)
  return (await module.main(args)) ?? 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [entry, ...args] = process.argv.slice(2)
  process.exitCode = await launch(entry, args)
}
