/**
 * Tangle one Org document into a plan: the files it writes (absolute paths,
 * bytes, modes, line origins) and its diagnostics. Nothing touches the disk
 * here but reads (existing directories); writing is `write.ts`'s job, so a
 * document that fails writes nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {Position} from 'unist'
import {type Diagnostic, diagnostic, isError, type Message} from '../diagnostics.ts'
import {type UnusablePath, unwritableTarget} from '../messages/io.ts'
import {latin1, mixedLineEndings} from '../messages/org.ts'
import * as tangleMessages from '../messages/tangle.ts'
import type {OrgRoot, SrcBlock} from '../org/ast.ts'
import {todoKeywordsOf} from '../org/parse.ts'
import {readDocument} from '../org/read-document.ts'
import {collectKeywords, namesSetupFiles} from './setup-files.ts'
import {assembleFile, type BlockSpan} from './assemble.ts'
import {BabelIndex} from './babel-scan.ts'
import {BlockInfos} from './block-info.ts'
import {collectBlocks} from './collect.ts'
import {DiskView} from './disk.ts'
import {OrgDocument} from './document.ts'
import {Failure} from './failure.ts'
import {expandFileName} from './links.ts'
import {lintHeaderArguments} from './lint-headers.ts'
import type {NowebContext} from './noweb.ts'
import {type SourceText, toText} from './text.ts'
import {isInside} from '../project.ts'

export interface TargetPlan {
  /** Absolute path of the file. */
  path: string
  /** The `:tangle` value (or NAME.EXT) the blocks named it by. */
  fileName: string
  content: string
  /** Generated lines with their Org origins (`lines.length` is one more than the line count). */
  lines: SourceText
  /** The mode to set, or undefined for the default (0666 minus the umask). */
  mode: number | undefined
  makeDirectory: boolean
  blocks: SrcBlock[]
  /** The lines each of `blocks` wrote its body to (assemble.ts), in the same order. */
  spans: BlockSpan[]
}

export interface DocumentPlan {
  /** Absolute path of the Org file. */
  path: string
  targets: TargetPlan[]
  diagnostics: Diagnostic[]
  /** Number of blocks written (Org's "Tangled N code blocks"). */
  blockCount: number
  /** True when the document failed: `targets` is then empty. */
  failed: boolean
  /** The document as read (its keywords, its text for code frames); undefined when it could not be read. */
  root: OrgRoot | undefined
  /** The other files it read (setup files), absolute: a change to one changes the plan. */
  inputs: string[]
}

export interface PlanOptions {
  /** Targets must stay inside this folder (the project root, or the Org file's folder) or one of `allowed`. */
  boundary: {root: string; allowed: readonly string[]}
  /** File-system lookups shared by the documents of one run. */
  disk?: DiskView
}

export function planDocument(orgPath: string, input: Uint8Array | string, options: PlanOptions): DocumentPlan {
  const file = path.resolve(orgPath)
  let read = readDocument(file, input)
  const setup = namesSetupFiles(read.root) ? collectKeywords(file, read.root) : undefined
  if (setup?.keywords.some((keyword) => keyword.key.endsWith('TODO'))) {
    // A setup file's #+TODO: lines change which words of a headline are its TODO keyword: read again with them.
    read = readDocument(file, input, {todoKeywords: todoKeywordsOf(setup.keywords)})
  }
  const root = read.root
  const diagnostics: Diagnostic[] = [...read.diagnostics, ...(setup?.diagnostics ?? [])]
  const seen = new Set<string>()
  const report = (message: Message, place: Position | undefined) => {
    const key = `${message.ruleId}:${place?.start.line}:${place?.start.column}:${message.reason}`
    if (seen.has(key)) return
    seen.add(key)
    diagnostics.push(diagnostic(file, message, place))
  }
  if (root.data.encoding === 'latin-1') report(latin1(), undefined)
  if (root.data.eol === 'lf' && root.data.text.includes('\r\n')) report(mixedLineEndings(), undefined)
  const doc = new OrgDocument(file, root, setup?.keywords)
  lintHeaderArguments(doc, report)
  const context: NowebContext = {doc, infos: new BlockInfos(doc), babel: new BabelIndex(doc), point: 0, warn: report}
  const plan: DocumentPlan = {
    path: file,
    targets: [],
    diagnostics,
    blockCount: 0,
    failed: diagnostics.some(isError),
    root,
    inputs: setup?.inputs ?? [],
  }
  if (plan.failed) return plan
  try {
    const groups = collectBlocks(context)
    const targets: TargetPlan[] = []
    for (const [fileName, specs] of groups) {
      const assembled = assembleFile(fileName, specs, path.basename(file))
      targets.push({
        path: expandFileName(fileName, path.dirname(file)),
        fileName,
        content: toText(assembled.lines),
        lines: assembled.lines,
        mode: assembled.mode,
        makeDirectory: assembled.makeDirectory,
        blocks: assembled.blocks,
        spans: assembled.spans,
      })
      plan.blockCount += specs.length
    }
    plan.targets = checkTargets(targets, options.boundary, options.disk ?? new DiskView(), report)
  } catch (error) {
    if (!(error instanceof Failure)) throw error
    report(error.problem, error.place)
    plan.failed = true
    plan.targets = []
    plan.blockCount = 0
  }
  return plan
}

