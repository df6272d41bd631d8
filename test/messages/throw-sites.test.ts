/**
 * Every throw site says its sentence through its message family (issue 32): a `throw new X(...)` whose message is a
 * string or a template written at the site is a sentence built where no test of the family sees it, and worded
 * apart from its siblings. Read, with ts-morph, in the tangled core (generated/core, tangle first) and in the
 * toolchain (tools/), their tests aside. Allowed: a re-throw of a caught value, and a message that a call (a
 * family's builder) or a value passed in made.
 */
import path from 'node:path'
import {Node, Project, type SourceFile, SyntaxKind} from 'ts-morph'
import {expect, it} from 'vitest'

const repo = path.resolve(import.meta.dirname, '..', '..')

/**
 * Whether EXPRESSION, an argument of a thrown error, writes a sentence at the site: a template, or a string of more
 * than one word (a single word is a code, such as a failure's kind).
 */
function builtAtSite(expression: Node | undefined): boolean {
  if (expression === undefined) return false
  if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression))
    return /\s/.test(expression.getLiteralText())
  if (Node.isTemplateExpression(expression)) return true
  if (Node.isParenthesizedExpression(expression)) return builtAtSite(expression.getExpression())
  if (Node.isConditionalExpression(expression))
    return builtAtSite(expression.getWhenTrue()) || builtAtSite(expression.getWhenFalse())
  if (Node.isBinaryExpression(expression) && expression.getOperatorToken().getKind() === SyntaxKind.PlusToken)
    return builtAtSite(expression.getLeft()) || builtAtSite(expression.getRight())
  if (Node.isObjectLiteralExpression(expression))
    return expression
      .getProperties()
      .some((property) => Node.isPropertyAssignment(property) && builtAtSite(property.getInitializer()))
  if (Node.isIdentifier(expression)) return builtLocally(expression)
  return false
}

/** Whether the local constant IDENTIFIER names holds a sentence written just above the throw. */
function builtLocally(identifier: Node): boolean {
  return (
    identifier
      .getSymbol()
      ?.getDeclarations()
      .some((declaration) => Node.isVariableDeclaration(declaration) && builtAtSite(declaration.getInitializer())) ??
    false
  )
}

/** The name of the function, method or class THROW is written in, for the allow-list. */
function enclosingName(node: Node): string {
  for (const ancestor of node.getAncestors()) {
    if (Node.isFunctionDeclaration(ancestor) || Node.isMethodDeclaration(ancestor) || Node.isClassDeclaration(ancestor))
      return ancestor.getName() ?? '(anonymous)'
    if (Node.isVariableDeclaration(ancestor)) return ancestor.getName()
    if (Node.isPropertyAssignment(ancestor)) return ancestor.getName()
  }
  return '(top level)'
}

/** The throw sites of FILE that build their sentence inline: each one's place and its name, FILE said as RELATIVE. */
function sentencesIn(file: SourceFile, relative: string): {place: string; name: string}[] {
  return file
    .getDescendantsOfKind(SyntaxKind.ThrowStatement)
    .filter((site) => {
      const thrown = site.getExpression()
      return Node.isNewExpression(thrown) && thrown.getArguments().some((argument) => builtAtSite(argument))
    })
    .map((site) => ({place: `${relative}:${site.getStartLineNumber()}`, name: `${relative} ${enclosingName(site)}`}))
}

/** Each throw site of the core and the toolchain that builds its sentence inline. */
function inlineSentences(): {place: string; name: string}[] {
  const project = new Project({skipAddingFilesFromTsConfig: true, tsConfigFilePath: path.join(repo, 'tsconfig.json')})
  const files = project.addSourceFilesAtPaths(
    ['generated/core/**/*.ts', 'tools/**/*.ts', '!**/*.test.ts'].map((glob) =>
      glob.startsWith('!') ? `!${path.join(repo, glob.slice(1))}` : path.join(repo, glob),
    ),
  )
  expect(files.filter((file) => file.getFilePath().includes('/generated/core/')).length).toBeGreaterThan(40)
  return files.flatMap((file) => sentencesIn(file, path.relative(repo, file.getFilePath())))
}

/** Throws as written, and whether each builds its sentence at the site. */
const shapes: [string, boolean][] = [
  ['throw new Error(`the stream was cut off: ${why}`)', true],
  ["throw new TypeError('hot.dispose needs a function')", true],
  ["throw new HostFailure('crash', `the skill host did not start within ${ms} ms`)", true],
  ["throw new Error(n === 0 ? 'none' : `not ${n}`)", true],
  ["throw new Error('cannot ' + what)", true],
  ['const why = `no ${name}`\nthrow new Error(why)', true],
  ['throw new Failure({ruleId: "x/y", reason: `no ${name}`})', true],
  ['throw new Error(streamCutOff(why))', false],
  ['throw new MemoryError(this.readOnly)', false],
  ["throw new HostFailure('crash', hostNotBuilt(why))", false],
  ["throw new LispSignal('(end-of-file)')", false],
  ['throw error', false],
  ['throw new Error(unknownModel(name).reason)', false],
  ['const why = say.noModel(name)\nthrow new Error(why)', false],
]

/** One program for the shapes: the compiler's library is loaded once. */
const shapesProject = new Project({useInMemoryFileSystem: true})

it.each(shapes)('tells a sentence built at the site: %s', (code, built) => {
  const file = shapesProject.createSourceFile('site.ts', `function f() {\n${code}\n}`, {overwrite: true})
  expect(sentencesIn(file, 'site.ts')).toEqual(built ? [{place: expect.any(String), name: 'site.ts f'}] : [])
})

it('builds no sentence at a throw site', () => {
  const offenders = inlineSentences().map((site) => `${site.place} (${site.name})`)
  expect(offenders, 'sentences built at a throw site: build them in the family').toEqual([])
})
