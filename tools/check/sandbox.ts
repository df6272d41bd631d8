/**
 * The sandbox rules, the original system's restricted-symbol check ported to
 * TypeScript: a skill's code may not run programs, start threads, evaluate
 * code, reach into the runtime, write files or use the network unless its
 * document grants the capability (capabilities.ts).
 *
 * The rules read the syntax tree, not the text: an alias (`const cp =
 * require('child_process')`, `const {exec} = await import('node:child_process')`)
 * is caught, and a string or a comment that merely names a module is not.
 * Type-only imports run nothing and pass.
 */
import {ts} from 'ts-morph'
import type {RuleId} from '../diagnostics.ts'
import type {Capability} from './capabilities.ts'
import {accessedName, literalText, ModuleBindings, moduleFamily, skipOuter} from './module-bindings.ts'

export interface Violation {
  ruleId: Extract<RuleId, `sandbox/${string}`>
  /** The capability that would allow it. */
  capability: Capability
  /** What the code uses, as a reader would name it: `child_process`, `fs.writeFileSync`, `eval`. */
  what: string
  /** 0-based offset of the offending node in the file's text (UTF-16 code units). */
  start: number
}

type Rule = Pick<Violation, 'ruleId' | 'capability'>

const RESTRICTED_MODULES: Record<string, Rule> = {
  child_process: {ruleId: 'sandbox/restricted-import', capability: 'shell'},
  worker_threads: {ruleId: 'sandbox/restricted-import', capability: 'threads'},
  cluster: {ruleId: 'sandbox/restricted-import', capability: 'threads'},
  vm: {ruleId: 'sandbox/restricted-import', capability: 'eval'},
  inspector: {ruleId: 'sandbox/restricted-import', capability: 'native'},
  ...Object.fromEntries(['net', 'http', 'https', 'http2', 'dgram', 'tls', 'dns'].map((name) => [name, {ruleId: 'sandbox/network', capability: 'net'}])),
}

const DYNAMIC_CODE: Rule = {ruleId: 'sandbox/dynamic-code', capability: 'eval'}
const NATIVE: Rule = {ruleId: 'sandbox/native-access', capability: 'native'}
const NETWORK: Rule = {ruleId: 'sandbox/network', capability: 'net'}
const FS_WRITE: Rule = {ruleId: 'sandbox/fs-write', capability: 'fs'}

/** The functions of `fs` and `fs/promises` that change the file system. */
const FS_WRITES = new Set(
  ['writeFile', 'appendFile', 'mkdir', 'mkdtemp', 'rm', 'rmdir', 'unlink', 'rename', 'copyFile', 'cp', 'symlink', 'link', 'chmod', 'lchmod', 'chown', 'lchown', 'truncate', 'ftruncate', 'utimes', 'lutimes', 'write', 'writev']
    .flatMap((name) => [name, `${name}Sync`])
    .concat(['createWriteStream']),
)
/** `open` writes unless its flags are a read-only literal (no flags means `'r'`). */
const FS_OPENS = new Set(['open', 'openSync', 'openAsBlob'])
const READ_ONLY_FLAGS = new Set(['r', 'rs', 'sr'])

const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource'])
const NATIVE_MEMBERS = new Set(['binding', 'dlopen', '_linkedBinding'])
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'self', 'window'])

/** The syntax tree of TEXT, the content of FILE, as the rules read it. */
export function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
}

/** Every use in SOURCE of a capability GRANTED does not hold, in the order of the text. */
export function findSandboxViolations(source: ts.SourceFile, granted: ReadonlySet<Capability>): Violation[] {
  const bindings = new ModuleBindings(source)
  const found = new Map<string, Violation>()
  const report = (rule: Rule, what: string, node: ts.Node) => {
    if (granted.has(rule.capability)) return
    const start = node.getStart(source)
    found.set(`${start}:${rule.ruleId}`, {...rule, what, start})
  }
  const loads = (specifierNode: ts.Node | undefined, at: ts.Node) => {
    const specifier = literalText(specifierNode)
    const rule = specifier === undefined ? undefined : RESTRICTED_MODULES[moduleFamily(specifier)]
    if (rule) report(rule, moduleFamily(specifier!), at)
  }
  const pending: ts.Node[] = [source]
  while (pending.length > 0) {
    const node = pending.pop()!
    ts.forEachChild(node, (child) => {
      pending.push(child)
    })
    if (ts.isImportDeclaration(node)) {
      if (!isTypeOnlyImport(node)) loads(node.moduleSpecifier, node.moduleSpecifier)
    } else if (ts.isExportDeclaration(node)) {
      if (!node.isTypeOnly && node.moduleSpecifier) loads(node.moduleSpecifier, node.moduleSpecifier)
    } else if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) loads(node.moduleReference.expression, node.moduleReference.expression)
    } else if (ts.isCallExpression(node)) {
      callViolations(node, bindings, report, loads)
    } else if (ts.isNewExpression(node)) {
      const callee = skipOuter(node.expression)
      if (isGlobal(callee, 'Function', bindings)) report(DYNAMIC_CODE, 'new Function', node)
    } else if (ts.isIdentifier(node) && isValueReference(node) && !bindings.declared.has(node.text)) {
      if (node.text === 'eval') report(DYNAMIC_CODE, 'eval', node)
      else if (NETWORK_GLOBALS.has(node.text)) report(NETWORK, node.text, node)
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      memberViolations(node, bindings, report)
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && isProcess(skipOuter(node.initializer), bindings)) {
      for (const element of node.name.elements) {
        const name = literalText(element.propertyName) ?? (element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : ts.isIdentifier(element.name) ? element.name.text : '')
        if (NATIVE_MEMBERS.has(name)) report(NATIVE, `process.${name}`, element)
      }
    }
  }
  return [...found.values()].sort((a, b) => a.start - b.start)
}