/**
 * Refuse what Org would fail on or what safety forbids, before anything is
 * written: targets outside the boundary, directories, missing parent
 * directories without `:mkdirp`. Two spellings of one path: the later wins.
 */
function checkTargets(
  targets: TargetPlan[],
  boundary: PlanOptions['boundary'],
  disk: DiskView,
  report: (message: Message, place: Position | undefined) => void,
): TargetPlan[] {
  const created = new Set<string>()
  const byPath = new Map<string, TargetPlan>()
  // Real paths: a folder reached through a link is where the link leads.
  const inside = [boundary.root, ...boundary.allowed].map((folder) => disk.realpath(folder))
  for (const target of targets) {
    const place = target.blocks[0]?.open
    const directory = path.dirname(target.path)
    const unusable = unusablePath(target.path, disk)
    if (unusable) throw new Failure(unwritableTarget(target.fileName, unusable), place)
    // Emacs deletes an existing target (a link too) and writes a new file; a link that leads nowhere it writes
    // through, creating the file where it leads: held to the same boundary.
    const linked = followDanglingLink(target.path, disk)
    if ('kind' in linked) throw new Failure(unwritableTarget(target.fileName, linked), place)
    target.path = linked.file
    const special = disk.entryOf(target.path)
    // A link is replaced, as Emacs deletes it; a device, a pipe or a socket is not touched.
    if (special && !special.isFile() && !special.isDirectory() && !special.isSymbolicLink())
      throw new Failure(
        unwritableTarget(target.fileName, {kind: 'not-a-file', file: target.path, what: kindOf(special)}),
        place,
      )
    const real = disk.realTarget(target.path)
    if (!inside.some((folder) => folder === path.sep || isInside(real, folder)))
      throw new Failure(tangleMessages.outsideRoot(target.fileName, target.path, boundary.root, directory), place)
    const earlier = byPath.get(target.path)
    if (earlier) {
      report(tangleMessages.duplicateTarget(target.fileName, earlier.fileName), place)
      byPath.delete(target.path)
    }
    if (target.fileName.endsWith('/') || disk.isDirectoryEntry(target.path))
      throw new Failure(tangleMessages.targetIsDirectory(target.fileName), place)
    if (target.makeDirectory) {
      for (let d = directory; !created.has(d) && d !== path.dirname(d); d = path.dirname(d)) created.add(d)
    } else if (!created.has(directory) && !disk.isDirectory(directory)) {
      throw new Failure(tangleMessages.missingDirectory(target.fileName), place)
    }
    byPath.set(target.path, target)
  }
  return [...byPath.values()]
}

/** How many links a chain may hold before it counts as a loop (the kernel's own limit). */
const MAX_LINKS = 40

/**
 * Where Emacs writes the target FILE: FILE itself, unless it is a link that leads to nothing (`file-exists-p`
 * is false, so Org does not delete it first, and write-region writes through it): then where it leads.
 */
function followDanglingLink(file: string, disk: DiskView): {file: string} | UnusablePath {
  if (!disk.entryOf(file)?.isSymbolicLink() || disk.kind(file) !== 'missing') return {file}
  let current = file
  for (let hops = 0; disk.entryOf(current)?.isSymbolicLink(); hops++) {
    if (hops === MAX_LINKS) return {kind: 'link-error', link: file, error: 'too many links (a loop?)'}
    try {
      current = path.resolve(path.dirname(current), fs.readlinkSync(current))
    } catch (error) {
      return {kind: 'link-error', link: file, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message}
    }
  }
  return {file: current}
}

/** What a directory entry that is neither a file nor a folder is, for a message. */
function kindOf(entry: fs.Dirent): string {
  if (entry.isCharacterDevice()) return 'a character device'
  if (entry.isBlockDevice()) return 'a block device'
  if (entry.isFIFO()) return 'a named pipe'
  if (entry.isSocket()) return 'a socket'
  return 'not a regular file'
}

/** The longest name a file system here takes for one file or folder, and for a whole path, in bytes. */
const NAME_MAX = 255
const PATH_MAX = 4095

/**
 * Why no file can be written at FILE, whatever the options, or undefined: a NUL byte, a name or a path
 * longer than the file system takes, a file where a folder of the path should be, or an error of the
 * file system itself. Found before anything is written, so the document fails at its block, not in a
 * stack trace.
 */
function unusablePath(file: string, disk: DiskView): UnusablePath | undefined {
  if (file.includes('\0')) return {kind: 'nul'}
  if (Buffer.byteLength(file) > PATH_MAX) return {kind: 'path-too-long', bytes: Buffer.byteLength(file), max: PATH_MAX}
  const long = file.split(path.sep).find((part) => Buffer.byteLength(part) > NAME_MAX)
  if (long !== undefined) return {kind: 'name-too-long', name: long, bytes: Buffer.byteLength(long), max: NAME_MAX}
  for (let folder = path.dirname(file); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const kind = disk.kind(folder)
    if (kind === 'missing') continue
    if (kind === 'directory') return undefined
    if (kind === 'other') return {kind: 'not-a-folder', folder}
    return {kind: 'folder-error', folder, error: kind.code ?? kind.message}
  }
  return undefined
}
