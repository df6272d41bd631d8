/**
 * Which blocks go to which file, and what each contributes
 * (`org-babel-tangle-collect-blocks` and `org-babel-tangle-single-block`).
 */
import type {Position} from 'unist'
import type {SrcBlock} from '../org/ast.ts'
import type {BabelVisit} from './babel-scan.ts'
import type {BlockInfo} from './block-info.ts'
import {removeCoderefs, removeIndentation, trim} from './body.ts'
import {babelRead, LispEvalError, type LispValue, printLisp, shortForm} from './elisp.ts'
import {LispReadError} from './lisp-atoms.ts'
import {Failure} from './failure.ts'
import {lispIgnored, lispIgnoredVariable} from '../messages/header.ts'
import * as tangleMessages from '../messages/tangle.ts'
import {relativeLink, storeLink} from './links.ts'
import {expandReferences, type NowebContext, nowebEnabled} from './noweb.ts'
import {isEmacsLisp, tangleExtension} from './languages.ts'
import {glue, type SourceText, toText} from './text.ts'
import {BLANKS_AND_BREAKS, trimBoth} from '../org/trim.ts'

export interface TangledBlock {
  info: BlockInfo
  /** The name Org groups blocks by: the `:tangle` value as written, or NAME.EXT for `yes`. */
  fileName: string
  /** `file:PATH::SEARCH` relative to the target's directory, for link comments. */
  link: () => string
  /** `#+NAME`, else `Heading:N` (`No heading:N` before the first headline). */
  sourceName: string
  body: SourceText
  /** The Org text before the block, for `:comments org` and `both`. */
  orgComment: string | null
}

/** Header arguments whose Lisp forms matter to tangling; others are only warned about. */
const CONSULTED = new Set([
  ':tangle',
  ':comments',
  ':padline',
  ':shebang',
  ':tangle-mode',
  ':mkdirp',
  ':noweb',
  ':prologue',
  ':epilogue',
])

/** Tangled blocks grouped by file name, groups in order of their first block. */
export function collectBlocks(context: NowebContext): Map<string, TangledBlock[]> {
  const {doc} = context
  const groups = new Map<string, TangledBlock[]>()
  const orgName = doc.path.slice(doc.path.lastIndexOf('/') + 1)
  for (const visit of context.babel.visits()) {
    const headline = doc.headlineAt(visit.begin)
    if (doc.inCommentedHeading(headline) || doc.inArchivedHeading(headline)) continue
    if (!visit.block) {
      throw new Failure(tangleMessages.unterminatedBlockPairs(visit.end), lineSpan(doc.lines, visit.begin))
    }
    const light = context.infos.get(visit.block, false)
    if (light.params.string(':tangle') === 'no') continue
    const tangled = singleBlock(visit.block, visit, context, orgName)
    if (tangled === undefined) continue
    const group = groups.get(tangled.fileName)
    if (group) group.push(tangled)
    else groups.set(tangled.fileName, [tangled])
  }
  return groups
}

function singleBlock(
  block: SrcBlock,
  visit: BabelVisit,
  context: NowebContext,
  orgName: string,
): TangledBlock | undefined {
  const {doc} = context
  const info = context.infos.get(block, true)
  for (const name of info.params.names()) {
    const value = info.params.get(name)!
    if (value.value.kind === 'lisp' && !CONSULTED.has(name)) {
      context.warn(lispIgnored(name, shortForm(value.value.source), value.value.reason), value.origin)
    }
  }
  const vars = processVars(info, context)
  const point = (context.point = doc.lineStart(visit.begin))
  const title = doc.headlines[doc.headlineAt(visit.begin)]?.title
  const sourceName = info.name ?? `${title ?? 'No heading'}:${visit.counter}`
  let body = nowebEnabled(info.params, 'tangle') ? expandReferences(info, context) : info.body
  body = expandBody(body, info, vars)
  if (info.switches.includes('-r')) body = removeCoderefs(body, labelFormat(info.switches))
  const comments = info.params.string(':comments')
  const orgComment = comments === 'both' || comments === 'org' ? orgCommentText(context) : null
  const tangleValue = info.params.string(':tangle')
  if (tangleValue === undefined) {
    throw new Failure(tangleMessages.tangleWithoutValue(), info.params.get(':tangle')?.origin ?? block.open)
  }
  const fileName = effectiveFileName(tangleValue, info.language, orgName)
  if (fileName === undefined) return undefined
  const orgDirectory = doc.path.slice(0, doc.path.lastIndexOf('/')) || '/'
  return {
    info,
    fileName,
    // Only link comments read it: computed when one asks.
    link: () => relativeLink(storeLink(doc, point), tangleValue === 'yes' ? undefined : tangleValue, orgDirectory),
    sourceName,
    body: trim(removeIndentation(body)),
    orgComment,
  }
}

