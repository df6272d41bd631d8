/**
 * The type checking of a project session (project-session.ts), loaded only when
 * a command checks: what the generated files are and where their lines came
 * from, the native compiler for a whole program, the warm ts-morph program for
 * re-checks after a save, and the sandbox rules for skills.
 *
 * `check` checks the whole program with the native compiler (ts-morph when the
 * native one is missing) while the sandbox rules parse the skills' files in
 * the warm program's process, which leaves once idle. A long-lived session (the watcher, the running core) then calls
 * `recheck` after each save: only the changed documents' files and the files
 * that import them, on a warm ts-morph program; with the native compiler while
 * none is ready (the first saves after a start, or after it left).
 */
import fs from 'node:fs'
import path from 'node:path'
import {isTypeScript, type TsProblem} from '../check/checker.ts'
import {GeneratedFiles} from '../check/generated-files.ts'
import {CheckMemory, type Snapshot} from '../check/check-memory.ts'
import {configurationInputs, unreadableConfiguration} from '../check/compiler-inputs.ts'
import {
  compilerIdentity,
  NativeChecker,
  type NativeCompiler,
  nativeCompiler,
  nativeWorkDir,
} from '../check/native-checker.ts'
import type {ProgramCheck} from '../check/native-checker.ts'
import type {SandboxVerdicts} from '../check/sandbox-verdicts.ts'
import {suspectText} from '../check/suspects.ts'
import type {SandboxFinding, SandboxSuspect} from '../check/warm-messages.ts'
import type {WarmProgram} from '../check/warm-program.ts'
import {debug} from '../debug.ts'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {buildGraph} from '../graph/document-graph.ts'
import {compilerFailed} from '../messages/check.ts'
import {stateFile} from '../tangle/cache.ts'
import {installationOptions, installationRoot, isInstallation} from '../installation.ts'
import {type DocumentMeta, documentMeta} from '../org/document-meta.ts'
import {readOrg} from '../org/parse.ts'
import {isInside, listOrgFiles, skillsFolder} from '../project.ts'
import type {TangleReport} from '../tangle/tangle.ts'
import {apiVersionProblem} from './skill-documents.ts'
import {skillTwins} from './skill-twins.ts'

const log = debug('check')

export interface CheckReport {
  tangle: TangleReport
  /** The tangler's diagnostics, the document graph's, then the checker's. */
  diagnostics: Diagnostic[]
  /** TypeScript files whose problems were looked for. */
  checkedFiles: number
  /** Which compiler checked them. */
  checker: 'native' | 'warm'
  /** Whether the answer is the last clean check's, nothing it came from having changed since (check-memory.ts). */
  remembered: boolean
  elapsedMs: number
  /** The documents of a re-check that do not check, whose files were left as they were (project-session.ts). */
  keptOut?: string[]
}

export interface CheckerOptions {
  /** The project root, or undefined for files outside any project. */
  project: string | undefined
  /** Outside any project, the folder the command works on: the compiler's configuration is found from it. */
  folder?: string
  allowOutside: readonly string[]
  /** Check with ts-morph even when the native compiler is installed. */
  warmOnly: boolean
  /** The files the documents wrote last time, when known for every one of FILES (written.ts). */
  writtenBefore: (files: readonly string[]) => string[] | undefined
  /**
   * The tool's build: a clean answer of the native compiler is remembered for it, and stands while nothing it
   * came from changes (check-memory.ts). Without one, every check runs the compiler.
   */
  tool?: string
  /** The native compiler to check with, when not the installed `typescript` package's. */
  compiler?: NativeCompiler
  /** The sandbox rules' clean verdicts, shared with the core's boot: a skill file judged before is not parsed. */
  verdicts?: SandboxVerdicts
  /**
   * The folder whose documents' files the warm program takes only once one of them is re-checked: the core's own
   * documents, in a project that holds them (this repository), whose save restarts the core rather than reload
   * anything. They import the toolchain, and through it TypeScript's, ts-morph's and the model provider's
   * declarations: on this repository the warm program held 286 MB of heap with them, 126 MB without.
   */
  deferred?: string
  /** How long the warm program's process waits with nothing asked before it ends (warm-program.ts); `CHECKER_IDLE_MS`. */
  idleMs?: number
}

