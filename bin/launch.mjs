// Run a TypeScript entry point of this repository with plain Node: bundle it
// with esbuild into node_modules/.cache/passepartout/ when any of its inputs
// changed (a stat per input otherwise), then import it.
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
  const bundle = await ensureBundle(path.resolve(root, entry))
  // Caches of results are valid for one build of the tools only.
  process.env.PASSEPARTOUT_BUILD = `${fs.statSync(bundle).mtimeMs}`
  const module = await import(pathToFileURL(bundle).href)
  return (await module.main(args)) ?? 0
}

async function ensureBundle(entry) {
  const cache = path.join(root, 'node_modules', '.cache', 'passepartout')
  const name = path.relative(root, entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '')
  const output = path.join(cache, `${name}.mjs`)
  const manifestPath = path.join(cache, `${name}.inputs.json`)
  if (isFresh(manifestPath)) return output
  const esbuild = await import('esbuild')
  fs.mkdirSync(cache, {recursive: true})
  const temporary = `${output}.${process.pid}.tmp`
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
  })
  fs.renameSync(temporary, output)
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, fs.statSync(path.join(root, input)).mtimeMs]))
  fs.writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify({esbuild: esbuild.version, inputs}))
  fs.renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath)
  return output
}

function isFresh(manifestPath) {
  let manifest
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))
  } catch {
    return false
  }
  for (const [input, mtime] of Object.entries(manifest.inputs)) {
    try {
      if (fs.statSync(path.join(root, input)).mtimeMs !== mtime) return false
    } catch {
      return false
    }
  }
  return true
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [entry, ...args] = process.argv.slice(2)
  process.exitCode = await launch(entry, args)
}
