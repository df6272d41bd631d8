/**
 * The sandbox rules' clean verdicts, remembered, so that a boot parses only
 * the skill modules that changed: parsing means loading TypeScript's parser,
 * which was most of what a boot of the shipped skills cost (38% of its CPU,
 * about 57 MB).
 *
 * A verdict is decided by the rules, the module's dialect (its extension picks
 * the parser's: .ts, .tsx, .js; a declaration file parses as ambient code), its
 * text, and the capabilities its document grants: an entry's key is a hash of
 * the four, and nothing of where the module lies. A copy of a module in
 * another folder takes the verdict of the first one judged: every project that
 * copies the shipped skills (each test's project does) parses them once, not
 * once a folder (0.65 s of CPU a boot, TypeScript's parser loaded).
 *
 * The rules are named by the tool's build that applies them (bin/launch.mjs
 * names it): the command line and the core are bundled apart, each a build of
 * its own, and both apply the rules (`check`, the boot). A run from the sources
 * (the tests run the core in their process) has no build: it names the rules
 * by their sources (`sandboxRulesOf`), so that a change to a rule forgets what
 * the rules before it found clean. Only clean verdicts are kept: a module with
 * a violation is parsed again, so its problems always come from the rules at
 * its current Org lines.
 *
 * Kept beside the tangle cache (`stateFile`: node_modules/.cache/passepartout/
 * sandbox.json), as an npm project keeps its tools' caches (removed with its
 * node_modules, kept with them by a CI's cache), or for folders outside an npm
 * project in one file of the user's cache they all share (`verdictsFile`),
 * written to a temporary file and renamed into place; a file that is damaged
 * or of another shape is ignored. Entries not asked for in a week (those of
 * older builds, of rules since changed) are dropped when it is written.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {userStateFolder} from '../project.ts'
import {readStateJson, stateFile, writeStateFile} from '../tangle/cache.ts'
import {number, object, record} from '../shape.ts'
import type {Capability} from './capabilities.ts'

/** Changes whenever what the file holds changes shape (2: keys hold a module's dialect, no longer its path). */
const FORMAT = 2

const DAY_MS = 24 * 60 * 60 * 1000
/** How long an entry no boot or check asked for is kept. */
const KEEP_MS = 7 * DAY_MS

const fileShape = object({format: number, clean: record(number)})

export class SandboxVerdicts {
  private dirty = false

  private constructor(
    private readonly file: string,
    private readonly rules: string,
    /** Each clean verdict's key, with when it was last asked for (ms since the epoch). */
    private readonly clean: Record<string, number>,
  ) {}

  /**
   * The verdicts remembered for the documents under FOLDER by the rules named RULES (`appliedRules`); undefined
   * when the rules have no name to key them by.
   */
  static open(folder: string, rules: string | undefined): SandboxVerdicts | undefined {
    if (!rules) return undefined
    const file = verdictsFile(folder)
    // None yet, or one cut short: every module is parsed, and the file is written afresh.
    const stored = readStateJson(file)
    const clean = fileShape(stored) && stored.format === FORMAT ? stored.clean : {}
    return new SandboxVerdicts(file, rules, clean)
  }

  /** Whether the rules found the module at FILE with TEXT clean under GRANTED, as they stand. */
  isClean(file: string, text: string, granted: Iterable<Capability>): boolean {
    const key = verdictKey(this.rules, file, text, granted)
    const used = this.clean[key]
    if (used === undefined) return false
    // When it was used is written again once a day at most, not at every boot.
    if (Date.now() - used > DAY_MS) {
      this.clean[key] = Date.now()
      this.dirty = true
    }
    return true
  }

  /** Remember that the rules found the module at FILE with TEXT clean under GRANTED. */
  rememberClean(file: string, text: string, granted: Iterable<Capability>): void {
    this.clean[verdictKey(this.rules, file, text, granted)] = Date.now()
    this.dirty = true
  }

  /** Write what was learnt or used since the file was read; a file that cannot be written only costs time. */
  save(): void {
    if (!this.dirty) return
    const since = Date.now() - KEEP_MS
    const clean = Object.fromEntries(Object.entries(this.clean).filter(([, used]) => used >= since))
    try {
      writeStateFile(this.file, JSON.stringify({format: FORMAT, clean}))
      this.dirty = false
    } catch {
      // The next boot parses what this one could not remember.
    }
  }
}

