/**
 * Who imports whom among the files of a warm program (warm-checker.ts): each
 * file's module names, read from its syntax tree as text, and the files
 * TypeScript's module resolution takes them to.
 *
 * ts-morph answers the same question (`getReferencingSourceFiles`), but its
 * answer keeps a wrapper of every import that leads to no file of the program
 * (`node:os`, whose types are an ambient module) and looks at each again
 * whenever a file is added. A file edited since has a new syntax tree, the
 * wrapper still points into the old one, and adding a file then throws
 * ("Attempted to get information from a node that was removed or forgotten"):
 * a new skill document written while the core ran was not loaded until saved
 * again. This index keeps names and paths, never a node.
 */
import {ts} from 'ts-morph'

/** A module name as a file writes it, with the module system TypeScript resolves it for at that place. */
export interface ModuleName {
  text: string
  mode: ts.ResolutionMode
}

export class ImportIndex {
  /** The module names each file writes. */
  private readonly names = new Map<string, readonly ModuleName[]>()
  /** The files each file's names lead to. */
  private readonly imports = new Map<string, ReadonlySet<string>>()
  private readonly importers = new Map<string, Set<string>>()
  /** Files with a name that leads nowhere: a file added later may be where it leads. */
  private readonly unresolved = new Set<string>()
  private cache: ts.ModuleResolutionCache

  constructor(
    private readonly options: ts.CompilerOptions,
    private readonly host: ts.ModuleResolutionHost,
  ) {
    this.cache = this.newCache()
  }

  /** Whether FILE is indexed as writing exactly NAMES. */
  writes(file: string, names: readonly ModuleName[]): boolean {
    return this.names.has(file) && key(this.names.get(file)!) === key(names)
  }

  /**
   * Take CHANGES, each a file with the names it now writes, or undefined when it left the program. When files
   * come or go, where a name leads may change for files that did not: those whose names led nowhere or to a file
   * that left are resolved again.
   */
  update(changes: ReadonlyMap<string, readonly ModuleName[] | undefined>): void {
    const again = new Set<string>()
    let filesChanged = false
    for (const [file, names] of changes) {
      filesChanged ||= names === undefined || !this.names.has(file)
      if (names === undefined) {
        for (const importer of this.importers.get(file) ?? []) again.add(importer)
        this.link(file, new Set())
        this.names.delete(file)
        this.unresolved.delete(file)
      } else {
        this.names.set(file, names)
        again.add(file)
      }
    }
    if (filesChanged) {
      // The cache remembers names that led nowhere and files that are gone.
      this.cache = this.newCache()
      for (const file of this.unresolved) again.add(file)
    }
    for (const file of again) if (this.names.has(file)) this.resolve(file)
  }

  /** The files whose names lead to FILE. */
  importersOf(file: string): ReadonlySet<string> {
    return this.importers.get(file) ?? new Set()
  }

  private resolve(file: string): void {
    const found = new Set<string>()
    let missing = false
    for (const name of this.names.get(file)!) {
      const {text, mode} = name
      const {resolvedModule} = ts.resolveModuleName(text, file, this.options, this.host, this.cache, undefined, mode)
      if (resolvedModule) found.add(resolvedModule.resolvedFileName)
      else missing = true
    }
    if (missing) this.unresolved.add(file)
    else this.unresolved.delete(file)
    this.link(file, found)
  }

  /** Record that FILE's names now lead to TARGETS. */
  private link(file: string, targets: ReadonlySet<string>): void {
    for (const target of this.imports.get(file) ?? []) this.importers.get(target)?.delete(file)
    for (const target of targets) {
      if (!this.importers.has(target)) this.importers.set(target, new Set())
      this.importers.get(target)!.add(file)
    }
    if (targets.size > 0) this.imports.set(file, targets)
    else this.imports.delete(file)
  }

  private newCache(): ts.ModuleResolutionCache {
    const folder = this.host.getCurrentDirectory?.() ?? process.cwd()
    return ts.createModuleResolutionCache(folder, (name) => name, this.options)
  }
}

/**
 * The modules SYNTAX names (imports, exports from, `import()`, `import('…').Type`), read from the tree
 * itself: ts-morph's accessors would wrap each node they hand out and keep the wrappers.
 */
export function moduleNamesOf(syntax: ts.SourceFile, options: ts.CompilerOptions): ModuleName[] {
  const names: ModuleName[] = []
  const visit = (node: ts.Node): void => {
    const literal = moduleLiteralOf(node)
    if (literal) names.push({text: literal.text, mode: ts.getModeForUsageLocation(syntax, literal, options)})
    ts.forEachChild(node, visit)
  }
  visit(syntax)
  return names
}

/** The string NODE names a module with, when it is an import, an export from, an `import()` or an import type. */
function moduleLiteralOf(node: ts.Node): ts.StringLiteralLike | undefined {
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
    return node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier : undefined
  }
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [argument] = node.arguments
    return argument && ts.isStringLiteralLike(argument) ? argument : undefined
  }
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
    return node.argument.literal
  }
  return undefined
}

function key(names: readonly ModuleName[]): string {
  return names.map((name) => `${name.text}\0${name.mode}`).join('\n')
}
