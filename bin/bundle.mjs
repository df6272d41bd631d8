// Bundles of this repository's TypeScript entry points, built with esbuild into
// node_modules/.cache/passepartout/ when any of their inputs changed (a stat per
// input otherwise). Dynamic imports become chunks of their own, so a command
// loads only what it uses. An installation without sources (the package npm
// installs) runs the bundles built when it was packed, from dist/, and builds
// nothing. No work at import time: a launched program imports this module for
// the bundles it runs itself (launch.mjs, its entry, is still running then and
// cannot be imported).
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

/** This file, relative to ROOT: an input of every bundle. */
const BUNDLER = path.relative(root, fileURLToPath(import.meta.url))

/** The file to run for ENTRY, built when any of its inputs changed (the skill host's, which the core forks). */
export async function bundled(entry, options = {}) {
  return (await ensureBundle(path.resolve(root, entry), options)).main
}

/**
 * The installation has the sources of its entry points: this repository, where tools/ holds the toolchain's
 * TypeScript. The package has none: its bundles were built when it was packed (dist/, by tools/pack/). The
 * toolchain's TypeScript asks tools/installation.ts (`hasSources`), which looks for the same folder. This one cannot
 * ask that one: it answers before any TypeScript is built or loaded (the answer decides whether to build), and in
 * the package the TypeScript is not there at all.
 */
export const hasSources = fs.existsSync(path.join(root, 'tools'))

/** The folder ENTRY's bundle goes in, named by ENTRY's path from ROOT and how it is built: `tools__cli__main`. */
export function bundleName(entry, {selfContained = false, lean = false} = {}) {
  const kind = selfContained ? '.self-contained' : lean ? '.lean' : ''
  return path.relative(root, entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '') + kind
}

/**
 * The bundle of ENTRY: in an installation without sources, the one in dist/ (its build named in dist/build.json);
 * in this repository a folder per build (named by the time it was built), so that a process still loading chunks
 * of an older build keeps finding them; the manifest names the current one. Builds older than a day are removed.
 * With `selfContained`, the packages it imports are bundled in as well; `lean` is said at `buildBundle`.
 */
export async function ensureBundle(entry, {selfContained = false, lean = false} = {}) {
  const name = bundleName(entry, {selfContained, lean})
  if (!hasSources) return prebuiltBundle(name)
  const cache = path.join(root, 'node_modules', '.cache', 'passepartout')
  const manifestPath = path.join(cache, `${name}.inputs.json`)
  const fresh = readFreshManifest(manifestPath)
  if (fresh) return {build: fresh.build, main: path.join(cache, name, fresh.build, 'main.mjs')}
  const build = `${Date.now()}-${process.pid}`
  const outdir = path.join(cache, name, build)
  const {esbuild, inputs: read} = await buildBundle(entry, outdir, {selfContained, lean})
  // A package's files count too when they are bundled: an upgrade rebuilds. So does this file: how it bundles.
  const files = [...read, BUNDLER]
  const inputs = Object.fromEntries(files.map((input) => [input, fs.statSync(path.join(root, input)).mtimeMs]))
  fs.writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify({esbuild, build, inputs}))
  fs.renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath)
  removeOldBuilds(path.join(cache, name), build)
  return {build, main: path.join(outdir, 'main.mjs')}
}

/**
 * Bundle ENTRY into OUTDIR (main.mjs and its chunks), as every bundle of this repository is made: for its cache,
 * and for dist/ when it is packed. Its esbuild's version, and the files it read (relative to ROOT; the required
 * packages, which are not files, left out).
 *
 * A `lean` bundle is what a short command loads of ENTRY (the clients' entry of the core's commands): main.mjs
 * alone, its packages in it, and of this repository's modules only what ENTRY uses: they are free of side effects
 * at import (nothing runs at import but the definitions), so esbuild leaves out a module of which nothing is used.
 * Chunks would not do: a module loads with every chunk its own imports reach, used or not. The metafile is returned
 * too: test/client-bundle.test.ts reads what the clients' bundle holds from it.
 */
export async function buildBundle(entry, outdir, {selfContained = false, lean = false} = {}) {
  const esbuild = await import('esbuild')
  const result = await esbuild.build({
    entryPoints: {main: entry},
    outdir,
    outExtension: {'.js': '.mjs'},
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: !lean,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A bundle of the core or the command line leaves the packages to Node but those it holds (BUNDLED_PACKAGES).
    packages: 'bundle',
    // Packages are found as Node finds them in this process (bin/passepartout): by the path of node_modules as
    // written when it links to a folder of another name, where a package's dependencies are found only so.
    preserveSymlinks: process.execArgv.includes('--preserve-symlinks'),
    // The toolchain's public module, as the core imports it, is this repository's TypeScript: bundled, not a package.
    alias: {'passepartout/toolchain': './tools/toolchain.ts'},
    ...(selfContained || lean ? {} : {...REQUIRED_PACKAGES, plugins: [...REQUIRED_PACKAGES.plugins, OUTSIDE]}),
    // Lean, its whitespace and syntax minified (not its names): less for Node to read and compile at each command.
    ...(lean ? {plugins: [LEAN], minifyWhitespace: true, minifySyntax: true} : {}),
    // Each file's map beside it: Node reads a map as it loads the file once maps are on (launch.mjs), and an inline one
    // is a data URL it parses as a URL and decodes at each start (the core's: 2.6 of its bundle's 3.4 MB, 50 ms of
    // its boot's CPU).
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
  })
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith(`${REQUIRED_NAMESPACE}:`))
  return {esbuild: esbuild.version, inputs, metafile: result.metafile}
}

