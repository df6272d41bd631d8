/**
 * A project while it is open: one object owns its documents (read once,
 * through the tangle cache), what they wrote (written.ts), the document graph
 * and, once a command checks, the type checker (project-checker.ts). Every
 * command goes through it (`tangle`, `check`, `deps`, `watch`, `run`), and so
 * does the core, which reads its skills from it (`readSkill`, `skillGraph`):
 * a skill document the session tangled is not planned again to be loaded.
 *
 * What a command that only tangles loads is kept small: the checker, the
 * reader and the planner are imported when something needs them (a run the
 * cache answers for reads no document).
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {readDotenv} from '../dotenv.ts'
import {buildGraph, type DocumentGraph, withDependencies} from '../graph/document-graph.ts'
import {readFailed} from '../messages/io.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {appliedRules, SandboxVerdicts} from '../check/sandbox-verdicts.ts'
import type {SandboxSuspect} from '../check/warm-messages.ts'
import type {DetangleReport} from '../detangle/files.ts'
import {isInside, listOrgFiles, skillsFolder} from '../project.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import {readToolchainSettings, type ToolchainSettings} from '../settings.ts'
import {TangleCache} from '../tangle/cache.ts'
import {DiskView} from '../tangle/disk.ts'
import type {SourceMaps} from '../tangle/run-document.ts'
import type {DocumentPlan} from '../tangle/tangle-document.ts'
import {type Replaced, type TangleReport, tangle} from '../tangle/tangle.ts'
import {hashOf, WrittenFiles} from '../tangle/written.ts'
import type {CheckReport, ProjectChecker} from './project-checker.ts'
import type {SkillDocument} from './skill-documents.ts'
import {fileStamp, type KeptPlan, planMeta, SkillPlans} from './skill-plans.ts'

export interface SessionOptions {
  /** The project root, or undefined for files outside any project. */
  project: string | undefined
  /** Where the tangle's state is kept for files outside any project: the folder given (cache.ts). */
  stateFolder?: string
  /** Folders outside the project where targets may go. */
  allowOutside?: readonly string[]
  /** Check with ts-morph even when the native compiler is installed. */
  warmOnly?: boolean
  /** The folder whose documents join the warm type checker only once one of them is re-checked (project-checker.ts). */
  deferred?: string
  /** Skip the documents unchanged since the last tangle (the tangle cache); on by default. */
  cache?: boolean
  /**
   * How long the warm type checker's process waits with nothing asked before it ends (warm-program.ts):
   * PASSEPARTOUT_CHECKER_IDLE_MS (settings.ts) when it is set, else `CHECKER_IDLE_MS` (project-checker.ts).
   */
  checkerIdleMs?: number
}

/** What one run of a command asks beyond the session's options. */
export interface RunRequest {
  /** Remove the files documents no longer write, when they hold exactly what was tangled. */
  prune?: boolean
  /** The folders the run covers, where a document that no longer exists leaves orphans. */
  folders?: readonly string[]
  /** Plan and report, write nothing. */
  dryRun?: boolean
}

export class ProjectSession {
  /** Where the project's skill documents are (the only definition: `skillsFolder`); undefined outside a project. */
  readonly skillsFolder: string | undefined
  readonly allowOutside: readonly string[]
  /** What each document wrote (written.ts), kept for the session. */
  private readonly written: WrittenFiles | undefined
  /** The tangle cache, read once and kept for the session. */
  private readonly cache: TangleCache | undefined
  /** The sandbox rules' clean verdicts (sandbox-verdicts.ts): a module judged before, or a copy of it, is not parsed again. */
  private readonly verdicts: SandboxVerdicts | undefined
  /** The plans of the skill documents tangled last, which the core loads from (with their Org file's stamp). */
  private readonly skillPlans = new Map<string, KeptPlan & {stamp: string}>()
  /** The same plans kept between processes, beside the tangle cache: a boot does not plan unchanged skills again. */
  private readonly keptPlans: SkillPlans | undefined
  private checker: Promise<ProjectChecker> | undefined
  /** The toolchain's settings (settings.ts), read as the session starts: the environment over the project's .env. */
  private readonly settings: ToolchainSettings
  /** What reading them found wrong: the .env that could not be read, a value a setting's row refuses. */
  readonly settingsProblems: Diagnostic[]
  /**
   * What the last check or re-check found wrong in each document's code (types, sandbox rules): a skill with such
   * a problem is not loaded (`readSkill`), so that the type check gates what the core runs.
   */
  private readonly checked = new Map<string, Diagnostic[]>()

