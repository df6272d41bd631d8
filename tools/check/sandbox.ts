/**
 * The sandbox rules, the original system's restricted-symbol check ported to
 * TypeScript: a skill's code may not run programs, start threads, evaluate
 * code, reach into the runtime, write files or use the network unless its
 * document grants the capability (capabilities.ts).
 *
 * The rules read the syntax tree, not the text, so an alias is caught (`const
 * cp = require('child_process')`, `const {exec} = await import('node:child_process')`)
 * and a string, a comment or a property name that merely names a module is not.
 * Code that does not run passes: type-only imports, types, `declare`.
 *
 * A restricted function is reported where the skill obtains it (`fs.writeFileSync`,
 * `import {writeFile} from 'fs/promises'`, `const {binding} = process`, the
 * global `eval`), so that what it does with it afterwards (call it, alias it,
 * pass it on) does not matter. An object the rules follow into (the fs module,
 * `process`, a loader such as `require`) may be aliased and its members named,
 * but handing it on where the rules cannot follow (an argument, an export,
 * `fs[name]`) is reported too.
 */
import type {SourceFile} from 'ts-morph'
import {ts} from 'ts-morph'
import type {Message} from '../diagnostics.ts'
import {type SandboxRuleId, sandboxViolation} from '../messages/check.ts'
import {builtinName, type Capability, moduleCapability} from './capabilities.ts'
import {ModuleBindings, type Value} from './module-bindings.ts'
import {
  ALIAS,
  declarationUse,
  isExported,
  isTypeOnlyDeclaration,
  isTypeOnlyName,
  isValueReference,
  literalText,
  OTHER,
  propertyNameText,
  runs,
  type Use,
  useOf,
} from './sandbox-syntax.ts'

export type {SandboxRuleId}

export interface Violation {
  ruleId: SandboxRuleId
  /** The capability that would allow it. */
  capability: Capability
  /** What the code uses, as a reader would name it: `child_process`, `fs.writeFileSync`, `eval`. */
  what: string
  /** 0-based offset of the offending node in the file's text, in UTF-16 code units. */
  start: number
}

type Rule = Pick<Violation, 'ruleId' | 'capability'>

const DYNAMIC_CODE: Rule = {ruleId: 'sandbox/dynamic-code', capability: 'eval'}
const NATIVE: Rule = {ruleId: 'sandbox/native-access', capability: 'native'}
const NETWORK: Rule = {ruleId: 'sandbox/network', capability: 'net'}
const FS_WRITE: Rule = {ruleId: 'sandbox/fs-write', capability: 'fs'}

/** The rule a restricted module of Node breaks: the network's own, or a restricted import. */
function moduleRule(capability: Capability): Rule {
  return capability === 'net' ? NETWORK : {ruleId: 'sandbox/restricted-import', capability}
}

/** The functions of `fs` and `fs/promises` that change the file system. */
const FS_WRITES = new Set(
  [
    'writeFile',
    'appendFile',
    'mkdir',
    'mkdtemp',
    'rm',
    'rmdir',
    'unlink',
    'rename',
    'copyFile',
    'cp',
    'symlink',
    'link',
    'chmod',
    'fchmod',
    'lchmod',
    'chown',
    'fchown',
    'lchown',
    'truncate',
    'ftruncate',
    'utimes',
    'futimes',
    'lutimes',
    'write',
    'writev',
  ]
    .flatMap((name) => [name, `${name}Sync`])
    .concat(['createWriteStream', 'WriteStream']),
)
/** `open` writes unless its flags are a literal that only reads (`'r'`, `'rs'`, `0`), or absent. */
const FS_OPENS = new Set(['open', 'openSync'])
/** Reads that write when their options say so (`{flag: 'w'}` truncates the file). */
const FS_READS_WITH_FLAGS = new Set(['readFile', 'readFileSync', 'createReadStream'])
const READ_ONLY_FLAGS = new Set(['r', 'rs', '0'])

const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource'])

/** The syntax tree of TEXT, the content of FILE, as the rules read it. */
export function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
}

/** Every use in SOURCE of a capability GRANTED does not hold, in the order of the text. */
export function findSandboxViolations(
  source: SourceFile | ts.SourceFile,
  granted: ReadonlySet<Capability>,
): Violation[] {
  const file = 'compilerNode' in source ? source.compilerNode : source
  // One walk records the declarations and keeps the nodes that run; the rules then judge them, every name known.
  const bindings = new ModuleBindings()
  const running: ts.Node[] = []
  const pending: ts.Node[] = [file]
  const visit = (child: ts.Node) => {
    pending.push(child)
  }
  while (pending.length > 0) {
    const node = pending.pop()!
    if (!runs(node)) continue
    bindings.record(node)
    running.push(node)
    ts.forEachChild(node, visit)
  }
  const found = new Map<string, Violation>()
  const report: Report = (rule, what, node) => {
    if (granted.has(rule.capability)) return
    const start = node.getStart(file)
    found.set(`${start}:${rule.ruleId}`, {...rule, what, start})
  }
  for (const node of running) judgeNode(node, bindings, report)
  return [...found.values()].sort((a, b) => a.start - b.start)
}