/**
 * How long the warm type checker's process stays once nothing is asked of it: ten minutes, longer than the pauses of
 * someone editing and saving (each save within it is re-checked warm, in tens of milliseconds), short beside the hours
 * a core runs unsaved, which it then runs without the checker's memory. The first saves after it left are checked by
 * the native compiler, and the second builds the program again (bench/footprint.bench.ts measures what that costs).
 */
const CHECKER_IDLE_MS = 600_000

/**
 * How long the process stays when it holds no program, started to judge skills by the sandbox rules (a boot's new
 * skills, the first saves): five seconds, the judging of a boot or a burst of saves. Its 120 MB (TypeScript's parser)
 * for the ten minutes of a warm program made a core on this repository's documents a 314 MB tree at rest.
 */
const JUDGING_IDLE_MS = 5000

export class ProjectChecker {
  private readonly generated: GeneratedFiles
  /** What each document tangled so far says of its IDs and dependencies. */
  private readonly documents = new Map<string, DocumentMeta>()
  /** The document graph's diagnostics, built again only when what a document declares changes. */
  private graphDiagnostics: Diagnostic[] | undefined
  private readonly tsconfig: string | undefined
  /** What the installation adds to the project's compiler options (installation.ts); none in the installation. */
  private readonly installed: Record<string, unknown> | undefined
  private readonly native: NativeChecker | undefined
  /** What the installation's shipped skill documents declare, once read (`shippedSkills`). */
  private shipped: DocumentMeta[] | undefined
  /**
   * The type checker's process (warm-program.ts), while one runs: it judges skills by the sandbox rules, and holds
   * the warm program of the re-checks once one asked for it (`warm`).
   */
  private process: Promise<WarmProgram> | undefined
  /** The same process, once it holds the warm program's files. */
  private warm: Promise<WarmProgram> | undefined
  /** The same process once its warm program is built and primed: re-checks go to it, to the native compiler until then. */
  private ready: WarmProgram | undefined
  /** When the last re-check by the native compiler ended (`recheckNatively`). */
  private nativeDone: number | undefined
  /**
   * The compiler's problems the project has as the last check or re-check left them, by file: a re-check by the
   * native compiler checks the whole program, and says of the files the save did not touch only what is new there
   * (what the save broke in a file that imports it), not a problem `check` or an earlier save said already. Said
   * again at each save, another document's error refused a core's or a shipped skill's new version (live.org) and
   * was kept once more for its document at each save.
   */
  private readonly standing = new Map<string, Set<string>>()

  constructor(private readonly options: CheckerOptions) {
    this.generated = new GeneratedFiles(options.project, options.allowOutside)
    this.tsconfig = tsconfigOf(options.project, options.folder)
    this.installed = installationOptions(options.project, this.tsconfig)
    const compiler = options.warmOnly ? undefined : (options.compiler ?? nativeCompiler())
    const workDir = nativeWorkDir(options.project)
    this.native = compiler && new NativeChecker(compiler, this.tsconfig, workDir, this.installed)
  }

