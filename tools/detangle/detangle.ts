/**
 * Detangling one Org document: edits of the files it writes, put back into its blocks.
 *
 * Nothing here touches the disk. The caller gives the document's bytes, a way to tangle bytes in memory (its own
 * boundary and disk view), the hash of what was last written to each file, and the edited files' bytes; it gets
 * back the document's new bytes (or none), what went where, and each refusal. Each file goes in turn:
 *
 * 1. the document is tangled again, as it is now (a map on disk may be stale): its file must be what was last
 *    written (else the document changed since, and both sides were edited);
 * 2. the last-written lines are diffed against the edited ones (line-diff.ts), and each changed region is mapped
 *    through the lines' homes (origins.ts) to Org lines, which are rewritten: the block's indentation put back, the
 *    escape comma where Org needs one, a noweb reference's prefix taken off;
 * 3. the new document is tangled in memory and must give the edited bytes, and every other file it writes as it
 *    was; else nothing of that file's edit is kept.
 *
 * A watch can call it for one file: the list of edited files may hold one.
 */
import type {Point, Position} from 'unist'
import {type Diagnostic, diagnostic, isError, type Message} from '../diagnostics.ts'
import * as messages from '../messages/detangle.ts'
import type {SrcBlock} from '../org/ast.ts'
import {escapedLines, escapeLine} from '../org/escape.ts'
import type {DocumentPlan, TargetPlan} from '../tangle/tangle-document.ts'
import {hashOf} from '../tangle/written.ts'
import {type ChangedRegion, changedRegions} from './line-diff.ts'
import {BlockFinder, type Home, homesOf} from './origins.ts'

export interface DetangleRequest {
  /** Absolute path of the Org document. */
  document: string
  /** Its bytes now. */
  bytes: Uint8Array
  /** Tangle Org bytes of this document in memory. */
  plan: (bytes: Uint8Array) => DocumentPlan
  /** The files to bring back: absolute path, the hash of what was last written there, the bytes it holds now. */
  edited: readonly EditedFile[]
  /** How a file is named in messages and in changes (relative to the working folder, say). */
  display: (file: string) => string
}

export interface EditedFile {
  path: string
  recordedHash: string
  bytes: Uint8Array
}

/** One region of a file that went back: Org lines (in the document as it is after that file's edit) ← file lines. */
export interface DetangleChange {
  document: string
  /** 1-based first Org line, how many lines it now has there, and how many it replaced. */
  orgLine: number
  orgCount: number
  orgRemoved: number
  file: string
  /** 1-based first line of the edited file, and how many (0: lines were removed before it). */
  fileLine: number
  fileCount: number
}

export interface DocumentDetangle {
  /** The document's new bytes, when any file went back; undefined when it stays as it was. */
  bytes: Uint8Array | undefined
  changes: DetangleChange[]
  /** The files whose edits went back, with the hash of the bytes they hold (now what the document tangles to). */
  settled: {path: string; hash: string}[]
  refusals: Diagnostic[]
}

export function detangleDocument(request: DetangleRequest): DocumentDetangle {
  const result: DocumentDetangle = {bytes: undefined, changes: [], settled: [], refusals: []}
  let bytes = request.bytes
  for (const file of request.edited) {
    const outcome = detangleFile(request, bytes, file)
    if ('refusal' in outcome) {
      result.refusals.push(outcome.refusal)
      continue
    }
    if (outcome.bytes === bytes) continue
    result.settled.push({path: file.path, hash: hashOf(file.bytes)})
    bytes = outcome.bytes
    result.bytes = bytes
    result.changes.push(...outcome.changes)
  }
  return result
}

type FileOutcome = {bytes: Uint8Array; changes: DetangleChange[]} | {refusal: Diagnostic}

/** An Org edit: replace DELETE lines at 0-based Org line START with LINES; REGION: the file lines it came from. */
interface OrgEdit {
  start: number
  deleteCount: number
  lines: string[]
  region: ChangedRegion
}

