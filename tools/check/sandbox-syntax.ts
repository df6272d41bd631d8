/**
 * Where a node stands in a skill's syntax tree, as the sandbox rules ask it:
 * whether it runs at all, whether an identifier reads a variable, and what
 * the code does with the value of an expression. Pure questions about the
 * tree; what names stand for is module-bindings.ts.
 */
import {ts} from 'ts-morph'

const K = ts.SyntaxKind
const WRAPPERS = new Set([
  K.ParenthesizedExpression,
  K.AsExpression,
  K.NonNullExpression,
  K.SatisfiesExpression,
  K.TypeAssertionExpression,
])
/** Members through which a value reaches code the rules do not follow: a function's own `call`, a promise's callbacks. */
const HANDING_ON = new Set(['call', 'apply', 'bind', 'then', 'catch', 'finally'])
/** Operators that look at a value without giving access to it. */
const INSPECTING = new Set([
  K.EqualsEqualsEqualsToken,
  K.ExclamationEqualsEqualsToken,
  K.EqualsEqualsToken,
  K.ExclamationEqualsToken,
  K.InstanceOfKeyword,
  K.InKeyword,
])

/**
 * What the code does with a value: calls it, keeps it under a local name,
 * only looks at it or replaces it (`typeof x`, `x === y`, `x = y`), reads one
 * of its members by name, or hands it on where the rules cannot follow.
 */
export type Use =
  | {kind: 'call'; call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression}
  | {kind: 'alias' | 'inspect' | 'member' | 'other'}
export const ALIAS: Use = {kind: 'alias'}
export const OTHER: Use = {kind: 'other'}
const INSPECT: Use = {kind: 'inspect'}
const MEMBER: Use = {kind: 'member'}

/** How the value of NODE is used, looking through parentheses, type assertions and `await`. */
export function useOf(node: ts.Expression): Use {
  let outer: ts.Node = node
  while (isWrapper(outer.parent) || ts.isAwaitExpression(outer.parent)) outer = outer.parent
  const parent = outer.parent
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer)
    return HANDING_ON.has(parent.name.text) ? OTHER : MEMBER
  if (ts.isElementAccessExpression(parent) && parent.expression === outer) {
    const name = literalText(parent.argumentExpression)
    return name === undefined || HANDING_ON.has(name) ? OTHER : MEMBER
  }
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === outer)
    return {kind: 'call', call: parent}
  if (ts.isTaggedTemplateExpression(parent) && parent.tag === outer) return {kind: 'call', call: parent}
  // `const {writeFileSync} = fs` is judged by its elements.
  if (ts.isVariableDeclaration(parent) && parent.initializer === outer)
    return ts.isIdentifier(parent.name) ? declarationUse(parent) : ALIAS
  if (
    ts.isTypeOfExpression(parent) ||
    ts.isVoidExpression(parent) ||
    (ts.isPrefixUnaryExpression(parent) && parent.operator === K.ExclamationToken)
  )
    return INSPECT
  if (
    ts.isBinaryExpression(parent) &&
    (INSPECTING.has(parent.operatorToken.kind) ||
      (parent.operatorToken.kind === K.EqualsToken && parent.left === outer))
  )
    return INSPECT
  if (
    (ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent)) &&
    parent.expression === outer
  )
    return INSPECT
  if (ts.isConditionalExpression(parent) && parent.condition === outer) return INSPECT
  return OTHER
}

/** A local name keeps its value in view; an exported one hands it to other modules. */
export function declarationUse(node: ts.VariableDeclaration | ts.BindingElement): Use {
  let root: ts.Node = node
  while (!ts.isVariableDeclaration(root) && !ts.isParameter(root)) root = root.parent
  return ts.isVariableDeclaration(root) && isExported(root) ? OTHER : ALIAS
}

export function isExported(node: ts.Declaration): boolean {
  return (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0
}

/** Whether NODE is code that runs: not a type, an interface, a type alias or a `declare`d name. A class's `extends` clause runs. */
export function runs(node: ts.Node): boolean {
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return false
  if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((modifier) => modifier.kind === K.DeclareKeyword))
    return false
  if (!ts.isTypeNode(node)) return true
  return (
    ts.isExpressionWithTypeArguments(node) &&
    ts.isHeritageClause(node.parent) &&
    node.parent.token === K.ExtendsKeyword &&
    ts.isClassLike(node.parent.parent)
  )
}

/** An identifier that reads a variable: not the name of a declaration, a property or a label. */
export function isValueReference(node: ts.Identifier): boolean {
  const parent = node.parent as ts.Node & {name?: ts.Node; propertyName?: ts.Node; label?: ts.Node}
  if (ts.isShorthandPropertyAssignment(parent)) return parent.name === node
  // `export {fs}` and `export {fs as files}` read the local `fs`.
  if (ts.isExportSpecifier(parent))
    return (
      !parent.parent.parent.moduleSpecifier && !isTypeOnlyName(parent) && (parent.propertyName ?? parent.name) === node
    )
  return parent.name !== node && parent.propertyName !== node && parent.label !== node && !ts.isQualifiedName(parent)
}

/** An import or export that runs nothing: `import type`, `export type`, or only `{type A, type B}` (an empty `{}` still runs the module). */
export function isTypeOnlyDeclaration(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return (
      node.isTypeOnly ||
      (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && onlyTypes(node.exportClause.elements))
    )
  const clause = node.importClause
  if (!clause) return false
  const named = clause.namedBindings
  return (
    clause.isTypeOnly || (!clause.name && named !== undefined && ts.isNamedImports(named) && onlyTypes(named.elements))
  )
}

function onlyTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly)
}

/** A name an import or export brings in or out for types only. */
export function isTypeOnlyName(node: ts.NamespaceImport | ts.ImportSpecifier | ts.ExportSpecifier): boolean {
  return ts.isNamespaceImport(node) ? node.parent.isTypeOnly : node.isTypeOnly || node.parent.parent.isTypeOnly
}

/** `x.name` or `x['name']`: the object and the name, or undefined when the name is computed. */
export function accessedName(node: ts.Node): {object: ts.Expression; name: string} | undefined {
  if (ts.isPropertyAccessExpression(node)) return {object: node.expression, name: node.name.text}
  if (ts.isElementAccessExpression(node)) {
    const name = literalText(node.argumentExpression)
    return name === undefined ? undefined : {object: node.expression, name}
  }
  return undefined
}

/** The name a property name spells (`a`, `'a'`, `['a']`), or undefined when it is computed. */
export function propertyNameText(node: ts.PropertyName | ts.ModuleExportName | ts.BindingName): string | undefined {
  if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node)) return node.text
  return ts.isComputedPropertyName(node) ? literalText(node.expression) : undefined
}

/** The text of a string literal or a template without substitutions. */
export function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined
}

/** The expression inside parentheses, `as`, `!`, `satisfies` and `<T>`: none of them changes the value. */
export function skipOuter(node: ts.Expression): ts.Expression {
  let current = node
  while (isWrapper(current)) current = current.expression
  return current
}

function isWrapper(
  node: ts.Node,
): node is
  ts.ParenthesizedExpression | ts.AsExpression | ts.NonNullExpression | ts.SatisfiesExpression | ts.TypeAssertion {
  return WRAPPERS.has(node.kind)
}
