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
  /** Files with a path (`./later.ts`) that leads nowhere yet: a file added later may be where it leads. */
  private readonly waiting = new Set<string>()
  /**
   * Where package names (`zod`, `node:os`) lead: through node_modules/, which no document writes, so it is kept
   * for the session. Paths are resolved without it: it would remember a file that is not there yet as missing.
   */
  private readonly packages: ts.ModuleResolutionCache
  /** The configuration maps names to files (`paths`, `baseUrl`): any name may lead to a document's file. */
  private readonly mapped: boolean

  constructor(
    private readonly options: ts.CompilerOptions,
    private readonly host: ts.ModuleResolutionHost,
  ) {
    const folder = host.getCurrentDirectory?.() ?? process.cwd()
    this.packages = ts.createModuleResolutionCache(folder, (name) => name, options)
    this.mapped = options.paths !== undefined || options.baseUrl !== undefined
  }

  /** Whether FILE is indexed as writing exactly NAMES. */
  writes(file: string, names: readonly ModuleName[]): boolean {
    return this.names.has(file) && key(this.names.get(file)!) === key(names)
  }

  /**
   * Take CHANGES, each a file with the names it now writes, or undefined when it left the program. Where a path
   * leads changes with the files there are: when files come, those whose paths led nowhere are resolved again;
   * when a file goes, those whose paths led to it.
   */
  update(changes: ReadonlyMap<string, readonly ModuleName[] | undefined>): void {
    const again = new Set<string>()
    let added = false
    for (const [file, names] of changes) {
      if (names === undefined) {
        for (const importer of this.importers.get(file) ?? []) again.add(importer)
        this.link(file, new Set())
        this.names.delete(file)
        this.waiting.delete(file)
      } else if (!this.writes(file, names)) {
        added ||= !this.names.has(file)
        this.names.set(file, names)
        again.add(file)
      }
    }
    if (added) for (const file of this.waiting) again.add(file)
    for (const file of again) if (this.names.has(file)) this.resolve(file)
  }

  /** The files whose names lead to FILE. */
  importersOf(file: string): ReadonlySet<string> {
    return this.importers.get(file) ?? new Set()
  }

  private resolve(file: string): void {
    const found = new Set<string>()
    let waits = false
    for (const {text, mode} of this.names.get(file)!) {
      const local = this.mapped || isPath(text)
      const cache = local ? undefined : this.packages
      const {resolvedModule} = ts.resolveModuleName(text, file, this.options, this.host, cache, undefined, mode)
      if (resolvedModule) found.add(resolvedModule.resolvedFileName)
      else waits ||= local
    }
    if (waits) this.waiting.add(file)
    else this.waiting.delete(file)
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
}

/** Whether NAME is a path (`./base.ts`, `../x`, `/abs`), not a package's name. */
function isPath(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || name.startsWith('/') || name === '.' || name === '..'
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
