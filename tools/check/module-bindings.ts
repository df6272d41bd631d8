/**
 * What a name or an expression of a skill stands for, so that the sandbox
 * rules see through aliases and know a local name from the global it hides:
 *
 *     import * as files from 'node:fs'             files  → the module fs
 *     const {writeFileSync: put} = require('fs')   put    → fs.writeFileSync
 *     const req = createRequire(import.meta.url)   req    → a loader
 *     const p = files.promises                     p      → the module fs
 *     function run(eval: Run) { eval(code) }       eval   → a parameter, not the global
 *
 * Names are resolved by scope, as JavaScript resolves them. The rules' walk
 * hands every node to `record`; a name's value is worked out when first asked,
 * once every declaration is known, so hoisting and later declarations count.
 * Declarations that do not run (`declare`, type-only imports) hide nothing.
 */
import {ts} from 'ts-morph'
import {
  accessedName,
  isTypeOnlyDeclaration,
  isTypeOnlyName,
  literalText,
  propertyNameText,
  skipOuter,
} from './sandbox-syntax.ts'

export type Value =
  /** A module object: a namespace or default import, what `require` returns, `fs.promises`. */
  | {kind: 'module'; module: string}
  | {kind: 'member'; module: string; member: string}
  /** A global the file does not declare; `globalThis` stands for the global object under any of its names. */
  | {kind: 'global'; name: string}
  /** A function that loads a module by name: `require`, `import()`, `module.require`, `process.getBuiltinModule`, what `createRequire` returns. */
  | {kind: 'loader'}
  | {kind: 'createRequire'}

const LOADER: Value = {kind: 'loader'}
const K = ts.SyntaxKind
/** The kinds of node `record` looks at; every other node declares nothing. */
const DECLARING = new Set([
  K.ImportClause,
  K.NamespaceImport,
  K.ImportSpecifier,
  K.ImportEqualsDeclaration,
  K.VariableDeclaration,
  K.BindingElement,
  K.Parameter,
  K.FunctionDeclaration,
  K.ClassDeclaration,
  K.EnumDeclaration,
  K.ModuleDeclaration,
  K.FunctionExpression,
  K.ClassExpression,
])
const GLOBAL_OBJECT: Value = {kind: 'global', name: 'globalThis'}
const GLOBAL_OBJECT_NAMES = new Set(['globalThis', 'global', 'self', 'window'])

/** `node:fs/promises` → `fs`: the module family a specifier belongs to. */
export function moduleFamily(specifier: string): string {
  return specifier.replace(/^node:/, '').split('/')[0]!
}

export class ModuleBindings {
  /** The names each scope (source file, block, function, `for`, `catch`) declares, and the node that declares each. */
  private readonly scopes = new Map<ts.Node, Map<string, ts.Node>>()
  private readonly values = new Map<ts.Node, Value | undefined>()

