/**
 * The TypeScript and JavaScript blocks of one Org document, formatted in place;
 * every other byte of the document kept.
 *
 * A block is formatted as tangling sees it: its commas unescaped and the
 * indentation common to its lines removed (`org-src-preserve-indentation` nil:
 * what Emacs removes on tangle), its noweb references held by placeholders when
 * its `:noweb` expands them. The formatted code goes back with the block's own
 * indentation and Org's escapes, so the block tangles to the formatted code.
 * Only the lines between `#+begin_src` and `#+end_src` are replaced, in the
 * document's own text: its line endings, encoding and byte-order mark are kept.
 */
import type {Position} from 'unist'
import type {SrcBlock} from '../org/ast.ts'
import {type Diagnostic, diagnostic, type Message} from '../diagnostics.ts'
import {nowebMoved, unparsable} from '../messages/fmt.ts'
import {columnOf, readOrg} from '../org/parse.ts'
import {BlockInfos} from '../tangle/block-info.ts'
import {removeIndentation} from '../tangle/body.ts'
import {OrgDocument} from '../tangle/document.ts'
import {Failure} from '../tangle/failure.ts'
import {nowebEnabled} from '../tangle/noweb.ts'
import {collectKeywords, namesSetupFiles} from '../tangle/setup-files.ts'
import {originAt, type SourceText} from '../tangle/text.ts'
import {type CodeLanguage, type CodeShape, formatCode} from './format-code.ts'
import {escapedLines, escapeLine} from '../org/escape.ts'
import {protectReferences} from './noweb-placeholders.ts'

/** The block languages the tangler writes as TypeScript or JavaScript, and how each is parsed. */
const LANGUAGES: Record<string, CodeLanguage> = {
  typescript: 'typescript',
  ts: 'typescript',
  javascript: 'javascript',
  js: 'javascript',
}

export interface BlockOutcome {
  /** 1-based line of the block's `#+begin_src`. */
  line: number
  /** Formatted and different, formatted and the same, or left as it is (a diagnostic says why when it matters). */
  status: 'changed' | 'unchanged' | 'skipped'
  /** How the code parsed, when it was formatted. */
  shape?: CodeShape
}

export interface FormattedFile {
  /** The file's bytes formatted (an Org document's: with its code blocks formatted). */
  bytes: Uint8Array
  changed: boolean
  /** One per TypeScript or JavaScript block, in document order; none for a code file. */
  blocks?: BlockOutcome[]
  diagnostics: Diagnostic[]
}

/** The document FILE (absolute) whose bytes are BYTES, its code blocks formatted. */
export async function formatOrgDocument(file: string, bytes: Uint8Array): Promise<FormattedFile> {
  const {root} = readOrg(bytes)
  const setup = namesSetupFiles(root) ? collectKeywords(file, root) : undefined
  const doc = new OrgDocument(file, root, setup?.keywords)
  const infos = new BlockInfos(doc)
  const source = documentText(bytes, root.data.encoding)
  const separator = LINE_SEPARATORS[root.data.eol]
  const lines = source.split(separator)
  const blocks: BlockOutcome[] = []
  const diagnostics: Diagnostic[] = []
  // Bottom to top: replacing a block's lines leaves the line numbers of the blocks above it as they were.
  const replacements: {block: SrcBlock; lines: string[]}[] = []
  for (const block of doc.blocks) {
    const language = block.language === null ? undefined : LANGUAGES[block.language]
    if (language === undefined) continue
    const outcome = await formatBlock(block, language, infos, doc.lines)
    if (outcome.problem) diagnostics.push(diagnostic(file, outcome.problem.message, outcome.problem.place))
    blocks.push({line: block.open.start.line, status: outcome.status, ...(outcome.shape ? {shape: outcome.shape} : {})})
    if (outcome.status === 'changed') replacements.push({block, lines: outcome.lines!})
  }
  for (const {block, lines: body} of replacements.reverse()) {
    lines.splice(block.open.start.line, block.close.start.line - block.open.start.line - 1, ...body)
  }
  const changed = replacements.length > 0
  return {bytes: changed ? encode(lines.join(separator), root.data.encoding) : bytes, changed, blocks, diagnostics}
}

