/**
 * `passepartout test [FILE|DIR ...]`: a project's own tests. The project is tangled and checked first, as `check`
 * checks it (a test of code that does not check would only fail less clearly); then the Test Suites its documents
 * tangle (those of the documents named, or every one) run with the installation's vitest, `passepartout/testing`
 * being the installation's runtime and a package the installation gives (zod, fast-check) its own when the project
 * has none.
 * Only the project's tests run: an installation's own (this repository's 2300) never do. The exit status is
 * vitest's.
 */
import {spawn} from 'node:child_process'
import {once} from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import {isError} from '../diagnostics.ts'
import {installationRoot, installedPackage, lackedPackages, testingRuntime} from '../installation.ts'
import {isTestFile} from '../project.ts'
import {stateFile, stateFolder} from '../tangle/cache.ts'
import {sourceMapPath, sourceMapsFolder} from '../tangle/source-map.ts'
import {colourOn} from '../terminal.ts'
import {tangleCoreFor} from './core-command.ts'
import {commandInputs, type SessionFlags} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

export async function runTest(
  args: string[],
  flags: SessionFlags & {prune: boolean},
  context: CommandContext,
): Promise<number> {
  const {session, files, folders, problems} = commandInputs(args, flags, context)
  if (!(await tangleCoreFor(session.project, context))) return 1
  // The whole project, the documents named among it: a test runs code the other documents wrote too.
  const checked = [...new Set([...session.documents(), ...files])]
  const report = await session.check(checked, {prune: flags.prune, folders})
  const diagnostics = [...problems, ...report.diagnostics]
  printDiagnostics(diagnostics, {cwd: context.cwd, frames: context.frames})
  if (diagnostics.some(isError)) {
    process.stderr.write('passepartout test: the project does not check: no test was run\n')
    return 1
  }
  const documents = new Set(files)
  const tests = report.tangle.documents
    .filter((document) => documents.has(document.path))
    .flatMap((document) => document.targets.map((target) => target.path))
    .filter(isTestFile)
  if (tests.length === 0) {
    process.stdout.write('passepartout test: the documents tangle no test file (NAME.test.ts)\n')
    return 0
  }
  const project = session.project ?? context.cwd
  const written = report.tangle.documents.flatMap((document) => document.targets.map((target) => target.path))
  return runVitest(project, tests, orgMaps(project, written))
}

/**
 * The map to its Org document of each of the files WRITTEN (PROJECT's tangle wrote them, and their maps, in
 * source-map.ts), by the real path vite names the module by: a test's failure and stack then point at Org.
 */
function orgMaps(project: string, written: readonly string[]): Record<string, string> {
  const maps = sourceMapsFolder(project)
  const real = fs.realpathSync(project)
  const entries = written.flatMap((file) => {
    const map = sourceMapPath(maps, project, file)
    return map === undefined ? [] : [[path.join(real, path.relative(project, file)), map]]
  })
  return Object.fromEntries(entries)
}

/**
 * Run the installation's vitest on TESTS, files of PROJECT, with a configuration of its own that maps the files
 * of MAPS to Org; vitest's exit status.
 */
async function runVitest(project: string, tests: readonly string[], maps: Record<string, string>): Promise<number> {
  const home = installationRoot()
  const config = stateFile(project, `vitest.config.${process.pid}`).replace(/\.json$/, '.mjs')
  fs.mkdirSync(path.dirname(config), {recursive: true})
  fs.writeFileSync(config, vitestConfiguration(project, home, tests, maps))
  try {
    const vitest = path.join(installedPackage(home, 'vitest')!, 'vitest.mjs')
    const child = spawn(process.execPath, [vitest, 'run', '--config', config, '--root', project], {
      cwd: project,
      env: colouredAsTheCommandLine(process.env),
      stdio: 'inherit',
    })
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
    return code ?? (signal ? 1 : 0)
  } finally {
    fs.rmSync(config, {force: true})
  }
}

/**
 * ENV with vitest's colour decided as every command decides its own (colourOn): vitest colours whatever the
 * stream, a pipe and an Emacs compilation buffer too, unless told.
 */
function colouredAsTheCommandLine(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const coloured = colourOn(process.stdout, env)
  return {...env, FORCE_COLOR: coloured ? '1' : undefined, NO_COLOR: coloured ? undefined : '1'}
}

/**
 * The configuration of a run of TESTS in PROJECT: exactly those files (named as vitest's patterns, their special
 * characters escaped), the testing API and the packages PROJECT lacks aliased to the installation HOME's, a
 * process per file (a test boots the skills in a skill host of its own), and a plugin that gives vite each file of
 * MAPS (a module's real path → its map to Org) with its map, which vite composes with its own: a failure's place,
 * its stack and its code frame are then the Org document's, while the file stays what Emacs writes (no
 * `sourceMappingURL` in it). A test's time limit only catches one that hangs: booting the skills takes seconds on
 * a loaded machine, where vitest's default is 5. Vite's cache (vitest's results) goes where the project's other
 * caches go (`stateFolder`): left to itself, it would make a `node_modules` in a project that has none.
 */
export function vitestConfiguration(
  project: string,
  home: string,
  tests: readonly string[],
  maps: Record<string, string>,
): string {
  const lacked = lackedPackages(project, home).filter((name) => name !== 'vitest')
  const alias = {
    'passepartout/testing': testingRuntime(home),
    ...Object.fromEntries(lacked.map((name) => [name, installedPackage(home, name)!])),
  }
  const include = tests.map((file) =>
    path
      .relative(project, file)
      .split(path.sep)
      .join('/')
      .replace(/[*?[\]{}()!]/g, '\\$&'),
  )
  const test = {include, pool: 'forks', testTimeout: 120_000, hookTimeout: 120_000}
  const settings = JSON.stringify({cacheDir: stateFolder(project, 'vite'), resolve: {alias}, test}, null, 2)
  return `${ORG_MAPS_PLUGIN}\nconst maps = ${JSON.stringify(maps, null, 2)}\n\nexport default {...${settings}, plugins: [orgMaps(maps)]}\n`
}

/**
 * The plugin, as the configuration's text: a module the configuration imported would have to be found in the
 * package as well as here. vitest shows the code of a failure's place only for a module vite transformed: the
 * plugin has vite transform the Org document too, as an empty module nothing imports (vitest then reads the
 * code frame from the Org file). A map that is gone (a cache cleared) leaves its file to vite, placed in it as
 * before.
 */
const ORG_MAPS_PLUGIN = `import fs from 'node:fs'

/** Each tangled file of MAPS with its map to Org, for vite to compose with its own, and its Org document. */
function orgMaps(maps) {
  const documents = new Set()
  return {
    name: 'passepartout:org-maps',
    enforce: 'pre',
    async load(id) {
      if (documents.has(id)) return {code: 'export {}', map: null}
      const file = Object.hasOwn(maps, id) ? maps[id] : undefined
      if (file === undefined || !fs.existsSync(file)) return null
      const map = fs.readFileSync(file, 'utf8')
      const document = JSON.parse(map).sources[0]
      if (!documents.has(document)) {
        documents.add(document)
        // Failing, it costs only the code frame: the place is the map's.
        await this.environment.transformRequest(document).catch(() => undefined)
      }
      return {code: fs.readFileSync(id, 'utf8'), map}
    },
  }
}
`
