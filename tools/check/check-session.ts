/**
 * `passepartout check`: tangle, then check what was generated, every problem
 * reported at the Org line it came from.
 *
 * `checkAll` checks the whole program with the native compiler (ts-morph when
 * the native one is missing) while the sandbox rules parse the skills' files
 * in this process. A long-lived session (the watcher) then calls `recheck`
 * after each save: it tangles the changed documents again and checks only
 * their files and the files that import them, on a warm ts-morph program.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {ts} from 'ts-morph'
import {type Diagnostic, isError} from '../diagnostics.ts'
import {buildGraph} from '../graph/document-graph.ts'
import {type DocumentMeta, documentMeta} from '../graph/document-meta.ts'
import {type TangleReport, tangle} from '../tangle/tangle.ts'
import type {TsProblem} from './checker.ts'
import {GeneratedFiles} from './generated-files.ts'
import {NativeChecker, nativeCompiler, nativeWorkDir} from './native-checker.ts'
import type {WarmChecker} from './warm-checker.ts'

export interface CheckReport {
  tangle: TangleReport
  /** The tangler's diagnostics, the document graph's, then the checker's. */
  diagnostics: Diagnostic[]
  /** TypeScript files whose problems were looked for. */
  checkedFiles: number
  /** Which compiler checked them. */
  checker: 'native' | 'warm'
  elapsedMs: number
}

export interface CheckSessionOptions {
  /** The project root, or undefined for files outside any project. */
  project: string | undefined
  allowOutside?: boolean
  /** Check with ts-morph even when the native compiler is installed. */
  warmOnly?: boolean
}

export class CheckSession {
  private readonly generated: GeneratedFiles
  /** What each document checked so far says of its IDs and dependencies. */
  private readonly documents = new Map<string, DocumentMeta>()
  private readonly tsconfig: string | undefined
  private readonly native: NativeChecker | undefined
  private warm: WarmChecker | undefined

  constructor(private readonly options: CheckSessionOptions) {
    this.generated = new GeneratedFiles(options.project)
    const tsconfig = options.project && path.join(options.project, 'tsconfig.json')
    this.tsconfig = tsconfig && fs.existsSync(tsconfig) ? tsconfig : undefined
    const compiler = options.warmOnly ? undefined : nativeCompiler()
    this.native = compiler === undefined ? undefined : new NativeChecker(compiler, this.tsconfig, nativeWorkDir(options.project))
  }

  /** Tangle every one of FILES (Org documents) and check the whole program their TypeScript files make. */
  async checkAll(files: string[]): Promise<CheckReport> {
    const started = performance.now()
    const {report, extra, touched} = this.tangle(files)
    this.warm?.update(touched)
    const roots = this.generated.all()
    let checker: CheckReport['checker'] = 'native'
    let problems: Promise<TsProblem[]>
    if (this.native) problems = this.native.checkProgram(roots)
    else {
      checker = 'warm'
      problems = this.warmChecker().then((warm) => warm.checkProgram(roots))
    }
    // While the compiler runs in its own process, parse the skills here.
    const skills = roots.filter((file) => this.generated.isSkill(file))
    const sandbox = skills.length > 0 ? await this.sandbox(skills, await syntaxParser()) : []
    const diagnostics = [...report.diagnostics, ...extra, ...this.map(await problems), ...sandbox]
    return {tangle: report, diagnostics, checkedFiles: roots.length, checker, elapsedMs: performance.now() - started}
  }

  /** Tangle CHANGED documents again; check their files and the files that import them, on the warm program. */
  async recheck(changed: string[]): Promise<CheckReport> {
    const warm = await this.warmChecker()
    const started = performance.now()
    const {report, extra, touched} = this.tangle(changed)
    warm.update(touched)
    const checked = [...touched.filter((file) => warm.holds(file))]
    checked.push(...warm.importersOf(checked))
    const sandbox = await this.sandbox(
      checked.filter((file) => this.generated.isSkill(file)),
      (file) => warm.syntaxOf(file),
    )
    const diagnostics = [...report.diagnostics, ...extra, ...this.map(warm.check(checked)), ...sandbox]
    return {tangle: report, diagnostics, checkedFiles: checked.length, checker: 'warm', elapsedMs: performance.now() - started}
  }

  /** Load every generated file into the warm program, so that the first `recheck` after a save is as fast as the next. */
  async warmUp(): Promise<void> {
    const warm = await this.warmChecker()
    warm.update(this.generated.all())
  }

  /** Tangle FILES; record what they wrote; the diagnostics of the document graph as it now stands. */
  private tangle(files: string[]) {
    const report = tangle({files, allowOutside: this.options.allowOutside})
    const extra: Diagnostic[] = []
    const touched = report.documents.flatMap((document) => this.generated.record(document, extra))
    for (const document of report.documents) {
      if (document.plan?.root) this.documents.set(document.path, documentMeta(document.path, document.plan.root))
      else this.documents.delete(document.path)
    }
    extra.unshift(...buildGraph([...this.documents.values()], {base: this.options.project ?? process.cwd()}).diagnostics)
    return {report, extra, touched}
  }

  private async warmChecker(): Promise<WarmChecker> {
    if (!this.warm) {
      // Loaded on demand: a one-shot check with the native compiler never pays for ts-morph's program.
      const {WarmChecker} = await import('./warm-checker.ts')
      this.warm = new WarmChecker(this.tsconfig)
      this.warm.update(this.generated.all())
    }
    return this.warm
  }

  private map(problems: TsProblem[]): Diagnostic[] {
    const fallback = this.tsconfig ?? this.options.project ?? ''
    return problems.map((problem) => this.generated.diagnosticOf(problem, fallback))
  }

  /** The sandbox diagnostics of the skill FILES, parsed by PARSE; the rules are loaded on first use. */
  private async sandbox(files: readonly string[], parse: (file: string) => ts.SourceFile | undefined): Promise<Diagnostic[]> {
    if (files.length === 0) return []
    const rules = await import('./sandbox.ts')
    return files.flatMap((file) => {
      const source = parse(file)
      return source ? this.generated.sandboxDiagnostics(file, source, rules) : []
    })
  }
}

/** A parser of files into syntax trees, for the sandbox rules: TypeScript's, loaded on first use. */
async function syntaxParser(): Promise<(file: string) => ts.SourceFile | undefined> {
  const {ts} = await import('ts-morph')
  return (file) => {
    try {
      return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    } catch {
      return undefined
    }
  }
}

export function hasCheckErrors(report: CheckReport): boolean {
  return report.diagnostics.some(isError)
}