  constructor(private readonly options: SessionOptions) {
    const state = options.project ?? options.stateFolder
    this.allowOutside = options.allowOutside ?? []
    this.written = state ? WrittenFiles.open(state) : undefined
    const dotenv = options.project === undefined ? undefined : readDotenv(options.project)
    this.settings = readToolchainSettings(process.env, dotenv)
    this.settingsProblems = [...(dotenv?.problems ?? []), ...this.settings.problems]
    const tool = this.settings.build ?? ''
    this.cache =
      state && options.cache !== false ? TangleCache.open(state, {tool, allowOutside: this.allowOutside}) : undefined
    this.verdicts =
      state && options.cache !== false ? SandboxVerdicts.open(state, appliedRules(this.settings.build)) : undefined
    this.keptPlans = state && options.cache !== false ? SkillPlans.open(state, tool, this.allowOutside) : undefined
    this.skillsFolder = options.project && skillsFolder(options.project)
  }

  get project(): string | undefined {
    return this.options.project
  }

  /** The project's Org documents: every one under its org/ folder. */
  documents(): string[] {
    const org = this.options.project && path.join(this.options.project, 'org')
    return org && fs.existsSync(org) ? listOrgFiles(org) : []
  }

  /**
   * Tangle FILES (Org documents): write what they tangle to, as `passepartout tangle` does. The source maps there
   * are kept right and none is made: they serve the commands that run or check the code, which write them.
   */
  tangle(files: readonly string[], request: RunRequest = {}): Promise<TangleReport> {
    return this.tangleFiles(files, {cache: true, maps: 'update', ...request})
  }

  /** Tangle FILES and check the whole program their TypeScript files make (types, the document graph, sandbox rules). */
  async check(files: readonly string[], request: RunRequest = {}): Promise<CheckReport> {
    const checker = await this.typeChecker()
    return this.remember(
      await checker.check(files, () =>
        this.tangleFiles(files, {cache: true, prune: request.prune, folders: request.folders}),
      ),
    )
  }

  /**
   * Tangle the CHANGED documents again, whatever the cache says (it would only save reading them), and check
   * their files and the files that import them, on the warm program. A document that then has an error of its
   * own leaves its files as they were before (`keptOut`): the last good output stays in place while its author
   * fixes it, as it does for an Org error, which writes nothing.
   */
  async recheck(changed: readonly string[]): Promise<CheckReport> {
    const checker = await this.typeChecker()
    // What a tangle or detangle in another terminal recorded meanwhile is this record too.
    this.written?.refresh()
    const recorded = new Map(changed.map((document) => [document, this.written?.entriesOf(document)]))
    const replaced = new Map<string, Replaced>()
    const report = await checker.recheck(() => this.tangleFiles(changed, {cache: false, replaced}))
    const keptOut = this.keepLastGood(report, replaced, recorded)
    if (keptOut.files.length > 0) await checker.reread(keptOut.files)
    return this.remember({...report, keptOut: keptOut.documents})
  }