/**
 * The bundle NAME as the package holds it. One it does not hold is an installation that lost a file or a package
 * built without it: said so, with the one remedy.
 */
function prebuiltBundle(name) {
  const main = path.join(root, 'dist', name, 'main.mjs')
  let build
  try {
    build = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'build.json'), 'utf8')).build
  } catch {
    build = undefined
  }
  if (typeof build === 'string' && fs.existsSync(main)) return {build, main}
  throw Object.assign(new Error(`this installation has no build of ${name} (no dist/${name}/main.mjs)`), {
    code: 'PASSEPARTOUT_NOT_BUILT',
  })
}

/**
 * The packages a bundle loads with `require`, though its code imports them: CommonJS packages so large that
 * Node's import, which first reads a CommonJS module through for the names it exports, costs more than the
 * module's own loading. ts-morph carries the TypeScript compiler (9 MB): imported, it cost each process that
 * loads it (a core that checks, the sandbox rules) 0.3 s of CPU more. Each is a module of the bundle that
 * requires it, with a `require` for the bundle's location in every chunk.
 */
const REQUIRED = ['ts-morph']
/** Where those modules are, for esbuild: they are not files (nor inputs). */
const REQUIRED_NAMESPACE = 'required'
const REQUIRED_PACKAGES = {
  banner: {
    js: "import {createRequire as createRequireOfBundle} from 'node:module'\nconst require = createRequireOfBundle(import.meta.url)",
  },
  plugins: [
    {
      name: 'required-packages',
      setup(build) {
        const filter = new RegExp(`^(${REQUIRED.join('|')})$`)
        build.onResolve({filter}, ({path, namespace}) =>
          namespace === REQUIRED_NAMESPACE ? {path, external: true} : {path, namespace: REQUIRED_NAMESPACE},
        )
        build.onLoad({filter: /.*/, namespace: REQUIRED_NAMESPACE}, ({path}) => ({
          contents: `module.exports = require(${JSON.stringify(path)})`,
          loader: 'js',
        }))
      },
    },
  ],
}

/**
 * The packages a bundle of the core or the command line holds, though it leaves the others to Node: zod is some
 * forty modules, which Node resolved, read and compiled one by one at each boot of a core (55-70 ms of CPU, 28-30
 * bundled into one file; bench/boot.bench.ts). zod shares its registry of schemas through `globalThis` and knows
 * its schemas by their traits, not their class: a skill's or the MCP SDK's zod, loaded from node_modules, and this
 * one agree. The other packages stay outside: native ones (libsql), ones loaded only when used (the MCP SDK,
 * esbuild), single files (croner), and ts-morph, required (REQUIRED).
 */
const BUNDLED_PACKAGES = ['zod']

/** The packages of an import path: `zod` of `zod/v4/core`, `@scope/name` of `@scope/name/sub`. */
function packageOf(imported) {
  const parts = imported.split('/')
  return imported.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Every package a bundle imports stays outside it (Node loads it from node_modules), but BUNDLED_PACKAGES. */
const OUTSIDE = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({filter: /^[^./]/}, ({path: imported, kind}) =>
      kind === 'entry-point' ||
      imported === 'passepartout/toolchain' ||
      BUNDLED_PACKAGES.includes(packageOf(imported))
        ? undefined
        : {path: imported, external: true},
    )
  },
}

/**
 * What makes a bundle lean (`buildBundle`): this repository's modules, the toolchain's public module among them, are
 * marked free of side effects, as `"sideEffects": false` in a package.json would mark a package's; the packages keep
 * what their own package.json says.
 */
const LEAN = {
  name: 'lean',
  setup(build) {
    build.onResolve(
      {filter: /^(\.|passepartout\/toolchain$)/},
      async ({path: imported, kind, resolveDir, importer, pluginData}) => {
        if (pluginData === LEAN || kind === 'entry-point') return undefined
        const toolchain = imported === 'passepartout/toolchain'
        const resolved = await build.resolve(toolchain ? './tools/toolchain.ts' : imported, {
          kind,
          resolveDir: toolchain ? root : resolveDir,
          importer,
          pluginData: LEAN,
        })
        const ours = !path.relative(root, resolved.path).split(path.sep).includes('node_modules')
        return resolved.errors.length > 0 || resolved.external || !ours
          ? undefined
          : {path: resolved.path, sideEffects: false}
      },
    )
  },
}

/**
 * Stop esbuild's service, when this process loaded esbuild (a build, or the core compiling a skill): the service is a
 * process that otherwise stays, idle, as long as this one (measured here: 36 MB beside the supervisor of `passepartout
 * run` once it had built the command line, 423 MB beside its core once that had built the skill host's bundle). The
 * next build or compile starts a new one (in 15-60 ms on this loaded machine). Only when nothing else is building or
 * compiling: a call under way would fail.
 */
export async function stopEsbuild() {
  const require = createRequire(import.meta.url)
  if (require.resolve('esbuild') in require.cache) await (await import('esbuild')).stop()
}

function removeOldBuilds(folder, current) {
  const dayAgo = Date.now() - 24 * 3600 * 1000
  for (const entry of fs.readdirSync(folder)) {
    if (entry !== current && Number.parseInt(entry, 10) < dayAgo)
      fs.rmSync(path.join(folder, entry), {recursive: true, force: true})
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
  // One written before this file counted among the inputs does not say how its bundle was made.
  if (typeof manifest.build !== 'string' || !Object.hasOwn(manifest.inputs ?? {}, BUNDLER)) return undefined
  for (const [input, mtime] of Object.entries(manifest.inputs)) {
    try {
      if (fs.statSync(path.join(root, input)).mtimeMs !== mtime) return undefined
    } catch {
      return undefined
    }
  }
  return manifest
}