/** What VIOLATION of the skill SKILL says (`messages/check.ts`). */
export function violationMessage(skill: string, violation: Violation): Message {
  return sandboxViolation(skill, violation.ruleId, violation.what, violation.capability)
}

type Report = (rule: Rule, what: string, node: ts.Node) => void

const K = ts.SyntaxKind
/** The kinds of node `judgeNode` looks at. */
const JUDGED = new Set([
  K.ImportDeclaration,
  K.ExportDeclaration,
  K.ImportEqualsDeclaration,
  K.ImportSpecifier,
  K.ExportSpecifier,
  K.BindingElement,
  K.Identifier,
  K.PropertyAccessExpression,
  K.ElementAccessExpression,
  K.CallExpression,
  K.ImportKeyword,
])

function judgeNode(node: ts.Node, bindings: ModuleBindings, report: Report): void {
  if (!JUDGED.has(node.kind)) return
  if (ts.isImportDeclaration(node)) {
    if (!isTypeOnlyDeclaration(node)) loads(node.moduleSpecifier, report)
  } else if (ts.isExportDeclaration(node)) {
    if (!node.moduleSpecifier || isTypeOnlyDeclaration(node)) return
    loads(node.moduleSpecifier, report)
    // `export * from 'fs'` hands the whole module on.
    if (!node.exportClause || ts.isNamespaceExport(node.exportClause))
      judge(bindings.valueOfDeclaration(node), node.moduleSpecifier, OTHER, true, report)
  } else if (ts.isImportEqualsDeclaration(node)) {
    if (node.isTypeOnly) return
    if (ts.isExternalModuleReference(node.moduleReference)) loads(node.moduleReference.expression, report)
    judge(bindings.valueOfDeclaration(node), node.name, isExported(node) ? OTHER : ALIAS, true, report)
  } else if (ts.isImportSpecifier(node)) {
    if (!isTypeOnlyName(node)) judge(bindings.valueOfDeclaration(node), node, ALIAS, true, report)
  } else if (ts.isExportSpecifier(node)) {
    // `export {writeFileSync} from 'fs'` hands on what it names; `export {fs}` is a reference, judged as an identifier.
    if (node.parent.parent.moduleSpecifier && !isTypeOnlyName(node))
      judge(bindings.valueOfDeclaration(node), node, OTHER, true, report)
  } else if (ts.isBindingElement(node)) {
    judge(bindings.valueOfDeclaration(node), node, declarationUse(node), true, report)
    // `const {[name]: f} = fs` takes a member the rules cannot name.
    const {owner, name} = bindings.destructured(node)
    if (name === undefined && !node.dotDotDotToken) judge(owner, node, OTHER, false, report)
  } else if (ts.isIdentifier(node)) {
    if (isValueReference(node))
      judge(bindings.valueOf(node), node, useOf(node), bindings.declarationOf(node) === undefined, report)
  } else {
    // A member, a call, or the `import` of `import()`.
    judge(bindings.valueOf(node as ts.Expression), node, useOf(node as ts.Expression), true, report)
  }
}

/**
 * Judge VALUE, found at NODE and used as USE says. A restricted function is
 * reported where it is OBTAINED (not again at each use of an alias); a
 * function the rules check by its arguments, when it is called; an object
 * they follow into, when it is handed on.
 */
function judge(value: Value | undefined, node: ts.Node, use: Use, obtained: boolean, report: Report): void {
  if (!value) return
  const restricted = restrictedFunction(value)
  if (restricted) {
    if (obtained && use.kind !== 'inspect') report(restricted.rule, restricted.what, node)
    return
  }
  if (use.kind === 'call') return judgeCall(value, use.call, report)
  const followed = followedObject(value)
  if (followed && use.kind === 'other') report(followed.rule, `${followed.name} as a value`, node)
}

function judgeCall(
  callee: Value,
  call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression,
  report: Report,
): void {
  const args = ts.isTaggedTemplateExpression(call) ? undefined : call.arguments
  if (callee.kind === 'loader') {
    if (args?.length === 0) return
    const specifier = args?.[0]
    if (literalText(specifier) === undefined)
      report(
        DYNAMIC_CODE,
        `${(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression).getText()}() of a computed name`,
        call,
      )
    else loads(specifier, report)
  } else if (callee.kind === 'global' && callee.name === 'Function') {
    report(DYNAMIC_CODE, ts.isNewExpression(call) ? 'new Function' : 'Function()', call)
  } else if (isFsOpen(callee) && !isReadOnlyOpen(args)) {
    report(FS_WRITE, `fs.${callee.member}`, call)
  } else if (isFsReadWithFlags(callee) && !isReadOnlyOptions(args?.[1])) {
    report(FS_WRITE, `fs.${callee.member} with a flag that writes`, call)
  } else if (callee.kind === 'module' && callee.module === 'module') {
    report(
      DYNAMIC_CODE,
      ts.isNewExpression(call) ? "new Module() of the 'module' module" : "the 'module' module called",
      call,
    )
  }
}