function detangleFile(request: DetangleRequest, bytes: Uint8Array, file: EditedFile): FileOutcome {
  // A file that holds what was written has no edit to bring back, whatever its document became since.
  if (hashOf(file.bytes) === file.recordedHash) return {bytes, changes: []}
  const flaw = textFlaw(file.bytes)
  if (flaw)
    return {refusal: diagnostic(file.path, messages.notText(flaw.line, flaw.what), {line: flaw.line, column: 1})}
  const plan = request.plan(bytes)
  const edited = Buffer.from(file.bytes).toString('utf8')
  const checked = fileToDiff(request, plan, file, edited)
  if ('refusal' in checked) return checked
  if ('agreed' in checked) return {bytes, changes: []}
  const {target} = checked
  const root = plan.root!
  const finder = new BlockFinder(root.children.filter((node): node is SrcBlock => node.type === 'srcBlock'))
  const orgLines = root.data.lines
  const context = {
    homes: homesOf(target.lines, orgLines, finder),
    old: target.lines.map((line) => line.text),
    now: edited.split('\n'),
    uses: usesOf(plan, orgLines, finder, request.display),
    orgLines,
    file: request.display(file.path),
    target,
  }
  const edits: OrgEdit[] = []
  for (const region of changedRegions(context.old, context.now)) {
    const mapped = mapRegion(region, context)
    if ('refusal' in mapped) return {refusal: diagnostic(request.document, mapped.refusal, mapped.place)}
    edits.push(...mapped.edits)
  }
  const refuse = (why: string) => ({
    refusal: diagnostic(request.document, messages.roundTrip(why), edits[0] && {line: edits[0].start + 1, column: 1}),
  })
  const applied = applyEdits(orgLines, edits)
  if (!applied) return refuse('two edits fall on one Org line')
  const newBytes = encodeLike(applied.lines.join('\n'), root.data.eol, root.data.encoding, request.bytes)
  const problem = roundTripProblem(request.plan(newBytes), plan, target, file.bytes, request.display)
  if (problem !== undefined) return refuse(problem)
  return {
    bytes: newBytes,
    changes: applied.changes.map((change) => ({document: request.document, ...change, file: file.path})),
  }
}

/**
 * FILE's plan in PLAN (the document as it is now), when what it holds, EDITED, can be diffed against it: the
 * document tangles, still writes the file, and writes what was last written there (else both sides were edited);
 * and the edit brings no carriage return, which would go into the Org line and come back byte for byte from a
 * document of mixed line endings. Both sides edited the same way agree: nothing to bring back.
 */
function fileToDiff(
  request: DetangleRequest,
  plan: DocumentPlan,
  file: EditedFile,
  edited: string,
): {target: TargetPlan} | {agreed: true} | {refusal: Diagnostic} {
  const shown = request.display(file.path)
  const refuse = (message: Message, place: Position | Point | undefined, at = request.document) => ({
    refusal: diagnostic(at, message, place),
  })
  if (plan.failed) {
    const why = plan.diagnostics.find(isError)
    return refuse(messages.bothEdited(shown, `nothing (${why?.reason ?? 'it fails'})`, 'an edit'), why?.place)
  }
  const target = plan.targets.find((candidate) => candidate.path === file.path)
  if (!target) return refuse(messages.noRecord('no-longer'), {line: 1, column: 1}, file.path)
  if (hashOf(target.content) !== file.recordedHash)
    return target.content === edited ? {agreed: true} : bothSides(request, target, edited, shown)
  if (edited.includes('\r') && !target.content.includes('\r')) {
    const why = 'the edited file holds carriage returns (CRLF line endings), which the tangle never writes'
    return refuse(messages.roundTrip(why), target.blocks[0]?.open.start)
  }
  return {target}
}

/** Both sides changed: the document no longer tangles to what was written; shown at the first line that differs. */
function bothSides(request: DetangleRequest, target: TargetPlan, edited: string, shown: string): {refusal: Diagnostic} {
  const now = edited.split('\n')
  let line = 0
  while (line < target.lines.length - 1 && target.lines[line]!.text === now[line]) line++
  const planned = target.lines[line]
  const origin = planned?.segments.find((segment) => segment.line > 0)
  const orgSide = `${JSON.stringify(planned?.text ?? '')} at ${shown}:${line + 1}`
  const fileSide = `${JSON.stringify(now[line] ?? '')} there`
  const place = origin ? {line: origin.line, column: 1} : target.blocks[0]?.open.start
  return {refusal: diagnostic(request.document, messages.bothEdited(shown, orgSide, fileSide), place)}
}