export function violationMessage(skill: string, violation: Violation): string {
  return `skill '${skill}' uses ${violation.what} without the '${violation.capability}' capability`
}

type Report = (rule: Rule, what: string, node: ts.Node) => void

function callViolations(call: ts.CallExpression, bindings: ModuleBindings, report: Report, loads: (specifier: ts.Node | undefined, at: ts.Node) => void): void {
  const callee = skipOuter(call.expression)
  if (bindings.isRequireCall(call)) {
    const [argument] = call.arguments
    const kind = callee.kind === ts.SyntaxKind.ImportKeyword ? 'import()' : 'require()'
    if (argument && literalText(argument) === undefined) report(DYNAMIC_CODE, `${kind} of a computed name`, call)
    else loads(argument, argument ?? call)
    return
  }
  if (isGlobal(callee, 'Function', bindings)) return report(DYNAMIC_CODE, 'Function()', call)
  const write = fsFunction(callee, bindings)
  if (write && (FS_WRITES.has(write) || (FS_OPENS.has(write) && !isReadOnlyOpen(call)))) report(FS_WRITE, `fs.${write}`, call)
}

/** The fs function CALLEE names (`fs.writeFile`, `promises.rm`, a destructured `writeFileSync`), or undefined. */
function fsFunction(callee: ts.Expression, bindings: ModuleBindings): string | undefined {
  if (ts.isIdentifier(callee)) {
    const binding = bindings.get(callee.text)
    return binding?.kind === 'member' && binding.module === 'fs' ? binding.member : undefined
  }
  const access = accessedName(callee)
  return access && bindings.moduleOf(access.object) === 'fs' ? access.name : undefined
}

function isReadOnlyOpen(call: ts.CallExpression): boolean {
  const flags = call.arguments[1]
  if (!flags) return true
  const text = literalText(flags)
  return text !== undefined && READ_ONLY_FLAGS.has(text)
}

function memberViolations(node: ts.PropertyAccessExpression | ts.ElementAccessExpression, bindings: ModuleBindings, report: Report): void {
  const access = accessedName(node)
  if (!access) return
  const object = skipOuter(access.object)
  if (NATIVE_MEMBERS.has(access.name) && isProcess(object, bindings)) report(NATIVE, `process.${access.name}`, node)
  else if (ts.isIdentifier(object) && GLOBAL_OBJECTS.has(object.text) && !bindings.declared.has(object.text)) {
    if (access.name === 'eval') report(DYNAMIC_CODE, 'eval', node)
    else if (NETWORK_GLOBALS.has(access.name)) report(NETWORK, access.name, node)
  }
}

/** The global `process` (or `globalThis.process`, or the `process` module). */
function isProcess(node: ts.Expression, bindings: ModuleBindings): boolean {
  if (ts.isIdentifier(node)) return (node.text === 'process' && !bindings.declared.has('process')) || bindings.moduleOf(node) === 'process'
  const access = accessedName(node)
  if (access && access.name === 'process') return isGlobalObject(skipOuter(access.object), bindings)
  return bindings.moduleOf(node) === 'process'
}

/** NODE is the global NAME: the identifier, undeclared in the file, or `globalThis.NAME`. */
function isGlobal(node: ts.Expression, name: string, bindings: ModuleBindings): boolean {
  if (ts.isIdentifier(node)) return node.text === name && !bindings.declared.has(name)
  const access = accessedName(node)
  return access !== undefined && access.name === name && isGlobalObject(skipOuter(access.object), bindings)
}

function isGlobalObject(node: ts.Expression, bindings: ModuleBindings): boolean {
  return ts.isIdentifier(node) && GLOBAL_OBJECTS.has(node.text) && !bindings.declared.has(node.text)
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause
  if (!clause) return false // `import 'child_process'` runs the module.
  if (clause.isTypeOnly) return true
  const named = clause.namedBindings
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly)
}

/** An identifier that reads a variable: not a declaration's name, a property name or a type. */
function isValueReference(node: ts.Identifier): boolean {
  const parent = node.parent
  if (!parent) return false
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false
  if (ts.isQualifiedName(parent) && parent.right === node) return false
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === node) return false
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false
  if ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) && parent.propertyName === node) return false
  if (ts.isTypeReferenceNode(parent) || ts.isTypeQueryNode(parent) || ts.isExpressionWithTypeArguments(parent)) return false
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isClassDeclaration(parent) || ts.isBindingElement(parent)) && parent.name === node) return false
  return true
}
