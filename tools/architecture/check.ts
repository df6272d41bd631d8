/**
 * The architecture's check: dependency-cruiser over generated/core and tools/ with the rules of
 * `.dependency-cruiser.cjs` (the layers ARCHITECTURE.md draws). Prints each violation and exits 1 on any.
 *
 *   node bin/launch.mjs tools/architecture/check.ts [--config FILE] [FOLDER ...]
 *
 * dependency-cruiser parses TypeScript with the `typescript` package's compiler API, which the native compiler
 * we install (typescript 7) no longer has; ts-morph carries the JavaScript compiler (6.x) for its own use. So
 * before dependency-cruiser loads, `typescript` is made to name ts-morph's copy, for `import` and for `require`
 * alike, in this process only.
 */
import fs from 'node:fs'
import Module, {createRequire, register} from 'node:module'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {ICruiseOptions, ICruiseResult, IForbiddenRuleType} from 'dependency-cruiser'

const DEFAULT_FOLDERS = ['generated/core', 'tools']

interface Arguments {
  config: string
  folders: string[]
}

function argumentsOf(argv: readonly string[]): Arguments {
  const at = argv.indexOf('--config')
  const config = at >= 0 ? (argv[at + 1] ?? '') : '.dependency-cruiser.cjs'
  const folders = argv.filter((_, n) => at < 0 || (n !== at && n !== at + 1))
  const named = folders.length > 0 ? folders : DEFAULT_FOLDERS.filter((folder) => fs.existsSync(folder))
  return {config: path.resolve(config), folders: named}
}

/** Make `typescript` name ts-morph's JavaScript compiler (this installation's, whatever the working folder). */
function lendTypeScript(): void {
  const require = createRequire(import.meta.url)
  const compiler = require.resolve('@ts-morph/common/dist/typescript.js')
  const {version} = require(compiler) as {version: string}
  // dependency-cruiser reads typescript/package.json for the version: a module of require's cache alone (no file
  // is written) says the compiler's own.
  const manifest = path.join(path.dirname(compiler), 'typescript-package.json')
  const cjs = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string
    _cache: Record<string, unknown>
  }
  cjs._cache[manifest] = {id: manifest, filename: manifest, loaded: true, exports: {name: 'typescript', version}}
  const resolve = cjs._resolveFilename
  cjs._resolveFilename = function (request, ...rest) {
    if (request === 'typescript') return compiler
    if (request === 'typescript/package.json') return manifest
    return resolve.call(this, request, ...rest)
  }
  const url = JSON.stringify(pathToFileURL(compiler).href)
  const hook = `export async function resolve(specifier, context, next) {
    return specifier === 'typescript' ? {url: ${url}, shortCircuit: true} : next(specifier, context)
  }`
  register(`data:text/javascript,${encodeURIComponent(hook)}`)
}

/** The configuration as `.dependency-cruiser.cjs` writes it: the rules and the options of a cruise. */
interface Configuration {
  forbidden: IForbiddenRuleType[]
  options: ICruiseOptions
}

/** Cruise FOLDERS with the rules of CONFIG: what was found, in dependency-cruiser's own words when it broke one. */
async function cruiseWith(config: string, folders: string[]): Promise<{broken: string | undefined; summary: string}> {
  lendTypeScript()
  const {cruise, format} = await import('dependency-cruiser')
  const {forbidden, options} = createRequire(import.meta.url)(config) as Configuration
  const started = performance.now()
  const result = await cruise(folders, {...options, validate: true, ruleSet: {forbidden}})
  // Without an output type, the result is the cruise itself, never text.
  const output = result.output as ICruiseResult
  const {error, totalCruised, totalDependenciesCruised} = output.summary
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const broken = error > 0 ? String((await format(output, {outputType: 'err'})).output) : undefined
  return {broken, summary: `${totalCruised} modules, ${totalDependenciesCruised} imports (${seconds} s)`}
}

export async function main(argv: string[]): Promise<number> {
  const {config, folders} = argumentsOf(argv)
  if (!fs.existsSync(config)) {
    process.stderr.write(`architecture: there is no configuration ${config}\n`)
    return 2
  }
  try {
    const {broken, summary} = await cruiseWith(config, folders)
    if (broken !== undefined) {
      process.stdout.write(broken)
      return 1
    }
    process.stdout.write(`architecture: no cycle, no import against the layers: ${summary}\n`)
    return 0
  } catch (error) {
    // A configuration or a folder that cannot be read: one line, not a stack.
    process.stderr.write(`architecture: ${(error as Error).message}\n`)
    return 2
  }
}
