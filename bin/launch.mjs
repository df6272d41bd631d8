// Run a TypeScript entry point of this repository with plain Node: bundle it
// with esbuild into node_modules/.cache/passepartout/ when any of its inputs
// changed (a stat per input otherwise), then import it. Dynamic imports become
// chunks of their own, so a command loads only what it uses.
//
//   node bin/launch.mjs ENTRY.ts [ARGS...]      runs ENTRY's default export or main(args)
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

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

/**
 * The bundle of ENTRY: a folder per build (named by the time it was built), so
 * that a process still loading chunks of an older build keeps finding them;
 * the manifest names the current one. Builds older than a day are removed.
 */
async function ensureBundle(entry) {
  const cache = path.join(root, 'node_modules', '.cache', 'passepartout')
  const name = path.relative(root, entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '')
  const manifestPath = path.join(cache, `${name}.inputs.json`)
  const fresh = readFreshManifest(manifestPath)
  if (fresh) return {build: fresh.build, main: path.join(cache, name, fresh.build, 'main.mjs')}
  const esbuild = await import('esbuild')
  const build = `${Date.now()}-${process.pid}`
  const outdir = path.join(cache, name, build)
  const result = await esbuild.build({
    entryPoints: {main: entry},
    outdir,
    outExtension: {'.js': '.mjs'},
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
  })
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, fs.statSync(path.join(root, input)).mtimeMs]))
  fs.writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify({esbuild: esbuild.version, build, inputs}))
  fs.renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath)
  removeOldBuilds(path.join(cache, name), build)
  return {build, main: path.join(outdir, 'main.mjs')}
}

function removeOldBuilds(folder, current) {
  const dayAgo = Date.now() - 24 * 3600 * 1000
  for (const entry of fs.readdirSync(folder)) {
    if (entry !== current && Number.parseInt(entry, 10) < dayAgo) fs.rmSync(path.join(folder, entry), {recursive: true, force: true})
  }
}

/** The manifest at MANIFEST_PATH when none of its inputs changed since, else undefined. */
function readFreshManifest(manifestPath) {
  let manifest
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))
  } catch {
    return undefined
  }
  if (typeof manifest.build !== 'string') return undefined
  for (const [input, mtime] of Object.entries(manifest.inputs)) {
    try {
      if (fs.statSync(path.join(root, input)).mtimeMs !== mtime) return undefined
    } catch {
      return undefined
    }
  }
  return manifest
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [entry, ...args] = process.argv.slice(2)
  process.exitCode = await launch(entry, args)
}
