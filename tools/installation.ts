/**
 * The installation and a project of one's own. The installation is the folder that holds bin/passepartout and
 * what it runs: this repository, or the package npm installed. A project is a person's folder of Org documents,
 * elsewhere. The project's code imports the skill API (`passepartout`) and zod (a tool's parameters), its tests
 * the testing API (`passepartout/testing`) and `vitest`: all four are the installation's, found there for the type
 * check, the skill host and the tests, whether or not the project has a node_modules/ of its own, so that what
 * is checked is what runs. In this repository the project is the installation: its package.json names its own
 * modules (`exports`), and nothing is added.
 */
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {findProjectRoot} from './project.ts'
import {readProjectText, SETTINGS_FILE_MAX_BYTES} from './project-file.ts'
import {readToolchainSettings} from './settings.ts'

/** The installation running this code: PASSEPARTOUT_HOME, which bin/launch.mjs sets, else the folder above this file. */
export function installationRoot(): string {
  return readToolchainSettings().home ?? findProjectRoot(import.meta.dirname)!
}

/** Whether PROJECT is the installation HOME itself (this repository, to its developers): one folder, however named. */
export function isInstallation(project: string, home: string): boolean {
  const real = (folder: string) => (fs.existsSync(folder) ? fs.realpathSync(folder) : path.resolve(folder))
  return real(project) === real(home)
}

/**
 * The packages of the installation a project's code uses as its own: zod for a tool's parameters, vitest and
 * fast-check (properties, as the shell guard's tests hold) for its tests.
 */
export const GIVEN_PACKAGES = ['zod', 'vitest', 'fast-check'] as const

interface Manifest {
  /** Each module's declarations (the tangled sources', then those make pack writes) and code. */
  exports: Record<string, {types: string | string[]; default?: string}>
}

function manifestOf(home: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(home, 'package.json'), 'utf8')) as Manifest
}

/**
 * What declares each module PROJECT imports from the installation HOME, by the name it imports: the API's
 * declarations, and the folder of each package the installation gives that PROJECT does not have itself; and
 * vitest's always, since the installation's vitest runs the tests (test-command.ts) whatever version the project
 * holds, and the tests are checked against what runs them.
 */
export function installedModules(home: string, project: string): Record<string, string> {
  const {exports} = manifestOf(home)
  const runner = installedPackage(home, 'vitest') === undefined ? [] : ['vitest' as const]
  const given = [...new Set([...runner, ...lackedPackages(project, home)])].map((name) => [
    name,
    installedPackage(home, name)!,
  ])
  return {
    passepartout: declarations(home, exports['.']!.types),
    'passepartout/testing': declarations(home, exports['./testing']!.types),
    ...Object.fromEntries(given),
  }
}

/**
 * The first of FILES the installation HOME holds: a checkout has the tangled sources, the package only the
 * declarations make pack writes.
 */
function declarations(home: string, files: string | string[]): string {
  const held = [files].flat().map((file) => path.resolve(home, file))
  return held.find((file) => fs.existsSync(file)) ?? held.at(-1)!
}

/**
 * Whether the installation HOME holds its sources (this repository: tools/, org/core/), or only what make pack built
 * of them (the package: dist/). The one answer of the toolchain's TypeScript; bin/bundle.mjs's `hasSources` gives the
 * launcher the same answer, by the same folder, before any TypeScript loads: it decides whether there is TypeScript
 * to build, so it cannot ask this function, which is part of what it builds (and is not in the package).
 */
export function hasSources(home: string): boolean {
  return fs.existsSync(path.join(home, 'tools'))
}

/**
 * What a project's tests run as `passepartout/testing`: the installation HOME's testing runtime, tangled in a
 * checkout (which runs its sources, as bin/bundle.mjs does), the bundle make pack built in the package.
 */
export function testingRuntime(home: string): string {
  if (hasSources(home)) return path.join(home, 'generated', 'core', 'testing-runtime.ts')
  return path.resolve(home, manifestOf(home).exports['./testing']!.default!)
}

/**
 * The folder a skill's module in FOLDER finds the package SPECIFIER from: FOLDER, or the installation's for a
 * package the installation gives (zod) that the project does not have.
 */
export function packageFolder(specifier: string, folder: string, home = installationRoot()): string {
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
  return (lackedPackages(folder, home) as string[]).includes(name) ? home : folder
}

/**
 * The packages the installation HOME gives that a module in FOLDER does not find itself: HOME's are used. One HOME
 * does not hold is none it gives.
 */
export function lackedPackages(folder: string, home: string): (typeof GIVEN_PACKAGES)[number][] {
  const lacks = (name: string) => installedPackage(folder, name) === undefined
  return GIVEN_PACKAGES.filter((name) => lacks(name) && installedPackage(home, name) !== undefined)
}