  /** Note the name NODE declares, if any: called on every node of the file that runs. */
  record(node: ts.Node): void {
    if (!DECLARING.has(node.kind)) return
    if (ts.isImportClause(node)) {
      if (node.name && !node.isTypeOnly) this.declare(node.name, node, 'block')
    } else if (ts.isNamespaceImport(node) || ts.isImportSpecifier(node)) {
      if (!isTypeOnlyName(node)) this.declare(node.name, node, 'block')
    } else if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly) this.declare(node.name, node, 'block')
    } else if (ts.isVariableDeclaration(node) || ts.isBindingElement(node)) {
      if (ts.isIdentifier(node.name)) this.declareVariable(node.name, node)
    } else if (ts.isParameter(node)) {
      if (ts.isIdentifier(node.name)) this.scope(node.parent).set(node.name.text, node)
    } else if (
      (ts.isFunctionDeclaration(node) && node.body) ||
      ts.isClassDeclaration(node) ||
      (ts.isEnumDeclaration(node) && !isConstEnum(node)) ||
      (ts.isModuleDeclaration(node) && isInstantiated(node))
    ) {
      if (node.name && ts.isIdentifier(node.name)) this.declare(node.name, node, 'block')
    } else if (ts.isFunctionExpression(node) || ts.isClassExpression(node)) {
      // The name of a function or class expression is seen only inside it.
      if (node.name) this.scope(node).set(node.name.text, node)
    }
  }

  /** The node that declares NAME where it is used, or undefined for a global. */
  declarationOf(name: ts.Identifier): ts.Node | undefined {
    for (let scope: ts.Node | undefined = name.parent; scope; scope = scope.parent) {
      const found = this.scopes.get(scope)?.get(name.text)
      if (found) return found
    }
    return undefined
  }

  /** What EXPRESSION evaluates to, as far as the rules follow it. */
  valueOf(expression: ts.Expression): Value | undefined {
    const node = skipOuter(expression)
    if (node.kind === ts.SyntaxKind.ImportKeyword) return LOADER
    if (ts.isIdentifier(node)) {
      const declaration = this.declarationOf(node)
      return declaration ? this.valueOfDeclaration(declaration) : globalValue(node.text)
    }
    if (ts.isAwaitExpression(node)) return this.valueOf(node.expression)
    if (ts.isCallExpression(node)) {
      const callee = this.valueOf(node.expression)
      if (callee?.kind === 'createRequire') return LOADER
      return callee?.kind === 'loader' ? moduleValue(node.arguments[0]) : undefined
    }
    const access = accessedName(node)
    return access && memberValue(this.valueOf(access.object), access.name)
  }

  /** What the object a destructuring ELEMENT takes apart stands for, and the name it takes (undefined when computed). */
  destructured(element: ts.BindingElement): {owner: Value | undefined; name: string | undefined} {
    const pattern = element.parent
    const source = pattern.parent
    const owner = ts.isVariableDeclaration(source)
      ? source.initializer && this.valueOf(source.initializer)
      : ts.isBindingElement(source)
        ? this.valueOfDeclaration(source)
        : undefined
    return {
      owner,
      name:
        ts.isObjectBindingPattern(pattern) && !element.dotDotDotToken
          ? propertyNameText(element.propertyName ?? element.name)
          : undefined,
    }
  }

  /** What the name a declaration binds stands for; for `export … from`, what it exports. */
  valueOfDeclaration(node: ts.Node): Value | undefined {
    if (this.values.has(node)) return this.values.get(node)
    this.values.set(node, undefined) // a cycle (`var a = b, b = a`) stands for nothing
    const value = this.declaredValue(node)
    this.values.set(node, value)
    return value
  }

  private declaredValue(node: ts.Node): Value | undefined {
    if (ts.isImportClause(node)) return moduleValue(node.parent.moduleSpecifier)
    if (ts.isNamespaceImport(node)) return moduleValue(node.parent.parent.moduleSpecifier)
    if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) {
      const declaration = ts.isImportSpecifier(node) ? node.parent.parent.parent : node.parent.parent
      return memberValue(moduleValue(declaration.moduleSpecifier), propertyNameText(node.propertyName ?? node.name)!)
    }
    if (ts.isExportDeclaration(node)) return node.moduleSpecifier && moduleValue(node.moduleSpecifier)
    if (ts.isImportEqualsDeclaration(node))
      return ts.isExternalModuleReference(node.moduleReference)
        ? moduleValue(node.moduleReference.expression)
        : this.valueOfEntity(node.moduleReference)
    if (ts.isVariableDeclaration(node)) return node.initializer && this.valueOf(node.initializer)
    if (ts.isBindingElement(node)) {
      const {owner, name} = this.destructured(node)
      // `const {...rest} = fs` keeps the module's functions.
      if (node.dotDotDotToken && ts.isObjectBindingPattern(node.parent)) return owner
      return name === undefined ? undefined : memberValue(owner, name)
    }
    return undefined
  }

  /** `import x = globalThis.eval` aliases what the name stands for, as `const x = globalThis.eval` would. */
  private valueOfEntity(name: ts.EntityName): Value | undefined {
    if (ts.isIdentifier(name)) {
      const declaration = this.declarationOf(name)
      return declaration ? this.valueOfDeclaration(declaration) : globalValue(name.text)
    }
    return memberValue(this.valueOfEntity(name.left), name.right.text)
  }

  private declareVariable(name: ts.Identifier, node: ts.VariableDeclaration | ts.BindingElement): void {
    let root: ts.Node = node
    while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root))
      root = root.parent
    if (ts.isParameter(root)) this.scope(root.parent).set(name.text, node)
    else if (ts.isCatchClause(root.parent)) this.scope(root.parent).set(name.text, node)
    else this.declare(name, node, ts.getCombinedNodeFlags(root) & ts.NodeFlags.BlockScoped ? 'block' : 'function')
  }

  /** `let`, `const`, classes and (in a module's strict code) functions belong to the nearest block; `var` to the nearest function. */
  private declare(name: ts.Identifier, node: ts.Node, reach: 'block' | 'function'): void {
    let scope = node.parent
    while (!(reach === 'block' ? isBlockScope(scope) : isFunctionScope(scope))) scope = scope.parent
    this.scope(scope).set(name.text, node)
  }

  private scope(node: ts.Node): Map<string, ts.Node> {
    let names = this.scopes.get(node)
    if (!names) this.scopes.set(node, (names = new Map()))
    return names
  }
}