/** `org-babel-effective-tangled-filename`. */
export function effectiveFileName(tangle: string, language: string | null, orgName: string): string | undefined {
  if (tangle === 'no' || tangle === '') return undefined
  if (tangle !== 'yes') return tangle
  const base = fileNameSansExtension(orgName)
  const extension = tangleExtension(language)
  return extension === null ? base : `${base}.${extension}`
}

function fileNameSansExtension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/** The coderef label format of `-l "FORMAT"`, else Org's default. */
function labelFormat(switches: string): string {
  return /-l +"([^"\n]+)"/.exec(switches)?.[1] ?? '(ref:%s)'
}

interface Variable {
  name: string
  value: LispValue | undefined
  origin: Position | undefined
}

/**
 * `org-babel-process-params` on `:var`: literal values are read, references are
 * resolved. Tangling drops variables for every language but Emacs Lisp, so a
 * reference only has to exist and not need evaluation.
 */
function processVars(info: BlockInfo, context: NowebContext): Variable[] {
  const variables: Variable[] = []
  for (const param of info.params.vars) {
    const assignment = param.value.kind === 'string' ? param.value.value : ''
    const match = /^([^\n]+?)=/.exec(assignment)
    if (!match) continue
    const name = match[1]!.trim()
    const ref = trimBoth(assignment.slice(match[0].length), BLANKS_AND_BREAKS)
    let read: LispValue
    try {
      read = babelRead(ref, true, context.doc.lispContext)
    } catch (error) {
      if (error instanceof LispEvalError)
        throw new Failure(tangleMessages.variableEvaluationFails(name, shortForm(ref), error.error), param.origin)
      if (error instanceof LispReadError)
        throw new Failure(tangleMessages.unreadableVariable(name, shortForm(ref), error.message), param.origin)
      throw error
    }
    if (read.kind === 'lisp') {
      if (isEmacsLisp(info.language))
        throw new Failure(tangleMessages.variableLispForm(name, shortForm(ref), read.reason), param.origin)
      context.warn(lispIgnoredVariable(name, shortForm(ref), info.language, read.reason), param.origin)
      variables.push({name, value: undefined, origin: param.origin})
      continue
    }
    if (read.kind !== 'string' || read.value !== ref) {
      variables.push({name, value: read, origin: param.origin})
      continue
    }
    resolveReference(ref, info, context, param.origin)
    variables.push({name, value: undefined, origin: param.origin})
  }
  return variables
}