/** Report a load of a restricted module of Node named by the literal SPECIFIER (capabilities.ts says which are). */
function loads(specifier: ts.Node | undefined, report: Report): void {
  const text = literalText(specifier)
  const name = text === undefined ? undefined : builtinName(text)
  const capability = name === undefined ? undefined : moduleCapability(name)
  if (capability) report(moduleRule(capability), name!, specifier!)
}

/** A function that is restricted as soon as the skill has it: an fs write, a native member of `process`, the global `eval` or a network global. */
function restrictedFunction(value: Value): {rule: Rule; what: string} | undefined {
  if (value.kind === 'member' && value.module === 'fs' && FS_WRITES.has(value.member))
    return {rule: FS_WRITE, what: `fs.${value.member}`}
  // A skill without `native` has no process at all: every member it takes is reported (a loader it names is a loader).
  if (value.kind === 'member' && value.module === 'process') return {rule: NATIVE, what: `process.${value.member}`}
  // Of the 'module' module, only createRequire is followed (as a loader); the rest compiles or loads code its own way.
  if (value.kind === 'member' && value.module === 'module') return {rule: DYNAMIC_CODE, what: `module.${value.member}`}
  if (value.kind === 'global' && value.name === 'eval') return {rule: DYNAMIC_CODE, what: 'eval'}
  if (value.kind === 'global' && NETWORK_GLOBALS.has(value.name)) return {rule: NETWORK, what: value.name}
  return undefined
}

/** An object or function the rules follow while it stays in view, and which rule applies when it is handed on. */
function followedObject(value: Value): {rule: Rule; name: string} | undefined {
  if (value.kind === 'module' && value.module === 'fs') return {rule: FS_WRITE, name: 'the fs module'}
  if (value.kind === 'module' && value.module === 'process') return {rule: NATIVE, name: 'process'}
  if (value.kind === 'module' && value.module === 'module') return {rule: DYNAMIC_CODE, name: "the 'module' module"}
  if (value.kind === 'loader') return {rule: DYNAMIC_CODE, name: 'a module loader'}
  if (value.kind === 'createRequire') return {rule: DYNAMIC_CODE, name: 'createRequire'}
  if (value.kind === 'global' && value.name === 'Function') return {rule: DYNAMIC_CODE, name: 'Function'}
  if (isFsOpen(value)) return {rule: FS_WRITE, name: `fs.${value.member}`}
  return undefined
}

function isFsOpen(value: Value): value is Extract<Value, {kind: 'member'}> {
  return value.kind === 'member' && value.module === 'fs' && FS_OPENS.has(value.member)
}

function isFsReadWithFlags(value: Value): value is Extract<Value, {kind: 'member'}> {
  return value.kind === 'member' && value.module === 'fs' && FS_READS_WITH_FLAGS.has(value.member)
}

/**
 * The options of a read that cannot make it write: none, an encoding as a literal, a callback, or an object
 * literal whose `flag`/`flags` is absent or a read-only literal. Options the rules cannot read count as a write.
 */
function isReadOnlyOptions(options: ts.Expression | undefined): boolean {
  if (!options || ts.isArrowFunction(options) || ts.isFunctionExpression(options) || literalText(options) !== undefined)
    return true
  if (!ts.isObjectLiteralExpression(options)) return false
  return options.properties.every((property) => {
    if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) return false
    const name = propertyNameText(property.name)
    if (name === undefined) return false
    if (name !== 'flag' && name !== 'flags') return true
    const value = ts.isPropertyAssignment(property) ? property.initializer : undefined
    const text = value && (ts.isNumericLiteral(value) ? value.text : literalText(value))
    return text !== undefined && READ_ONLY_FLAGS.has(text)
  })
}

/** Open flags that only read; a callback in their place means the default, `'r'`. Flags the rules cannot read count as a write. */
function isReadOnlyOpen(args: ts.NodeArray<ts.Expression> | undefined): boolean {
  if (!args) return false
  const flags = args[1]
  if (!flags || ts.isArrowFunction(flags) || ts.isFunctionExpression(flags)) return true
  const text = ts.isNumericLiteral(flags) ? flags.text : literalText(flags)
  return text !== undefined && READ_ONLY_FLAGS.has(text)
}