  /** Tangle FILES with TANGLE and check the whole program their TypeScript files make. */
  async check(files: readonly string[], tangle: () => Promise<TangleReport>): Promise<CheckReport> {
    const started = performance.now()
    const memory = this.memory()
    // The compiler starts at once on the files the documents wrote last time (written.ts). When the tangle finds
    // them all as they were, which is what a new build of the tool gives (it throws the tangle cache away, not
    // the files), that answer stands, and the tangle ran beside the compiler instead of before it. Not when the
    // last clean answer will stand (check-memory.ts): on two cores, the compiler would only slow the tangle.
    const guess = this.native && this.options.writtenBefore(files)?.filter(isTypeScript).sort()
    const abandon = new AbortController()
    const early = guess && !memory?.recall(guess) ? this.compile(guess, memory, abandon.signal) : undefined
    early?.check.catch(() => {})
    const {report, extra, touched} = this.record(await tangle())
    if (this.warm) {
      const [files, deferred] = [
        touched.filter((file) => !this.isDeferred(file)),
        touched.filter((file) => this.isDeferred(file)),
      ]
      await (await this.warm).ask({type: 'update', files, ifHeld: deferred})
    }
    const roots = this.generated.all()
    const grants = this.generated.grants(roots)
    const recalled = memory?.recall(roots, grants)
    const unchanged = report.outcomes.every((outcome) => outcome.status === 'unchanged')
    const guessed = !recalled && guess !== undefined && guess.join('\0') === roots.join('\0') && unchanged
    const how = recalled ? ' (the last clean answer stands)' : guessed ? ' (the early check stands)' : ''
    log?.(`tangled ${report.documents.length} documents; checking ${roots.length} files${how}`)
    if (early && !guessed) abandon.abort()
    if (recalled) {
      this.stand(recalled)
      const diagnostics = [...report.diagnostics, ...extra, ...this.map(recalled)]
      const elapsedMs = performance.now() - started
      return {tangle: report, diagnostics, checkedFiles: roots.length, checker: 'native', remembered: true, elapsedMs}
    }
    let checker: CheckReport['checker'] = 'native'
    let compilation: {check: Promise<ProgramCheck>; snapshot?: Snapshot}
    if (this.native) compilation = guessed ? early! : this.compile(roots, memory)
    else {
      checker = 'warm'
      // A new warm program loads every generated file; one already warm was updated above.
      compilation = {
        check: this.warmProgram()
          .then((warm) => warm.ask({type: 'check-program'}))
          .then((problems) => ({problems, read: []})),
      }
    }
    // While the compiler runs in its own process, hold the skills to their capabilities here.
    const skills = roots.filter((file) => this.generated.isSkill(file))
    const sandbox = await this.sandbox(skills)
    log?.(`sandbox rules done on ${skills.length} skill files`)
    const result = await compilation.check.catch((error: Error) => error)
    const configuration = this.tsconfig ?? this.options.project ?? process.cwd()
    let found: Diagnostic[]
    if (result instanceof Error) found = [diagnostic(configuration, compilerFailed(result.message))]
    else {
      this.stand(result.problems)
      found = this.map(result.problems)
      // A clean answer is remembered, for the next check to give while nothing it came from changes.
      if (compilation.snapshot && !found.some(isError) && !sandbox.some(isError)) {
        const kept = memory!.remember(compilation.snapshot, grants, result.read, result.problems)
        log?.(kept ? 'a clean answer: remembered' : 'a clean answer, not remembered: a file it read changed meanwhile')
      }
    }
    log?.(`${checker} compiler done: ${found.length} problems`)
    const diagnostics = [...report.diagnostics, ...extra, ...found, ...sandbox]
    const elapsedMs = performance.now() - started
    return {tangle: report, diagnostics, checkedFiles: roots.length, checker, remembered: false, elapsedMs}
  }

  /**
   * Tangle changed documents again with TANGLE; check their files and the files that import them directly, on
   * the warm program. A change that reaches further (an inferred type that flows through an importer to its own
   * importers) is caught by the next `check`. With no warm program, the native compiler checks instead
   * (`recheckNatively`).
   */
  async recheck(tangle: () => Promise<TangleReport>): Promise<CheckReport> {
    const started = performance.now()
    const {report, extra, touched} = this.record(await tangle())
    log?.(`tangled ${report.documents.length} changed documents`)
    if (!this.ready && this.native) return this.recheckNatively(report, extra, touched, started)
    // Asked for once the tangle is done, not before: a program idle meanwhile would have ended under the question.
    const {checked, problems} = await (await this.warmProgram()).ask({type: 'recheck', files: touched})
    log?.(`program updated; checked ${checked.length} files`)
    this.stand(problems, checked)
    const sandbox = await this.sandbox(checked.filter((file) => this.generated.isSkill(file)))
    const diagnostics = [...report.diagnostics, ...extra, ...this.map(problems), ...sandbox]
    log?.('checked')
    const elapsedMs = performance.now() - started
    return {tangle: report, diagnostics, checkedFiles: checked.length, checker: 'warm', remembered: false, elapsedMs}
  }