  /**
   * Put back what the documents of REPORT that have errors of their own wrote over (REPLACED), and their record
   * of it (RECORDED, before the tangle), so that nothing takes the files put back for an edit; the cache forgets
   * them, so that the next tangle writes them again rather than take them for tangled. Their paths, and the files
   * put back.
   */
  private keepLastGood(
    report: CheckReport,
    replaced: ReadonlyMap<string, Replaced>,
    recorded: ReadonlyMap<string, ReturnType<WrittenFiles['entriesOf']>>,
  ): {documents: string[]; files: string[]} {
    const broken = new Set(report.diagnostics.filter(isError).map((message) => message.file))
    const documents = report.tangle.documents.filter(
      (document) => broken.has(document.path) && document.targets.some((target) => replaced.has(target.path)),
    )
    const files = documents.flatMap((document) => putBack(document.targets, replaced))
    for (const document of documents) {
      this.written?.restore(document.path, recorded.get(document.path))
      this.cache?.forget(document.path)
    }
    this.written?.save()
    this.cache?.save()
    return {documents: documents.map((document) => document.path), files}
  }

  /** Keep what REPORT says of each document's code: the problems of every document it tangled or found a problem in. */
  private remember(report: CheckReport): CheckReport {
    for (const document of report.tangle.documents) this.checked.delete(document.path)
    for (const message of report.diagnostics) {
      if (
        !message.fatal ||
        !message.file ||
        !(message.ruleId === 'ts' || String(message.ruleId).startsWith('sandbox/'))
      )
        continue
      this.checked.set(message.file, [...(this.checked.get(message.file) ?? []), message])
    }
    return report
  }

  /**
   * FILES, documents that were removed, are forgotten: the plans kept of them, what the last check found in
   * them, and, by the checker, what they declared (the document graph) and the files they wrote.
   */
  async forget(files: readonly string[]): Promise<void> {
    for (const file of files) {
      this.skillPlans.delete(file)
      this.keptPlans?.forget(file)
      this.checked.delete(file)
    }
    if (this.checker) (await this.checker).forget(files)
  }

  /**
   * Bring the edits of generated FILES back into the Org documents that wrote them (tools/detangle/); no FILES: every
   * file the record holds under the project (or the state folder) whose bytes are no longer what was written.
   * DISPLAY names a file in the messages.
   */
  async detangle(
    files: readonly string[],
    display: (file: string) => string = (file) => file,
  ): Promise<DetangleReport> {
    const [{detangleFiles}, {planBytes}] = await Promise.all([
      import('../detangle/files.ts'),
      import('../tangle/run-document.ts'),
    ])
    const folder = this.options.project ?? this.options.stateFolder
    if (!this.written || folder === undefined) return {changes: [], refusals: [], documents: [], settled: []}
    this.written.refresh()
    const disk = new DiskView()
    return detangleFiles({
      files,
      folder,
      written: this.written,
      plan: (document, bytes) => planBytes(document, bytes, this.allowOutside, disk),
      display,
    })
  }

  /** The document recorded to have written FILE (a generated file), or undefined. */
  writerOf(file: string): string | undefined {
    this.written?.refresh()
    return this.written?.documentOf(file)
  }

  /** The folders that hold the files the record says documents of the project (or the state folder) wrote. */
  generatedFolders(): string[] {
    const folder = this.options.project ?? this.options.stateFolder
    if (!this.written || folder === undefined) return []
    return [...new Set(this.written.targetsUnder(folder).map(({target}) => path.dirname(target)))].sort()
  }

  /**
   * What each document under FOLDER wrote when it was last tangled (the session's record): its files, each with a
   * hash of what it holds now (`TargetOutcome.hash` is the same hash). Empty for a folder the record does not
   * cover (outside the project).
   */
  outputsUnder(folder: string): Map<string, Map<string, string>> {
    const outputs = new Map<string, Map<string, string>>()
    for (const document of this.written?.documentsUnder(folder) ?? []) {
      const files = new Map<string, string>()
      for (const target of this.written!.targetsOf(document)) {
        // A file gone, or one that is no regular file (read as a project's file: a named pipe waited for good),
        // holds nothing a tangle would write.
        const read = readProjectFile(target, ORG_DOCUMENT_MAX_BYTES)
        files.set(target, read.ok ? hashOf(read.bytes) : '')
      }
      outputs.set(document, files)
    }
    return outputs
  }