interface BlockResult {
  status: BlockOutcome['status']
  shape?: CodeShape
  /** The block's new lines, as the document holds them. */
  lines?: string[]
  problem?: {message: Message; place: Position | undefined}
}

async function formatBlock(
  block: SrcBlock,
  language: CodeLanguage,
  infos: BlockInfos,
  documentLines: readonly string[],
): Promise<BlockResult> {
  const original = documentLines.slice(block.open.start.line, block.close.start.line - 1)
  // A stray CR in a block of an LF document (Emacs keeps it as a character) would end a line for the parser.
  if (
    original.length === 0 ||
    original.every((line) => line.trim() === '') ||
    original.some((line) => line.includes('\r'))
  ) {
    return {status: 'skipped'}
  }
  let body: SourceText
  let expandsReferences: boolean
  try {
    const info = infos.get(block, false)
    // With `-i` the tangled code keeps its indentation; formatted, it keeps the block's indentation as well.
    body = /-i\b/.test(info.switches) ? removeIndentation(info.body) : info.body
    expandsReferences = nowebEnabled(info.params, 'tangle') || nowebEnabled(info.params, 'eval')
  } catch (error) {
    // A header Org cannot read: the tangle reports it, and the block is not formatted.
    if (error instanceof Failure) return {status: 'skipped'}
    throw error
  }
  const indentation = ' '.repeat(removedColumns(original, body))
  const code = `${body.map((line) => line.text).join('\n')}\n`
  const references = expandsReferences ? protectReferences(code) : undefined
  const formatted = await formatCode(references?.code ?? code, language, {fragments: true})
  if (!formatted.ok) {
    const line = body[formatted.line - 1]
    const place = line ? originAt(line, formatted.column - 1) : undefined
    const start = place ?? {line: block.open.start.line + formatted.line, column: 1}
    return {status: 'skipped', problem: {message: unparsable('block', formatted.reason), place: {start, end: start}}}
  }
  let text = formatted.text
  if (references) {
    const restored = references.restore(text)
    if (!restored.ok) {
      const line = body[restored.moved.line]
      const start = (line && originAt(line, restored.moved.column)) ?? {
        line: block.open.start.line + 1 + restored.moved.line,
        column: 1,
      }
      return {status: 'skipped', problem: {message: nowebMoved(restored.moved.name), place: {start, end: start}}}
    }
    text = restored.code
  }
  const escaped = escapedLines(original)
  const lines = text
    .slice(0, -1)
    .split('\n')
    .map((line) => escapeLine(line === '' ? line : indentation + line, escaped))
  const same = lines.length === original.length && lines.every((line, k) => line === original[k])
  return {status: same ? 'unchanged' : 'changed', shape: formatted.shape, lines}
}

/**
 * The columns of indentation tangling removed from the block: those of its first line with text, in the
 * document (ORIGINAL) less those in the tangled BODY. A tab counts to the next multiple of 8, as in Emacs.
 */
function removedColumns(original: readonly string[], body: SourceText): number {
  const first = body.findIndex((line) => line.text.trim() !== '')
  if (first === -1) return 0
  return columnOf(original[first]!) - columnOf(body[first]!.text)
}

const LINE_SEPARATORS = {lf: '\n', crlf: '\r\n', cr: '\r'} as const

/** The document's text as it is on disk: line endings as they are, a byte-order mark kept. */
function documentText(bytes: Uint8Array, encoding: 'utf-8' | 'latin-1'): string {
  return encoding === 'utf-8'
    ? new TextDecoder('utf-8', {ignoreBOM: true}).decode(bytes)
    : Buffer.from(bytes).toString('latin1')
}

function encode(text: string, encoding: 'utf-8' | 'latin-1'): Uint8Array {
  return Buffer.from(text, encoding === 'utf-8' ? 'utf8' : 'latin1')
}