  /**
   * A re-check with no warm program ready (none built yet, being built, or its process left, idle): the native
   * compiler checks the whole program as the warm one would hold it, with the TOUCHED files (a deferred document's
   * too), in a fifth to a half of a second where building the warm program took 1.3 to 1.8 s of CPU. That is the
   * touched files and every file that imports them, directly or not, each with all it imports: as strict as the warm
   * re-check (the touched files and their direct importers) and more, and the problems of the other files are those
   * `check` reports. A second such save within the idle time has the warm program built afterwards, in the
   * background (`warmUp`); the saves that come while it is built are checked here too.
   */
  private async recheckNatively(
    report: TangleReport,
    extra: Diagnostic[],
    touched: readonly string[],
    started: number,
  ): Promise<CheckReport> {
    const roots = [...new Set([...this.warmRoots(), ...touched])].filter((file) => fs.existsSync(file)).sort()
    // A program being built may have read the touched files before this save wrote them: it reads them again after.
    this.warm?.then((warm) => warm.ask({type: 'update', files: [...touched], ifHeld: []})).catch(() => {})
    const refused = this.refusal()
    const compilation = refused ? Promise.reject(refused) : this.native!.checkProgram(roots)
    // The sandbox rules read each file alone: the touched ones are all that can have changed.
    const sandbox = await this.sandbox(touched.filter((file) => fs.existsSync(file) && this.generated.isSkill(file)))
    const result = await compilation.catch((error: Error) => error)
    let found: Diagnostic[]
    if (result instanceof Error)
      found = [diagnostic(this.tsconfig ?? this.options.project ?? process.cwd(), compilerFailed(result.message))]
    else {
      const saved = new Set(touched)
      const fresh = result.problems.filter((problem) => saved.has(problem.file ?? '') || !this.stands(problem))
      this.stand(result.problems)
      found = this.map(fresh)
    }
    log?.(`native re-check done: ${found.length} problems in ${roots.length} files`)
    // The warm program is built for a second save within the idle time of the first, not for one save alone: a core
    // saved once (as the tests save theirs) pays the native check and not the build, 1.3 to 1.8 s of CPU
    // (measurements.md).
    const idleMs = this.options.idleMs ?? CHECKER_IDLE_MS
    const again = this.nativeDone !== undefined && started - this.nativeDone < idleMs
    this.nativeDone = performance.now()
    // After the check, not beside it: on two cores the build would slow the answer the save waits for.
    if (again && !this.warm) {
      log?.('a second save: the warm program is built for the next')
      this.warmUp().catch((error: Error) => log?.(`the warm program could not be built: ${error.message}`))
    }
    const diagnostics = [...report.diagnostics, ...extra, ...found, ...sandbox]
    const elapsedMs = performance.now() - started
    return {tangle: report, diagnostics, checkedFiles: roots.length, checker: 'native', remembered: false, elapsedMs}
  }

  /** PROBLEMS are what the compiler found in FILES (every file of the program when not given): what stands there now. */
  private stand(problems: readonly TsProblem[], files?: readonly string[]): void {
    if (files) for (const file of files) this.standing.delete(file)
    else this.standing.clear()
    for (const problem of problems) {
      const file = problem.file ?? ''
      this.standing.set(file, (this.standing.get(file) ?? new Set()).add(problemKey(problem)))
    }
  }

  /** Whether PROBLEM was found by the last check or re-check of its file. */
  private stands(problem: TsProblem): boolean {
    return this.standing.get(problem.file ?? '')?.has(problemKey(problem)) === true
  }

  /** FILES are not what the last re-check tangled any more (they were put back as they were): the program reads them again. */
  async reread(files: readonly string[]): Promise<void> {
    const update = {type: 'update' as const, files: [...files], ifHeld: []}
    // A program still being built reads them once it is, before any re-check asks it: the save does not wait for it.
    if (this.ready) await this.ready.ask(update)
    else this.warm?.then((warm) => warm.ask(update)).catch(() => {})
  }

  /** Load every generated file into the warm program and check one, so that the first `recheck` after a save is as fast as the next. */
  async warmUp(): Promise<void> {
    const building = this.warmProgram()
    const warm = await building
    await warm.ask({type: 'prime'})
    // Not when its process ended meanwhile: the next save starts another.
    if (this.warm === building) this.ready = warm
  }

  /**
   * Each of SKILLS' findings by the sandbox rules, judged in the type checker's process: there TypeScript's parser
   * (ts-morph) is loaded, and leaves with it once idle. Loaded in the process that asks, it stayed there for as long as
   * that ran: 60 MB of a core that had judged its skills as it booted (docs/design/measurements.md).
   */
  async judge(skills: SandboxSuspect[]): Promise<SandboxFinding[][]> {
    return (await this.checkerProcess()).ask({type: 'sandbox', skills})
  }

  /** End the type checker's process, when there is one. */
  async close(): Promise<void> {
    await this.process?.then(
      (warm) => warm.close(),
      () => {},
    )
  }