/** `org-babel-ref-resolve`, as far as deciding whether Org succeeds. */
function resolveReference(ref: string, info: BlockInfo, context: NowebContext, origin: Position | undefined): void {
  const {doc} = context
  let target = ref
  const index = /\[([^[]+)\]$/.exec(target)
  if (index) {
    const before = target.slice(0, index.index)
    if ((before.match(/\(/g)?.length ?? 0) === (before.match(/\)/g)?.length ?? 0)) target = before
  }
  if (/^(.+?)(\[(.*)\]|())\((.*)\)$/.test(target)) {
    throw new Failure(tangleMessages.variableCallsBlock(ref), origin)
  }
  if (/^(.+):(.+)$/.test(target)) throw new Failure(tangleMessages.variableInOtherFile(ref), origin)
  // Org searches `#+NAME:`/`#+TBLNAME:` lines, then compares the element's own name exactly.
  const named = [...doc.blocks, ...doc.namedElements]
    .filter(
      (element) =>
        element.name === target &&
        element.affiliated.some(
          (keyword) =>
            (keyword.spelling === 'NAME' || keyword.spelling === 'TBLNAME') &&
            keyword.value.toLowerCase() === target.toLowerCase(),
        ),
    )
    .sort((a, b) => a.position.start.line - b.position.start.line)
    .find((element) => !doc.inCommentedHeading(doc.headlineAt(element.position.start.line)))
  if (named?.type === 'srcBlock') {
    const language = named.language ?? ''
    if (isEmacsLisp(named.language)) throw new Failure(tangleMessages.variableNamesLispBlock(ref), origin)
    throw new Failure(tangleMessages.variableNamesBlock(ref, language), origin)
  }
  if (named?.type === 'namedElement') {
    if (named.element === 'babel-call') throw new Failure(tangleMessages.variableNamesCall(ref), origin)
    if (!READABLE.has(named.element)) throw new Failure(tangleMessages.variableNamesNoValue(ref, named.element), origin)
    if (isEmacsLisp(info.language)) throw new Failure(tangleMessages.variableOrgDataToLisp(ref), origin)
    return
  }
  if (doc.findProperty('CUSTOM_ID', target) !== undefined || doc.findProperty('ID', target) !== undefined) {
    if (isEmacsLisp(info.language)) throw new Failure(tangleMessages.variableHeadlineToLisp(ref), origin)
    return
  }
  throw new Failure(tangleMessages.variableReferenceNotFound(ref, target), origin)
}

/** Element types `org-babel-read-element` turns into a value. */
const READABLE = new Set([
  'fixed-width',
  'table',
  'plain-list',
  'example-block',
  'export-block',
  'paragraph',
  'center-block',
  'quote-block',
  'verse-block',
  'special-block',
])

/** `org-babel-expand-body:emacs-lisp` for Emacs Lisp, `org-babel-expand-body:generic` otherwise. */
function expandBody(body: SourceText, info: BlockInfo, vars: Variable[]): SourceText {
  if (info.params.get(':no-expand')) return body
  if (isEmacsLisp(info.language)) {
    if (vars.length === 0) return [...body, ...glue('')]
    const bindings = vars.map((v) => `(${v.name} '${printLisp(v.value!)})`).join('\n      ')
    return [...glue(`(let (${bindings})`), ...body, ...glue(')')]
  }
  const prologue = textParam(info, ':prologue')
  const epilogue = textParam(info, ':epilogue')
  return [...(prologue === undefined ? [] : glue(prologue)), ...body, ...(epilogue === undefined ? [] : glue(epilogue))]
}

/** `:prologue`/`:epilogue`: a string, nothing, or an error as Org would fail on the value. */
function textParam(info: BlockInfo, name: string): string | undefined {
  return info.params.string(name)
}

/**
 * `:comments org`: the Org text between the headline (after its stars) or the
 * previous block's `#+end_src`, whichever is nearer, and point, without its
 * common indentation.
 */
function orgCommentText(context: NowebContext): string {
  const {doc} = context
  const point = context.point
  const line = doc.lineOfOffset(point)
  const headline = doc.headlineAt(line)
  const headingEnd =
    headline < 0 ? 0 : doc.lineStart(doc.headlines[headline]!.position.start.line) + doc.headlines[headline]!.level + 1
  const previousEnd = context.babel.previousEnd(line) ?? 0
  const start = Math.max(headingEnd, previousEnd)
  const text = doc.text.slice(Math.min(start, point), Math.max(start, point))
  return toText(removeIndentation(glue(text)))
}

function lineSpan(lines: string[], line: number): Position {
  return {start: {line, column: 1}, end: {line, column: (lines[line - 1]?.length ?? 0) + 1}}
}