/**
 * The name of the rules this process applies: its BUILD (bin/launch.mjs names it), else, run from the sources,
 * their sources' (`sandboxRulesOf` the rules' module), hashed once a process; undefined when neither is there.
 */
export function appliedRules(build: string | undefined): string | undefined {
  if (build) return build
  sourceRules ??= rulesOfTheseSources()
  return sourceRules || undefined
}

/** The rules' name from the sources this process runs, once computed; '' when they cannot be read. */
let sourceRules: string | undefined

function rulesOfTheseSources(): string {
  try {
    return sandboxRulesOf(path.join(import.meta.dirname, 'sandbox.ts'))
  } catch {
    // Sources that cannot be read name no rules: nothing is remembered, every suspect module is parsed.
    return ''
  }
}

/**
 * The name of the sandbox rules whose module is ENTRY: a hash of its text and of every module it imports for their
 * values, through one another (an `import type` adds nothing the rules run), each by its path from ENTRY's folder,
 * with the version of the parser they read code with (ts-morph's TypeScript). A copy of the sources names the same
 * rules; a change to any of those modules, or another parser, names others.
 */
export function sandboxRulesOf(entry: string): string {
  const hash = createHash('sha256').update(parserVersion())
  const seen = new Set<string>()
  const pending = [entry]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file) || !fs.existsSync(file)) continue
    seen.add(file)
    const text = fs.readFileSync(file, 'utf8')
    hash.update(`${path.relative(path.dirname(entry), file)}\0${text}\0`)
    pending.push(...valueImports(text).map((specifier) => path.resolve(path.dirname(file), specifier)))
  }
  return hash.digest('base64url')
}

/**
 * A module of this folder or one near it that a module imports for its values: `import … from './x.ts'`,
 * `import './x.ts'`, `export … from './x.ts'`, `import('./x.ts')`, and not `import type … from`. A specifier taken
 * for one where there is none only adds a file that is not there (skipped) or one more to the hash.
 */
const VALUE_IMPORT =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm

/** The relative specifiers of what TEXT imports for its values. */
function valueImports(text: string): string[] {
  return [...text.matchAll(VALUE_IMPORT)].map((match) => (match[1] ?? match[2])!)
}

/** ts-morph's version and its TypeScript's (the package @ts-morph/common bundles it in). */
function parserVersion(): string {
  const morph = createRequire(import.meta.url).resolve('ts-morph/package.json')
  const common = createRequire(morph).resolve('@ts-morph/common/package.json')
  const version = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as {version: string}).version
  return `ts-morph ${version(morph)}, @ts-morph/common ${version(common)}`
}

/**
 * Where the verdicts for the documents under FOLDER are kept: beside its tangle cache in an npm project, else in one
 * file of the user's cache for every such folder. A key holds all that decides its verdict, so folders can share
 * the file: the shipped skills, read by every project from this installation, and their copies, are parsed once for
 * all of them, not once a folder.
 */
function verdictsFile(folder: string): string {
  return fs.existsSync(path.join(folder, 'node_modules'))
    ? stateFile(folder, 'sandbox')
    : path.join(userStateFolder(), 'sandbox.json')
}

/** A path that names a declaration file (`x.d.ts`, `x.d.mts`, `x.d.html.ts`), which TypeScript parses as ambient. */
const DECLARATION = /\.d(?:\.[^./]+)?\.[cm]?ts$/

/** What of the module's path at FILE its parse depends on: its extension, and whether it names a declaration file. */
function dialectOf(file: string): string {
  return `${DECLARATION.test(file) ? '.d' : ''}${path.extname(file)}`
}

/** What decides a module's verdict: the RULES, the dialect of FILE, its TEXT and GRANTED capabilities, as one hash. */
function verdictKey(rules: string, file: string, text: string, granted: Iterable<Capability>): string {
  return createHash('sha256')
    .update(JSON.stringify([rules, dialectOf(file), [...granted].sort(), text]))
    .digest('base64url')
}