  /** The generated files the warm program starts from: all but those of the deferred documents (`deferred`). */
  private warmRoots(): string[] {
    return this.generated.all().filter((file) => !this.isDeferred(file))
  }

  private isDeferred(file: string): boolean {
    const {deferred} = this.options
    const document = this.generated.documentOf(file)
    return deferred !== undefined && document !== undefined && isInside(document, deferred)
  }

  /** Record what REPORT's documents wrote; the diagnostics of the document graph as it now stands. */
  private record(report: TangleReport) {
    const extra: Diagnostic[] = []
    const touched = report.documents.flatMap((document) => this.generated.record(document, extra))
    for (const document of report.documents) {
      const before = this.documents.get(document.path)
      if (document.meta) this.documents.set(document.path, document.meta)
      else this.documents.delete(document.path)
      if (JSON.stringify(before) !== JSON.stringify(document.meta)) this.graphDiagnostics = undefined
    }
    this.graphDiagnostics ??= this.graph()
    extra.unshift(...this.graphDiagnostics)
    log?.('document graph built')
    return {report, extra, touched}
  }

  /** The memory of the last clean check, when this checker remembers (`CheckerOptions.tool`) and is native. */
  private memory(): CheckMemory | undefined {
    const {tool, project} = this.options
    if (!this.native || !tool || !project) return undefined
    // An answer holds for the options it was given: another installation's modules are others.
    const compiler = `${compilerIdentity(this.native.compiler)} ${JSON.stringify(this.installed ?? {})}`
    const parts = {tool, compiler, tsconfig: this.tsconfig}
    return CheckMemory.open(stateFile(project, 'check'), parts)
  }

  /** Start the native compiler on ROOTS; with MEMORY, the files it is about to read are looked at first. */
  private compile(roots: readonly string[], memory: CheckMemory | undefined, signal?: AbortSignal) {
    const refused = this.refusal()
    if (refused) return {check: Promise.reject(refused)}
    const snapshot = memory?.snapshot(roots, configurationInputs(this.options.project!, this.tsconfig))
    return {snapshot, check: this.native!.checkProgram(roots, signal)}
  }

  /**
   * Why no compiler may start now: a file of the configuration it reads cannot be read (compiler-inputs.ts). Asked
   * at each start, not once: a file put right is read by the next one.
   */
  private refusal(): Error | undefined {
    const why = unreadableConfiguration(this.options.project, this.tsconfig)
    return why === undefined ? undefined : new Error(why)
  }

  /**
   * The document graph's diagnostics, with the skills as the core loads them: a twin (a second skill document
   * of a name, skill-twins.ts) is refused by the core, so a word that names its file names the other one; the
   * installation's shipped skills that no skill of the project replaces are documents a dependency may name, as
   * the core boots them beside (their own diagnostics are the installation's, not said). Then each skill
   * document's need of a skill API this installation does not give, which the core refuses too.
   */
  private graph(): Diagnostic[] {
    const skills = this.options.project && skillsFolder(this.options.project)
    const isSkill = (file: string) => skills !== undefined && isInside(file, skills)
    const twins = skills ? skillTwins([...this.documents.keys()].filter(isSkill)) : new Map()
    const documents = [...this.documents.values()].filter((meta) => !twins.has(meta.path))
    const api = documents.filter((meta) => isSkill(meta.path)).flatMap((meta) => apiVersionProblem(meta) ?? [])
    const own = new Set(documents.filter((meta) => isSkill(meta.path)).map((meta) => path.basename(meta.path)))
    const shipped = this.shippedSkills().filter((meta) => !own.has(path.basename(meta.path)))
    const graph = buildGraph([...documents, ...shipped], {base: this.options.project ?? process.cwd()})
    const installed = new Set(shipped.map((meta) => meta.path))
    return [...graph.diagnostics.filter((message) => !installed.has(message.file ?? '')), ...api]
  }

  /** What the installation's shipped skill documents declare, read once; none in the installation itself. */
  private shippedSkills(): DocumentMeta[] {
    const {project} = this.options
    const home = installationRoot()
    if (project === undefined || isInstallation(project, home)) return []
    const folder = skillsFolder(home)
    this.shipped ??= fs.existsSync(folder)
      ? listOrgFiles(folder).map((file) => documentMeta(file, readOrg(fs.readFileSync(file)).root))
      : []
    return this.shipped
  }