/** For each Org line, the generated places that are copies of it, in every file the document writes. */
function usesOf(
  plan: DocumentPlan,
  orgLines: readonly string[],
  finder: BlockFinder,
  display: (file: string) => string,
): Map<number, messages.GeneratedPlace[]> {
  const uses = new Map<number, messages.GeneratedPlace[]>()
  for (const target of plan.targets) {
    homesOf(target.lines, orgLines, finder).forEach((home, index) => {
      if (!home) return
      const list = uses.get(home.orgLine) ?? []
      list.push({file: display(target.path), line: index + 1})
      uses.set(home.orgLine, list)
    })
  }
  return uses
}

interface RegionContext {
  homes: readonly (Home | undefined)[]
  old: readonly string[]
  now: readonly string[]
  uses: Map<number, messages.GeneratedPlace[]>
  orgLines: readonly string[]
  file: string
  target: TargetPlan
}

/** Why a region cannot go back, and at which Org line. */
interface Refusal {
  refusal: Message
  place: Position['start'] | undefined
}

type Mapped = {edits: OrgEdit[]} | Refusal

/**
 * The Org edits of one changed region. A region replacing as many lines as it removes is taken line for line, each
 * line to its own home (a rename across blocks); a removal, line by line; an insertion goes after the line before it
 * or before the line after it, whichever it can belong to; any other region must lie in one block.
 */
function mapRegion(region: ChangedRegion, context: RegionContext): Mapped {
  const removed = region.oldEnd - region.oldStart
  const added = context.now.slice(region.newStart, region.newEnd)
  if (added.length === 0 || removed === added.length) return lineForLine(region, context)
  if (removed === 0) return insertion(region, added, context)
  const homes: Home[] = []
  for (let index = region.oldStart; index < region.oldEnd; index++) {
    const home = homeFor(index, context)
    if ('refusal' in home) return home
    homes.push(home.home)
  }
  const first = homes[0]!
  const blocks = new Set(homes.map((home) => `${home.block.index}:${home.prefix}`)).size
  const consecutive = homes.every((home, k) => home.orgLine === first.orgLine + k)
  const lines = rewrittenAll(first, added, context)
  if (blocks > 1 || !consecutive || !lines)
    return spans(region.oldStart, added.length, Math.max(blocks, 2), first, context)
  return {edits: [{start: first.orgLine - 1, deleteCount: removed, lines, region}]}
}

/** A region removing lines only, or replacing each line by one: each line to its own home, whatever its block. */
function lineForLine(region: ChangedRegion, context: RegionContext): Mapped {
  const removing = region.newEnd === region.newStart
  const edits: OrgEdit[] = []
  for (let k = 0; k < region.oldEnd - region.oldStart; k++) {
    const index = region.oldStart + k
    const text = removing ? undefined : context.now[region.newStart + k]!
    if (text === context.old[index]) continue
    const home = homeFor(index, context)
    if ('refusal' in home) return home
    const lines = text === undefined ? [] : rewritten(home.home, text, context)
    if (!lines) return spans(index, 1, 2, home.home, context)
    const at = removing ? region.newStart : region.newStart + k
    const single = {oldStart: index, oldEnd: index + 1, newStart: at, newEnd: at + lines.length}
    edits.push({start: home.home.orgLine - 1, deleteCount: 1, lines, region: single})
  }
  return {edits}
}

/** Lines added between two kept lines: into the block of the line before, else of the line after. */
function insertion(region: ChangedRegion, added: readonly string[], context: RegionContext): Mapped {
  const candidates = [
    {index: region.oldStart - 1, after: true},
    {index: region.oldStart, after: false},
  ]
  let refusal: Mapped | undefined
  for (const {index, after} of candidates) {
    const home = context.homes[index]
    if (!home) continue
    const shared = sharedRefusal(home, index, context)
    if (shared) {
      refusal ??= shared
      continue
    }
    const lines = rewrittenAll(home, added, context)
    if (!lines) {
      refusal ??= spans(region.oldStart, added.length, 2, home, context)
      continue
    }
    return {edits: [{start: after ? home.orgLine : home.orgLine - 1, deleteCount: 0, lines, region}]}
  }
  return refusal ?? computed(Math.min(region.oldStart, context.old.length - 1), context)
}

/** The home of old line INDEX, or the refusal: a line Org computed, or one used in more than one place. */
function homeFor(index: number, context: RegionContext): {home: Home} | Refusal {
  const home = context.homes[index]
  if (!home) return computed(index, context)
  return sharedRefusal(home, index, context) ?? {home}
}

