/**
 * What the package holds beside the sources npm copies as they are (bin/, the shipped skills' documents and their
 * tangled code, the Emacs package): built here, at pack time, so that an installation never tangles, type-checks
 * or bundles its own code on a user's machine, and is never written into.
 *
 * - dist/NAME/main.mjs: the bundle of every entry point a command runs (bin/bundle.mjs's `ensureBundle` takes it
 *   from there in an installation without sources), built with the options of this repository's own bundles;
 * - types/: the declarations of `passepartout` and `passepartout/testing`, what a skill and a skill's test
 *   import, emitted by the native compiler from generated/core/;
 * - dist/build.json: the build's name (what caches of results are valid for, as a build of the repository's
 *   bundles is), when it started, and the sources it was built from, which `npm pack` (tools/pack/guard.ts)
 *   holds it to.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {DEFAULT_COMPILER_OPTIONS} from '../check/checker.ts'
import {nativeCompiler} from '../check/native-checker.ts'
import {declarationsNotEmitted, nativeCompilerMissing} from '../messages/build.ts'
import {listFiles} from '../project.ts'

/**
 * Every entry point a command asks `bin/bundle.mjs` for, and where it asks: self-contained ones carry their
 * packages in (they run in a compartment or a thread that loads nothing else); lean ones are one file each, what a
 * short command loads (bin/bundle.mjs says how).
 */
export const ENTRY_POINTS: readonly {entry: string; selfContained?: boolean; lean?: boolean}[] = [
  // bin/passepartout: the command line, which of its entries runs a command (bin/launch.mjs), and the clients'.
  {entry: 'tools/cli/main.ts'},
  {entry: 'tools/cli/command-line.ts', lean: true},
  {entry: 'generated/core/clients.ts', lean: true},
  // tools/cli/core-command.ts: the commands a core runs, `run` among them.
  {entry: 'generated/core/commands.ts'},
  // org/core/skill-host.org: the skill host and its watchdog.
  {entry: 'generated/core/host-main.ts', selfContained: true},
  {entry: 'generated/core/host-watchdog.ts', selfContained: true},
  // org/core/daemon.org: the thread that serves the socket.
  {entry: 'generated/core/daemon-thread.ts', selfContained: true},
  // tools/check/warm-program.ts: the warm type checker's process.
  {entry: 'tools/check/warm-process.ts'},
  // package.json's `passepartout/testing`: what a skill document's tests run.
  {entry: 'generated/core/testing-runtime.ts'},
]

/** The modules whose declarations are types/: what `passepartout` and `passepartout/testing` name. */
const DECLARED = ['generated/core/passepartout.ts', 'generated/core/testing.ts']

export interface BuildRecord {
  /** The build's name: the package's version and when it was built. */
  build: string
  /** When the build started (ms since the epoch): a source changed after it is newer than the build. */
  startedMs: number
  /** The sources the build was made from, relative to the repository, sorted. */
  sources: string[]
}

/** Build dist/ and types/ of the repository ROOT, and record the build last: a build cut short has no record. */
export async function buildPackage(root: string): Promise<BuildRecord> {
  const startedMs = Date.now()
  const sources = packageSources(root)
  const dist = path.join(root, 'dist')
  fs.rmSync(dist, {recursive: true, force: true})
  const bundler = (await import(pathToFileURL(path.join(root, 'bin', 'bundle.mjs')).href)) as Bundler
  await Promise.all(
    ENTRY_POINTS.map(({entry, selfContained = false, lean = false}) => {
      const file = path.join(root, entry)
      const options = {selfContained, lean}
      return bundler.buildBundle(file, path.join(dist, bundler.bundleName(file, options)), options)
    }),
  )
  emitDeclarations(root, path.join(root, 'types'))
  const {version} = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {version: string}
  const record = {build: `${version}-${startedMs}`, startedMs, sources}
  fs.writeFileSync(path.join(dist, 'build.json'), `${JSON.stringify(record, null, 2)}\n`)
  return record
}

interface Bundler {
  bundleName(entry: string, options: {selfContained: boolean; lean: boolean}): string
  buildBundle(entry: string, outdir: string, options: {selfContained: boolean; lean: boolean}): Promise<unknown>
}

/**
 * What the package is built from, relative to ROOT: the Org documents (the core, the skills, the Emacs client),
 * the toolchain, the bundler, and the dependencies as package.json and the lock name them. A change to any of them
 * after a build is one the build does not have.
 */
export function packageSources(root: string): string[] {
  const found = [
    ...listFiles(path.join(root, 'org'), (entry) => entry.name.endsWith('.org')),
    ...listFiles(path.join(root, 'tools'), (entry) => entry.name.endsWith('.ts')),
    ...listFiles(path.join(root, 'bin'), () => true),
    ...['package.json', 'package-lock.json'].map((file) => path.join(root, file)),
  ]
  return found.map((file) => path.relative(root, file).split(path.sep).join('/')).sort()
}

/**
 * The declarations of DECLARED and of what they import, into TYPES (made afresh), by the native compiler with the
 * options a project without a tsconfig.json is checked with: their imports keep the `.ts` of the sources, which
 * a compiler resolves to the declaration beside it.
 */
function emitDeclarations(root: string, types: string): void {
  const compiler = nativeCompiler()
  if (!compiler) throw new Error(nativeCompilerMissing())
  fs.rmSync(types, {recursive: true, force: true})
  const {noEmit: _, ...options} = DEFAULT_COMPILER_OPTIONS
  const flags = Object.entries(options).flatMap(([name, value]) => [`--${name}`, String(value)])
  const args = [
    ...compiler.args,
    '--ignoreConfig',
    ...flags,
    '--declaration',
    '--emitDeclarationOnly',
    '--rootDir',
    'generated/core',
    '--outDir',
    types,
    ...DECLARED,
  ]
  const result = spawnSync(compiler.command, args, {cwd: root, encoding: 'utf8'})
  if (result.status !== 0) throw new Error(declarationsNotEmitted(`${result.stdout}${result.stderr}`))
}