/** The folder of the package NAME as a module in FOLDER finds it (FOLDER's node_modules, or one above); undefined when none. */
export function installedPackage(folder: string, name: string): string | undefined {
  if (!packageScopeReadable(folder)) return undefined
  try {
    return path.dirname(createRequire(path.join(folder, 'package.json')).resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

/**
 * Whether Node may read the package.json nearest FOLDER (at or above it), which it reads to resolve from there: there
 * is none, or it is a regular file. Node opens it with an open that waits: a named pipe there held the process for
 * good. Its stat is enough to know, and reads nothing.
 */
function packageScopeReadable(folder: string): boolean {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const stat = statOf(path.join(dir, 'package.json'))
    if (stat) return stat.isFile()
    if (path.dirname(dir) === dir) return true
  }
}

/** FILE's stat (links followed); undefined when there is none there (or a file where a folder of its path is). */
function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file)
  } catch {
    return undefined
  }
}

/**
 * The compiler options a project's type check adds to its own, so that what it imports from the installation
 * HOME is found there: a `paths` entry for each installed module (installedModules), beside the project's own
 * `paths` (read from TSCONFIG and the configurations it extends; the project's entry wins for a name both map),
 * and with no tsconfig.json Node's types (nodeTypes). Files outside any project get Node's types alone when no
 * tsconfig.json above them says otherwise: someone's literate dotfiles import `node:fs` and import no skill API.
 * Undefined for the installation itself, which checks as it always did, and for files outside any project
 * under a tsconfig.json of their own.
 */
export function installationOptions(
  project: string | undefined,
  tsconfig: string | undefined,
  home = installationRoot(),
): Record<string, unknown> | undefined {
  if (project === undefined) return tsconfig ? undefined : nodeTypes(home)
  if (isInstallation(project, home)) return undefined
  const installed = Object.entries(installedModules(home, project)).map(([name, file]) => [name, [file]])
  const paths = {...Object.fromEntries(installed), ...(tsconfig ? ownPaths(tsconfig) : {})}
  return tsconfig ? {paths} : {paths, ...nodeTypes(home)}
}

/**
 * The options that give a program Node's types, the installation HOME's `@types/node` (a skill's test reads
 * files), in place of the browser's: none when HOME does not hold them. The library is then the language's alone,
 * of the checkers' target (ES2022, checker.ts's DEFAULT_COMPILER_OPTIONS), not TypeScript's default for a target,
 * which adds the browser's: a skill runs in the skill host, a Node process, where `document` and `window` do not
 * exist, and its globals (`console`, timers, `URL`, `fetch`) are Node's. Without the browser's declarations, the
 * warm checker's first program is a quarter lighter (194 files to 158: 1.7 s of CPU to 1.3).
 */
function nodeTypes(home: string): {types: string[]; typeRoots: string[]; lib: string[]} | undefined {
  const types = installedPackage(home, '@types/node')
  return types === undefined ? undefined : {types: ['node'], typeRoots: [path.dirname(types)], lib: ['ES2022']}
}

/**
 * The `paths` TSCONFIG gives, or the first configuration it extends that gives any, each target made absolute
 * (from that configuration's `baseUrl`, else its folder), since the options that take them in are written
 * elsewhere. Configurations are read as the compiler reads them: comments and trailing commas allowed.
 */
function ownPaths(tsconfig: string): Record<string, string[]> {
  for (const config of configurationChain(tsconfig)) {
    const options = readConfiguration(config)?.compilerOptions
    if (!options?.paths) continue
    const base = path.resolve(path.dirname(config), options.baseUrl ?? '.')
    const absolute = ([name, targets]: [string, string[]]) => [
      name,
      targets.map((target) => path.resolve(base, target)),
    ]
    return Object.fromEntries(Object.entries(options.paths).map(absolute))
  }
  return {}
}

interface Configuration {
  extends?: string | string[]
  compilerOptions?: {paths?: Record<string, string[]>; baseUrl?: string}
}

/**
 * FILE's settings. jsonc-parser is required when a project has a configuration, not imported: its module is one
 * that the self-contained bundles (the skill host's, which reach this file through the toolchain) cannot hold.
 */
function readConfiguration(file: string): Configuration | undefined {
  const {parse} = createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser')
  const read = readProjectText(file, SETTINGS_FILE_MAX_BYTES)
  return read.ok ? (parse(read.text, [], {allowTrailingComma: true}) as Configuration) : undefined
}

/**
 * CONFIG and the configurations it extends by a path, nearest first: of a list, the last, whose settings win. A
 * package's configuration sets no paths of the project's.
 */
function configurationChain(config: string): string[] {
  const chain: string[] = []
  for (let file: string | undefined = config; file && !chain.includes(file);) {
    chain.push(file)
    const extended: Configuration['extends'] = readConfiguration(file)?.extends
    const last: string | undefined = Array.isArray(extended) ? extended.at(-1) : extended
    file = last?.startsWith('.') ? withJson(path.resolve(path.dirname(file), last)) : undefined
  }
  return chain
}

function withJson(file: string): string {
  return file.endsWith('.json') || fs.existsSync(file) ? file : `${file}.json`
}