function sharedRefusal(home: Home, index: number, context: RegionContext): Refusal | undefined {
  const places = context.uses.get(home.orgLine) ?? []
  if (places.length < 2) return undefined
  const here = {file: context.file, line: index + 1}
  const also = places.filter((place) => place.file !== here.file || place.line !== here.line)
  return {refusal: messages.sharedNoweb(here, also), place: {line: home.orgLine, column: 1}}
}

/** Old line INDEX has no home: Org wrote it. Said at the block nearest to it. */
function computed(index: number, context: RegionContext): Refusal {
  let near: Home | undefined
  for (let distance = 1; !near && distance < context.homes.length; distance++)
    near = context.homes[index + distance] ?? context.homes[index - distance]
  return {
    refusal: messages.computedLine({file: context.file, line: index + 1}, whatOrgWrote(index, context)),
    place: near?.block.open.start ?? context.target.blocks[0]?.open.start,
  }
}

/** What old line INDEX, which has no home, is: told by where it is, and whether any of it comes from an Org line. */
function whatOrgWrote(index: number, context: RegionContext): string {
  const line = context.target.lines[index]
  if (index === context.old.length - 1) return 'the end of the file, after the newline that ends its last line'
  if (!line || line.text.trim() === '')
    return 'a blank line between blocks (:padline), or one a noweb reference or a variable put there'
  if (line.segments.some((segment) => segment.line > 0))
    return 'a line Org changed on its way: a noweb reference amid other text, or a coderef taken off'
  return 'text Org adds around blocks: a :prologue or :epilogue, a line :comments wrote, a shebang, a variable'
}

function spans(index: number, lines: number, blocks: number, home: Home, context: RegionContext): Refusal {
  return {
    refusal: messages.spansBlocks({file: context.file, line: index + 1}, lines, blocks),
    place: {line: home.orgLine, column: 1},
  }
}

function rewrittenAll(home: Home, texts: readonly string[], context: RegionContext): string[] | undefined {
  const lines: string[] = []
  for (const text of texts) {
    const line = rewritten(home, text, context)
    if (!line) return undefined
    lines.push(...line)
  }
  return lines
}

/**
 * The generated line TEXT as a line of HOME's block: without the noweb prefix (undefined when it does not start
 * with it, unless blank), with the block's indentation, and escaped as the formatter escapes (org/escape.ts): where
 * Org's unescaping would eat a comma, where Org would read its own syntax, and where the block's author escaped the
 * same line. A blank line is written empty, as the tangle empties it.
 */
function rewritten(home: Home, text: string, context: RegionContext): string[] | undefined {
  if (text.trim() === '' && !text.startsWith(home.prefix)) return ['']
  if (!text.startsWith(home.prefix)) return undefined
  const content = text.slice(home.prefix.length)
  if (content === '') return ['']
  return [escapeLine(indentationOf(home.block, context) + content, escapedOf(home.block, context))]
}

/** The lines of BLOCK its author escaped, unescaped and without indentation (`escapedLines`). */
function escapedOf(block: SrcBlock, context: RegionContext): ReadonlySet<string> {
  return escapedLines(context.orgLines.slice(block.open.start.line, block.close.start.line - 1))
}

/**
 * The indentation the tangle took off BLOCK's lines (Emacs's `org-do-remove-indentation`, unless the block keeps it
 * with -i), read off a line of it whose copy is in this file: the Org line's blanks less the copy's.
 */
function indentationOf(block: SrcBlock, context: RegionContext): string {
  for (const home of context.homes) {
    if (!home || home.block !== block || home.content.trim() === '') continue
    const org = context.orgLines[home.orgLine - 1]!
    const orgBlanks = /^[ \t]*/.exec(org)![0]
    const copyBlanks = /^[ \t]*/.exec(home.content)![0]
    if (orgBlanks.endsWith(copyBlanks)) return orgBlanks.slice(0, orgBlanks.length - copyBlanks.length)
  }
  return ''
}

