/**
 * The files of one document, assembled as `org-babel-tangle` writes them: for
 * each file, its blocks in document order, an empty line before each but the
 * first (unless `:padline no`), the shebang before the first block that has
 * one, comments in the file's current major mode, and the file mode.
 */
import type {SrcBlock} from '../org/ast.ts'
import type {TangledBlock} from './collect.ts'
import {type CommentSyntax, commentRegion, commentSyntax} from './comments.ts'
import {shortForm} from './elisp.ts'
import {Failure} from './failure.ts'
import * as tangleMessages from '../messages/tangle.ts'
import {fillTemplate} from './links.ts'
import {concatLines, glue, type SourceText} from './text.ts'

export interface AssembledFile {
  /** The name Org grouped the blocks by (the `:tangle` value as written). */
  fileName: string
  /** The file's lines; the text ends with a newline, so the last line is empty. */
  lines: SourceText
  /** The mode Org sets (`:tangle-mode`, 0o755 for a shebang), or undefined for the default. */
  mode: number | undefined
  /** `:mkdirp` asked for the parent directories. */
  makeDirectory: boolean
  blocks: SrcBlock[]
  /** The lines of the file each of `blocks` wrote its body to, in the same order. */
  spans: BlockSpan[]
}

/** The lines of a file one block's body fills (comments and padding left out), 1-based, both included. */
export interface BlockSpan {
  first: number
  last: number
}

export function assembleFile(fileName: string, specs: TangledBlock[], orgFile: string): AssembledFile {
  const buffer = new Buffer()
  const modes: number[] = []
  let makeDirectory = false
  let sheBanged = false
  let language: string | null | undefined
  const spans: BlockSpan[] = []
  let syntax: CommentSyntax | undefined
  const directoryPart = fileName.includes('/')
  for (const spec of specs) {
    const {params} = spec.info
    if (spec.info.language !== language) {
      language = spec.info.language
      // The buffer switches to the language's mode when Emacs has one.
      const lookup = commentSyntax(language ?? '')
      if (lookup.kind === 'syntax') syntax = lookup.syntax
      else if (lookup.kind === 'none') syntax = undefined
    }
    const shebang = params.string(':shebang')
    let mode = tangleMode(spec)
    if (shebang && mode === undefined) mode = 0o755
    if (mode !== undefined && !modes.includes(mode)) modes.unshift(mode)
    const mkdirp = params.get(':mkdirp')
    if (mkdirp && mkdirp.value.kind !== 'nil' && directoryPart && params.string(':mkdirp') !== 'no')
      makeDirectory = true
    if (params.string(':padline') !== 'no' && !buffer.isEmpty()) buffer.append(glue('\n'))
    if (shebang && !sheBanged) {
      buffer.append(glue(`${shebang}\n`))
      sheBanged = true
    }
    spans.push(insertBlock(buffer, spec, syntax, orgFile))
  }
  return {
    fileName,
    lines: buffer.lines,
    mode: modes[modes.length - 1],
    makeDirectory,
    blocks: specs.map((spec) => spec.info.block),
    spans,
  }
}

/** `org-babel-spec-to-string`; the lines the block's body went to. */
function insertBlock(
  buffer: Buffer,
  spec: TangledBlock,
  syntax: CommentSyntax | undefined,
  orgFile: string,
): BlockSpan {
  const comments = spec.info.params.string(':comments')
  const link = comments === 'both' || comments === 'link' || comments === 'yes' || comments === 'noweb'
  const values = () => ({
    'start-line': String(spec.info.block.open.start.line + 1),
    file: orgFile,
    link: spec.link(),
    'source-name': spec.sourceName,
  })
  const insertComment = (text: string) => {
    if (comments === undefined || comments === 'no' || !/[^ \r\t\n]/.test(text)) return
    if (!syntax) {
      throw new Failure(tangleMessages.noCommentSyntax(comments, spec.info.language), spec.info.block.open)
    }
    buffer.append(glue(`${commentRegion(text, syntax)}\n`))
  }
  if (spec.orgComment !== null) insertComment(spec.orgComment)
  if (link) insertComment(fillTemplate('[[%link][%source-name]]', values()))
  // The body starts on the buffer's last line, the one still open.
  const first = buffer.lines.length
  buffer.append([...spec.body, ...glue('')])
  if (link) insertComment(fillTemplate('%source-name ends here', values()))
  return {first, last: first + spec.body.length - 1}
}

/** `:tangle-mode`: an integer, or Org fails when setting it. */
function tangleMode(spec: TangledBlock): number | undefined {
  const param = spec.info.params.get(':tangle-mode')
  if (!param || param.value.kind === 'nil') return undefined
  const {value} = param
  if (value.kind === 'number' && value.integer && value.value >= 0) return value.value
  if (value.kind === 'lisp') {
    throw new Failure(tangleMessages.lispForm(':tangle-mode', shortForm(value.source), value.reason), param.origin)
  }
  throw new Failure(
    tangleMessages.badTangleMode(value.kind === 'string' ? value.value : String(value.value)),
    param.origin,
  )
}

/** The temporary buffer Org fills: lines, the last one still open. */
class Buffer {
  lines: SourceText = [{text: '', segments: []}]

  isEmpty(): boolean {
    return this.lines.length === 1 && this.lines[0]!.text === ''
  }

  /** Insert TEXT (lines joined by newlines) at the end. */
  append(text: SourceText): void {
    const last = this.lines.length - 1
    this.lines[last] = concatLines(this.lines[last]!, text[0]!)
    for (let k = 1; k < text.length; k++) this.lines.push(text[k]!)
  }
}