  /**
   * Make the first re-check after a save as fast as the next (see ProjectChecker.warmUp). Not with
   * PASSEPARTOUT_WARM_UP=0, which the tests set for the cores and watchers they start: the warm-up is seconds of CPU
   * (half of a test that boots this repository's core twice), and a first save builds the program as it comes.
   */
  async warmUp(): Promise<void> {
    if (!this.settings.warmUp) return
    await (await this.typeChecker()).warmUp()
  }

  /** End what the session runs beside its caller: the warm type checker's process, while there is one. */
  async close(): Promise<void> {
    if (this.checker) await (await this.checker).close()
  }

  /**
   * The document graph of FILES: what each declares, from the tangle cache when it answers for a document,
   * else read (the reader only: nothing is planned or written).
   */
  async graph(files: readonly string[]): Promise<{graph: DocumentGraph; documents: DocumentMeta[]}> {
    const unreadable: Diagnostic[] = []
    const documents: DocumentMeta[] = []
    for (const file of files) {
      const meta = await this.metaOf(file)
      if ('ruleId' in meta) unreadable.push(meta)
      else documents.push(meta)
    }
    const graph = buildGraph(documents, {base: this.options.project ?? process.cwd()})
    graph.diagnostics.unshift(...unreadable)
    return {graph, documents}
  }

  /**
   * FILES and the project's documents they depend on (#+DEPENDS_ON:, directly or not), in load order: what a check
   * of FILES alone needs, so that a dependency the project holds is not taken for one no document answers.
   */
  async withDependencies(files: readonly string[]): Promise<string[]> {
    const {graph} = await this.graph([...new Set([...this.documents(), ...files])])
    return withDependencies(graph, files)
  }

  /** The project's skill documents, sorted; none outside a project. */
  skillFiles(): string[] {
    return this.skillsFolder && fs.existsSync(this.skillsFolder) ? listOrgFiles(this.skillsFolder) : []
  }

  /** Whether FILE is one of the project's skill documents. */
  isSkill(file: string): boolean {
    return this.skillsFolder !== undefined && isInside(file, this.skillsFolder)
  }

  /**
   * The skill document FILE as the core loads it: from the plan of the session's last tangle of it when the
   * Org file has not changed since, or else the plan a session before kept (`SkillPlans`), else planned now (nothing
   * written); blocked when the session's last check found its code wrong. DISK is shared by the reads of a boot.
   */
  async readSkill(file: string, disk = new DiskView()): Promise<SkillDocument> {
    const {skillDocumentOf} = await import('./skill-documents.ts')
    const stamp = fileStamp(file)
    const {plan, meta} = (stamp !== undefined && this.keptPlan(file, stamp)) || (await this.planSkill(file, disk))
    this.keepPlan(file, plan, stamp, meta)
    const sandbox = {
      judge: async (skills: SandboxSuspect[]) => (await this.typeChecker()).judge(skills),
      verdicts: this.verdicts,
    }
    const document = await skillDocumentOf(plan, meta, this.options.project ?? path.dirname(file), disk, sandbox)
    this.verdicts?.save()
    const problems = this.checked.get(file)
    if (document.blocked || !problems) return document
    return {
      ...document,
      problems,
      blocked: problems.some((message) => String(message.ruleId).startsWith('sandbox/')) ? 'sandbox-blocked' : 'failed',
    }
  }

  /** The plan of FILE kept while it has STAMP: this session's, or one a session before kept. */
  private keptPlan(file: string, stamp: string): KeptPlan | undefined {
    const kept = this.skillPlans.get(file)
    return kept?.stamp === stamp ? kept : this.keptPlans?.get(file, stamp)
  }

  /** FILE planned now, and what it declares. */
  private async planSkill(file: string, disk: DiskView): Promise<KeptPlan> {
    const {planFile} = await import('../tangle/run-document.ts')
    const plan = planFile(file, this.allowOutside, disk)
    return {plan, meta: planMeta(plan)}
  }

  /** The skill documents FILES, read side by side, their folders looked at once (`readSkill`). */
  readSkills(files: readonly string[]): Promise<SkillDocument[]> {
    const disk = new DiskView()
    return Promise.all(files.map((file) => this.readSkill(file, disk)))
  }