/** ORG_LINES with EDITS made, and where each landed; undefined when two edits overlap. */
function applyEdits(
  orgLines: readonly string[],
  edits: readonly OrgEdit[],
): {lines: string[]; changes: Omit<DetangleChange, 'document' | 'file'>[]} | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start)
  for (let k = 1; k < sorted.length; k++)
    if (sorted[k - 1]!.start + sorted[k - 1]!.deleteCount > sorted[k]!.start) return undefined
  const merged = mergeNeighbours(sorted)
  const lines: string[] = []
  const changes: Omit<DetangleChange, 'document' | 'file'>[] = []
  let at = 0
  for (const edit of merged) {
    lines.push(...orgLines.slice(at, edit.start))
    changes.push({
      orgLine: lines.length + 1,
      orgCount: edit.lines.length,
      orgRemoved: edit.deleteCount,
      fileLine: edit.region.newStart + 1,
      fileCount: edit.region.newEnd - edit.region.newStart,
    })
    lines.push(...edit.lines)
    at = edit.start + edit.deleteCount
  }
  lines.push(...orgLines.slice(at))
  return {lines, changes}
}

/** Line-for-line edits of consecutive Org lines from consecutive file lines, as one. */
function mergeNeighbours(edits: readonly OrgEdit[]): OrgEdit[] {
  const merged: OrgEdit[] = []
  for (const edit of edits) {
    const last = merged[merged.length - 1]
    if (
      last &&
      last.start + last.deleteCount === edit.start &&
      last.region.oldEnd === edit.region.oldStart &&
      last.region.newEnd === edit.region.newStart
    ) {
      merged[merged.length - 1] = {
        start: last.start,
        deleteCount: last.deleteCount + edit.deleteCount,
        lines: [...last.lines, ...edit.lines],
        region: {...last.region, oldEnd: edit.region.oldEnd, newEnd: edit.region.newEnd},
      }
    } else merged.push(edit)
  }
  return merged
}

/**
 * What in BYTES is no text an Org document can hold, at its 1-based line: a NUL byte, or bytes that are not
 * UTF-8 (decoded, they would be U+FFFD, and the edit lost); undefined when there is none.
 */
function textFlaw(bytes: Uint8Array): {line: number; what: string} | undefined {
  const decoder = new TextDecoder('utf-8', {fatal: true})
  let start = 0
  for (let line = 1; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start) === -1 ? bytes.length : bytes.indexOf(0x0a, start)
    const text = bytes.subarray(start, end)
    if (text.includes(0)) return {line, what: 'a NUL byte'}
    try {
      decoder.decode(text)
    } catch {
      return {line, what: 'bytes that are not UTF-8'}
    }
    start = end + 1
  }
  return undefined
}

/** TEXT as the document's bytes were: its line endings, its encoding, its byte-order mark. */
function encodeLike(
  text: string,
  eol: 'lf' | 'crlf' | 'cr',
  encoding: 'utf-8' | 'latin-1',
  original: Uint8Array,
): Uint8Array {
  const lines = eol === 'crlf' ? text.replaceAll('\n', '\r\n') : eol === 'cr' ? text.replaceAll('\n', '\r') : text
  if (encoding === 'latin-1') return Buffer.from(lines, 'latin1')
  const bom = original[0] === 0xef && original[1] === 0xbb && original[2] === 0xbf
  return Buffer.from(bom ? `\ufeff${lines}` : lines, 'utf8')
}

/**
 * Why the new document's tangle is not the edited file, nor every other file as it was (PLAN: the tangle before);
 * undefined when it is.
 */
function roundTripProblem(
  after: DocumentPlan,
  before: DocumentPlan,
  target: TargetPlan,
  edited: Uint8Array,
  display: (file: string) => string,
): string | undefined {
  if (after.failed) return `it does not tangle (${after.diagnostics.find(isError)?.reason ?? 'it fails'})`
  const written = new Map(after.targets.map((planned) => [planned.path, planned.content]))
  const now = written.get(target.path)
  if (now === undefined) return `it no longer writes ${display(target.path)}`
  if (!Buffer.from(now, 'utf8').equals(Buffer.from(edited)))
    return `${display(target.path)} would hold ${firstDifference(now, Buffer.from(edited).toString('utf8'))}`
  for (const other of before.targets) {
    if (other.path === target.path) continue
    const content = written.get(other.path)
    if (content !== other.content) return `${display(other.path)}, which it also writes, would change`
  }
  if (written.size !== before.targets.length) return 'it would write another file'
  return undefined
}

/** Where A and B part, as a line of A: `"x" at line 3`. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n')
  const right = b.split('\n')
  let line = 0
  while (line < left.length && left[line] === right[line]) line++
  const shown = (text: string | undefined) => (text === undefined ? 'no line' : JSON.stringify(text))
  return `${shown(left[line])} at line ${line + 1}, where the edit has ${shown(right[line])}`
}