  /**
   * The documents FILES are gone: what they declared leaves the graph, and what they wrote the checked program
   * (their files stay on disk until a tangle with --prune removes them).
   */
  forget(files: readonly string[]): void {
    for (const file of files) {
      if (this.documents.delete(file)) this.graphDiagnostics = undefined
      this.generated.forget(file)
    }
  }

  /**
   * The warm program, started with every generated file but the deferred documents' when there is none: on the
   * first call, and on the first after the last one ended (idle for `idleMs`, or gone).
   */
  private warmProgram(): Promise<WarmProgram> {
    const refused = this.refusal()
    if (refused) return Promise.reject(refused)
    this.warm ??= this.checkerProcess().then(async (warm) => {
      await warm.ask({type: 'update', files: this.warmRoots(), ifHeld: []})
      return warm
    })
    return this.warm
  }

  /** The type checker's process, started when first asked for; it ends once idle (`idleMs`), and the next ask starts another. */
  private checkerProcess(): Promise<WarmProgram> {
    if (this.process) return this.process
    const refused = this.refusal()
    if (refused) return Promise.reject(refused)
    const programIdleMs = this.options.idleMs ?? CHECKER_IDLE_MS
    const idleMs = () => (this.warm ? programIdleMs : Math.min(programIdleMs, JUDGING_IDLE_MS))
    // Loaded on demand: a one-shot check with the native compiler of skills judged before never pays for ts-morph.
    const started: Promise<WarmProgram> = import('../check/warm-program.ts').then(({WarmProgram}) => {
      const onEnded = () => {
        if (this.process !== started) return
        this.process = undefined
        this.warm = undefined
        this.ready = undefined
      }
      return WarmProgram.start(this.tsconfig, this.installed, {idleMs, onEnded})
    })
    this.process = started
    return started
  }

  private map(problems: TsProblem[]): Diagnostic[] {
    const fallback = this.tsconfig ?? this.options.project ?? ''
    return problems.map((problem) => this.generated.diagnosticOf(problem, fallback))
  }

  /**
   * The sandbox diagnostics of the skill FILES whose text may hold a violation and whose clean verdict is not
   * remembered, judged in the type checker's process (`judge`); a file found clean is remembered.
   */
  private async sandbox(files: readonly string[]): Promise<Diagnostic[]> {
    const {verdicts} = this.options
    const suspects = files.flatMap((file) => {
      const text = suspectText(file)
      const skill = this.generated.skillOfFile(file)
      return text === undefined || !skill || verdicts?.isClean(file, text, skill.granted) ? [] : [{file, text, skill}]
    })
    if (suspects.length === 0) return []
    const skills = suspects.map(({file, text, skill}) => ({file, text, skill: skill.name, granted: [...skill.granted]}))
    const findings = await this.judge(skills).catch((error: Error) => error)
    if (findings instanceof Error) {
      return [diagnostic(this.tsconfig ?? this.options.project ?? process.cwd(), compilerFailed(findings.message))]
    }
    const diagnostics = suspects.flatMap(({file, text, skill}, k) => {
      if (findings[k]!.length === 0) verdicts?.rememberClean(file, text, skill.granted)
      return this.generated.sandboxDiagnostics(file, findings[k]!)
    })
    verdicts?.save()
    return diagnostics
  }
}

/**
 * The tsconfig.json that configures the compiler: the PROJECT's own; outside any project, the nearest at or
 * above FOLDER, as an editor's TypeScript finds the one of a file (a literate library with no package.json
 * keeps one); undefined for the defaults (checker.ts).
 */
function tsconfigOf(project: string | undefined, folder: string | undefined): string | undefined {
  if (project) {
    const own = path.join(project, 'tsconfig.json')
    return fs.existsSync(own) ? own : undefined
  }
  if (!folder) return undefined
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const found = path.join(dir, 'tsconfig.json')
    if (fs.existsSync(found)) return found
    if (path.dirname(dir) === dir) return undefined
  }
}

export function hasCheckErrors(report: CheckReport): boolean {
  return report.diagnostics.some(isError)
}

/** PROBLEM as one string: its place, its code and its words. */
function problemKey({file, line, column, code, message}: TsProblem): string {
  return `${file ?? ''}:${line}:${column}:${code}:${message}`
}