  /** What the project's documents that are not skills declare: a skill may depend on one by its ID or name (`skillGraph`). */
  async otherDocuments(): Promise<DocumentMeta[]> {
    const others: DocumentMeta[] = []
    for (const file of this.documents().filter((document) => !this.isSkill(document))) {
      const meta = await this.metaOf(file)
      if (!('ruleId' in meta)) others.push(meta)
    }
    return others
  }

  /** What FILE declares: from the cache or the reader; an io/read diagnostic when it cannot be read. */
  private async metaOf(file: string): Promise<DocumentMeta | Diagnostic> {
    const cached = this.cache?.lookup(file)
    if (cached) return {path: file, ...cached.meta}
    const [{readOrg}, {documentMeta}] = await Promise.all([
      import('../org/parse.ts'),
      import('../org/document-meta.ts'),
    ])
    const read = readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
    return read.ok ? documentMeta(file, readOrg(read.bytes).root) : diagnostic(file, readFailed(file, read.why))
  }

  /** Tangle FILES, keeping the plans of skill documents for the core. */
  private async tangleFiles(
    files: readonly string[],
    request: {cache: boolean; replaced?: Map<string, Replaced>; maps?: SourceMaps} & RunRequest,
  ): Promise<TangleReport> {
    this.written?.refresh()
    const report = await tangle({
      files: [...files],
      allowOutside: this.allowOutside,
      cache: request.cache ? this.cache : undefined,
      sourceMaps: request.maps ?? 'write',
      written: this.written,
      prune: request.prune,
      folders: request.folders,
      dryRun: request.dryRun,
      keepPlans: (document) => this.isSkill(document),
      replaced: request.replaced,
    })
    for (const document of report.documents) {
      if (!document.plan) continue
      this.keepPlan(document.path, document.plan, fileStamp(document.path))
      // Kept by the session, not by the report that goes back to the caller.
      delete document.plan
    }
    return report
  }

  /**
   * Keep PLAN of FILE (with META, what it declares) while FILE has STAMP, here and for the sessions after; a file
   * whose stamp cannot be trusted is planned again when asked.
   */
  private keepPlan(file: string, plan: DocumentPlan, stamp: string | undefined, meta?: DocumentMeta): void {
    if (stamp === undefined) {
      this.skillPlans.delete(file)
      return
    }
    const kept = {plan, meta: meta ?? planMeta(plan)}
    this.skillPlans.set(file, {...kept, stamp})
    this.keptPlans?.keep(file, stamp, kept)
  }

  private typeChecker(): Promise<ProjectChecker> {
    this.checker ??= import('./project-checker.ts').then(
      ({ProjectChecker}) =>
        new ProjectChecker({
          project: this.options.project,
          folder: this.options.stateFolder,
          allowOutside: this.allowOutside,
          warmOnly: this.options.warmOnly === true,
          writtenBefore: (files) => this.written?.filesOf(files),
          tool: this.options.cache === false ? undefined : this.settings.build,
          verdicts: this.verdicts,
          deferred: this.options.deferred,
          idleMs: this.options.checkerIdleMs ?? this.settings.checkerIdleMs,
        }),
    )
    return this.checker
  }
}

/**
 * Put each of TARGETS back as REPLACED says it was (a file that was not there is removed), each written beside
 * and renamed over it, so that a reader never sees half of one; the paths put back. Those REPLACED does not name
 * were not changed.
 */
function putBack(targets: readonly {path: string}[], replaced: ReadonlyMap<string, Replaced>): string[] {
  const put: string[] = []
  for (const {path: target} of targets) {
    if (!replaced.has(target)) continue
    const was = replaced.get(target)!
    if (was === null) fs.rmSync(target, {force: true})
    else {
      const beside = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.restore`)
      fs.writeFileSync(beside, was.bytes, {mode: was.mode})
      fs.chmodSync(beside, was.mode)
      fs.renameSync(beside, target)
    }
    put.push(target)
  }
  return put
}
