/**
 * TypeScript checking with ts-morph, kept warm between checks: the language
 * service behind a ts-morph Project reuses every unchanged source file, so a
 * re-check after one save costs the changed files and their importers, not
 * the whole program (8–25 ms against 5 s at 1000 documents).
 */
import fs from 'node:fs'
import path from 'node:path'
import {Project, type SourceFile, ts} from 'ts-morph'
import {DEFAULT_COMPILER_OPTIONS, type TsProblem} from './checker.ts'
import {ImportIndex, type ModuleName, moduleNamesOf} from './import-index.ts'

/** Edits `prime` goes through. */
const PRIMING_EDITS = 8

export class WarmChecker {
  private readonly project: Project
  /** Who imports whom among the program's own files: kept here, not asked of ts-morph (import-index.ts says why). */
  private readonly index: ImportIndex

  /**
   * A checker with the options of TSCONFIG and ADDED (as tsconfig.json spells them), its files not added: only the
   * roots it is given and what they import.
   */
  constructor(
    readonly tsconfig: string | undefined,
    added: Record<string, unknown> = {},
  ) {
    const options = (json: object) => ts.convertCompilerOptionsFromJson(json, '').options
    this.project = tsconfig
      ? new Project({tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true, compilerOptions: options(added)})
      : new Project({compilerOptions: options({...DEFAULT_COMPILER_OPTIONS, ...added})})
    this.index = new ImportIndex(this.project.getCompilerOptions(), this.project.getModuleResolutionHost())
  }

  /** Problems of the whole program as loaded (see `update`), with the configuration's. */
  checkProgram(): TsProblem[] {
    const own = this.project.getSourceFiles().filter(isOwn)
    return this.check(
      own.map((file) => file.getFilePath()),
      {program: true},
    )
  }

  /** Read FILES (again) from disk into the program, with what they import; forget those that no longer exist. */
  update(files: readonly string[]): void {
    const changes = new Map<string, readonly ModuleName[] | undefined>()
    let importsChanged = false
    for (const file of files) {
      const known = this.project.getSourceFile(file)
      if (!fs.existsSync(file)) {
        if (!known) continue
        this.project.removeSourceFile(known)
        changes.set(file, undefined)
        continue
      }
      const source = known ?? this.project.addSourceFileAtPath(file)
      if (known) known.refreshFromFileSystemSync()
      const names = this.namesOf(source)
      importsChanged ||= !this.index.writes(file, names)
      changes.set(file, names)
    }
    // Looking for the files imports bring in walks the whole program: only when they may have changed.
    if (importsChanged) {
      for (const added of this.project.resolveSourceFileDependencies()) {
        if (isOwn(added)) changes.set(added.getFilePath(), this.namesOf(added))
      }
    }
    this.index.update(changes)
  }

  /**
   * Do once what the first re-checks after loading would otherwise pay for
   * (measured: the first few take 2 to 3 times as long as the rest, while the
   * checker's code gets compiled): go through a few edits in memory, each a
   * new program from the old one and a file checked, then put the text back.
   */
  prime(): void {
    const own = this.project.getSourceFiles().filter(isOwn)
    const sample = own
      .filter((_, k) => k % Math.max(1, Math.floor(own.length / PRIMING_EDITS)) === 0)
      .slice(0, PRIMING_EDITS)
    for (const file of sample) {
      const text = file.getFullText()
      file.replaceWithText(`${text}\n`)
      this.check([file.getFilePath()])
      file.replaceWithText(text)
    }
    this.check(sample.map((file) => file.getFilePath()))
  }

  private namesOf(file: SourceFile): ModuleName[] {
    return moduleNamesOf(file.compilerNode, this.project.getCompilerOptions())
  }

  /** Whether FILE is in the program. */
  holds(file: string): boolean {
    return this.project.getSourceFile(file) !== undefined
  }

  /** The files that import any of FILES themselves, sorted; FILES left out. */
  directImportersOf(files: readonly string[]): string[] {
    const found = new Set<string>()
    for (const file of files) for (const importer of this.index.importersOf(file)) found.add(importer)
    for (const file of files) found.delete(file)
    return [...found].sort()
  }

  /**
   * Read TOUCHED again and check them with the files that import them directly: the files checked, and what was
   * found. A change that reaches further (an inferred type that flows through an importer to its own importers) is
   * caught by the next whole check.
   */
  recheck(touched: readonly string[]): {checked: string[]; problems: TsProblem[]} {
    // The importers of a file that goes away are known only before it goes.
    const importers = this.directImportersOf(touched)
    this.update(touched)
    const kept = touched.filter((file) => this.holds(file))
    const checked = [...new Set([...kept, ...importers, ...this.directImportersOf(kept)])].filter((file) =>
      this.holds(file),
    )
    return {checked, problems: this.check(checked)}
  }

  /** Syntax and type problems of FILES; with `program`, also the configuration's and the program's own. */
  check(files: readonly string[], options: {program?: boolean} = {}): TsProblem[] {
    const program = this.project.getProgram().compilerObject
    const problems: ts.Diagnostic[] = options.program
      ? [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
      : []
    for (const file of files) {
      const source = program.getSourceFile(file)
      if (!source) continue
      problems.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source))
    }
    return problems
      .filter(
        (problem) =>
          problem.category === ts.DiagnosticCategory.Error || problem.category === ts.DiagnosticCategory.Warning,
      )
      .map(toProblem)
  }
}

/** A file of the project's own: not a package's, not declarations. */
function isOwn(file: SourceFile): boolean {
  return !file.isInNodeModules() && !file.isDeclarationFile()
}

function toProblem(problem: ts.Diagnostic): TsProblem {
  const message = ts.flattenDiagnosticMessageText(problem.messageText, '\n')
  const severity = problem.category === ts.DiagnosticCategory.Error ? 'error' : 'warning'
  const code = `TS${problem.code}`
  if (!problem.file || problem.start === undefined)
    return {file: undefined, line: 0, column: 0, code, message, severity}
  const start = problem.file.getLineAndCharacterOfPosition(problem.start)
  return {
    file: path.resolve(problem.file.fileName),
    line: start.line + 1,
    column: start.character + 1,
    code,
    message,
    severity,
  }
}