/**
 * A namespace declares a value only when it holds code that runs: `namespace fetch {}` or one of types only
 * emits nothing, and the name still means the global at run time.
 */
function isInstantiated(node: ts.ModuleDeclaration): boolean {
  const body = node.body
  if (!body) return false
  if (ts.isModuleDeclaration(body)) return isInstantiated(body)
  if (!ts.isModuleBlock(body)) return false
  return body.statements.some((statement) => {
    if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword)
    )
      return false
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) return false
    if (ts.isModuleDeclaration(statement)) return isInstantiated(statement)
    if (ts.isEnumDeclaration(statement)) return !isConstEnum(statement)
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) return !isTypeOnlyDeclaration(statement)
    if (ts.isImportEqualsDeclaration(statement)) return !statement.isTypeOnly
    return true
  })
}

/** A `const enum` is inlined where it is used and declares nothing at run time. */
function isConstEnum(node: ts.EnumDeclaration): boolean {
  return (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Const) !== 0
}

function globalValue(name: string): Value {
  if (GLOBAL_OBJECT_NAMES.has(name)) return GLOBAL_OBJECT
  if (name === 'process') return {kind: 'module', module: 'process'}
  if (name === 'require') return LOADER
  return {kind: 'global', name}
}

/**
 * What member NAME of OWNER stands for. Any method called `require` or
 * `_load` counts as a loader, whatever it belongs to: `module.require`,
 * `process.mainModule.require`, `module.constructor._load`.
 */
function memberValue(owner: Value | undefined, name: string): Value | undefined {
  if (name === 'require' || name === '_load') return LOADER
  if (owner === GLOBAL_OBJECT) return globalValue(name)
  if (owner?.kind !== 'module') return undefined
  if (name === 'default' || (owner.module === 'fs' && name === 'promises')) return owner
  if (owner.module === 'module' && name === 'createRequire') return {kind: 'createRequire'}
  if ((owner.module === 'module' && name === 'register') || (owner.module === 'process' && name === 'getBuiltinModule'))
    return LOADER
  return {kind: 'member', module: owner.module, member: name}
}

function moduleValue(specifier: ts.Node | undefined): Value | undefined {
  const text = literalText(specifier)
  return text === undefined ? undefined : {kind: 'module', module: moduleFamily(text)}
}

function isBlockScope(node: ts.Node): boolean {
  return (
    isFunctionScope(node) ||
    ts.isBlock(node) ||
    ts.isCaseBlock(node) ||
    ts.isForStatement(node) ||
    ts.isForInStatement(node) ||
    ts.isForOfStatement(node) ||
    ts.isCatchClause(node)
  )
}

function isFunctionScope(node: ts.Node): boolean {
  return (
    ts.isSourceFile(node) || ts.isModuleBlock(node) || ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)
  )
}
