/**
 * Which names of a file stand for a Node module, a function of one, or a
 * `require` function, so that the sandbox rules see through aliases:
 *
 *     import * as files from 'node:fs'        files         → fs
 *     const {writeFileSync: put} = require('fs')   put      → fs.writeFileSync
 *     const req = createRequire(import.meta.url)   req      → a require
 *     const p = files.promises                      p        → fs
 *
 * Names are tracked per file, not per scope: a skill is small, and a name
 * that shadows a module binding in an inner scope errs towards a report.
 */
import {ts} from 'ts-morph'

export type Binding =
  | {kind: 'module'; module: string}
  | {kind: 'member'; module: string; member: string}
  | {kind: 'require'}
  | {kind: 'createRequire'}

/** `node:fs/promises` → `fs`: the module family a specifier belongs to. */
export function moduleFamily(specifier: string): string {
  return specifier.replace(/^node:/, '').split('/')[0]!
}

export class ModuleBindings {
  private readonly bindings = new Map<string, Binding>()
  /** Every name the file declares (variables, parameters, functions, classes, imports): such a name is not the global. */
  readonly declared = new Set<string>()

  constructor(source: ts.SourceFile) {
    const pending: ts.Node[] = [source]
    while (pending.length > 0) {
      const node = pending.pop()!
      this.collect(node)
      // Children in source order, so that an alias sees the binding it copies.
      const children: ts.Node[] = []
      ts.forEachChild(node, (child) => {
        children.push(child)
      })
      for (let k = children.length - 1; k >= 0; k--) pending.push(children[k]!)
    }
  }

  get(name: string): Binding | undefined {
    return this.bindings.get(name)
  }

  /** The module EXPRESSION evaluates to (`fs`, `require('fs')`, `await import('fs')`, `fs.promises`), or undefined. */
  moduleOf(expression: ts.Expression): string | undefined {
    const node = skipOuter(expression)
    if (ts.isIdentifier(node)) {
      const binding = this.bindings.get(node.text)
      return binding?.kind === 'module' ? binding.module : undefined
    }
    if (ts.isAwaitExpression(node)) return this.moduleOf(node.expression)
    if (ts.isCallExpression(node) && this.isRequireCall(node)) {
      const specifier = literalText(node.arguments[0])
      return specifier === undefined ? undefined : moduleFamily(specifier)
    }
    const access = accessedName(node)
    if (access && (access.name === 'promises' || access.name === 'default')) return this.moduleOf(access.object)
    return undefined
  }

  /** A call that loads a module: `require(…)`, `import(…)`, `module.require(…)`, a function `createRequire` made, `createRequire(…)(…)`. */
  isRequireCall(call: ts.CallExpression): boolean {
    const callee = skipOuter(call.expression)
    if (callee.kind === ts.SyntaxKind.ImportKeyword) return true
    if (ts.isIdentifier(callee)) return callee.text === 'require' || this.bindings.get(callee.text)?.kind === 'require'
    if (ts.isPropertyAccessExpression(callee)) return ts.isIdentifier(callee.expression) && callee.expression.text === 'module' && callee.name.text === 'require'
    return ts.isCallExpression(callee) && this.isCreateRequire(callee)
  }

  private isCreateRequire(call: ts.CallExpression): boolean {
    const callee = skipOuter(call.expression)
    if (ts.isIdentifier(callee)) return this.bindings.get(callee.text)?.kind === 'createRequire'
    const access = accessedName(callee)
    return access !== undefined && access.name === 'createRequire' && this.moduleOf(access.object) === 'module'
  }

  private collect(node: ts.Node): void {
    if (ts.isImportDeclaration(node)) this.collectImport(node)
    else if (ts.isImportEqualsDeclaration(node)) {
      this.declared.add(node.name.text)
      const specifier = ts.isExternalModuleReference(node.moduleReference) ? literalText(node.moduleReference.expression) : undefined
      if (specifier !== undefined && !node.isTypeOnly) this.bindings.set(node.name.text, {kind: 'module', module: moduleFamily(specifier)})
    } else if (ts.isVariableDeclaration(node)) this.collectVariable(node)
    else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name) this.declared.add(node.name.text)
    else if (ts.isParameter(node) || ts.isBindingElement(node)) this.declareNames(node.name)
  }

  private collectImport(node: ts.ImportDeclaration): void {
    const clause = node.importClause
    const specifier = literalText(node.moduleSpecifier)
    if (!clause || specifier === undefined) return
    const module = moduleFamily(specifier)
    if (clause.name) this.bind(clause.name.text, {kind: 'module', module}, clause.isTypeOnly)
    const named = clause.namedBindings
    if (named && ts.isNamespaceImport(named)) this.bind(named.name.text, {kind: 'module', module}, clause.isTypeOnly)
    else if (named) {
      for (const element of named.elements) this.bind(element.name.text, memberBinding(module, (element.propertyName ?? element.name).text), clause.isTypeOnly || element.isTypeOnly)
    }
  }

  private collectVariable(node: ts.VariableDeclaration): void {
    this.declareNames(node.name)
    if (!node.initializer) return
    const init = skipOuter(node.initializer)
    if (ts.isIdentifier(node.name)) {
      const binding = this.bindingOf(init)
      if (binding) this.bindings.set(node.name.text, binding)
      return
    }
    const module = this.moduleOf(init)
    if (module === undefined || !ts.isObjectBindingPattern(node.name)) return
    for (const element of node.name.elements) {
      const imported = element.propertyName ?? element.name
      if (ts.isIdentifier(element.name) && (ts.isIdentifier(imported) || ts.isStringLiteral(imported))) this.bindings.set(element.name.text, memberBinding(module, imported.text))
    }
  }

  /** What a variable initialised with INIT stands for. */
  private bindingOf(init: ts.Expression): Binding | undefined {
    if (ts.isIdentifier(init)) return this.bindings.get(init.text)
    if (ts.isCallExpression(init) && this.isCreateRequire(init)) return {kind: 'require'}
    const module = this.moduleOf(init)
    if (module !== undefined) return {kind: 'module', module}
    const access = accessedName(init)
    const owner = access && this.moduleOf(access.object)
    return access && owner !== undefined ? memberBinding(owner, access.name) : undefined
  }

  private bind(name: string, binding: Binding, typeOnly: boolean): void {
    this.declared.add(name)
    if (!typeOnly) this.bindings.set(name, binding)
  }

  private declareNames(name: ts.BindingName): void {
    if (ts.isIdentifier(name)) this.declared.add(name.text)
    // Patterns: their elements are visited as binding elements.
  }
}

function memberBinding(module: string, member: string): Binding {
  if (member === 'promises' || member === 'default') return {kind: 'module', module}
  if (module === 'module' && member === 'createRequire') return {kind: 'createRequire'}
  return {kind: 'member', module, member}
}

/** `x.name` or `x['name']`: the object and the name, or undefined. */
export function accessedName(node: ts.Node): {object: ts.Expression; name: string} | undefined {
  if (ts.isPropertyAccessExpression(node)) return {object: node.expression, name: node.name.text}
  if (ts.isElementAccessExpression(node)) {
    const name = literalText(node.argumentExpression)
    return name === undefined ? undefined : {object: node.expression, name}
  }
  return undefined
}

/** The text of a string literal or a template without substitutions. */
export function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined
}

/** The expression inside parentheses, `as`, `!` and `satisfies`. */
export function skipOuter(node: ts.Expression): ts.Expression {
  let current = node
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) current = current.expression
  return current
}
