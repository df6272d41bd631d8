/**
 * What the weave knows of one Org document before any page is made, read once: the tangler's plan of it (its
 * tree, and every line it writes with the Org line it came from), what it declares (IDs, `#+DEPENDS_ON:`), and
 * for each source block what its page says of it: its anchor, its body as tangling takes it, the noweb references
 * in it, the names it answers to, and where its lines go. Each document's inputs are kept apart, so that a later
 * re-weave of one saved document can make them again alone.
 */
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {includeOutside} from '../messages/weave.ts'
import type {Headline, OrgRoot, SrcBlock} from '../org/ast.ts'
import {documentMeta, type DocumentMeta} from '../org/document-meta.ts'
import {BlockInfos} from '../tangle/block-info.ts'
import {OrgDocument} from '../tangle/document.ts'
import {findReferences, nowebEnabled} from '../tangle/noweb.ts'
import {documentBoundary, planFile} from '../tangle/run-document.ts'
import type {DocumentPlan, TargetPlan} from '../tangle/tangle-document.ts'
import {isInside} from '../project.ts'
import {DiskView} from '../tangle/disk.ts'
import {type Include, parseInclude} from './include.ts'

export interface WovenBlock {
  block: SrcBlock
  /** Its anchor in the page (`code-NAME`, `code-N` for a block with no name). */
  anchor: string
  language: string | null
  /** Its body as tangling takes it (commas unescaped, common indentation removed), one entry a line. */
  lines: string[]
  /** The names a noweb reference calls it by: its `#+NAME:` and its `:noweb-ref`. */
  names: string[]
  /** The noweb references of its body, when noweb is on for tangling. */
  references: BlockReference[]
  /** The lines of the files its body was written to: its own target, or the files its users wrote it into. */
  outputs: BlockOutput[]
  /** The blocks whose references name it, in document order. */
  usedIn: WovenBlock[]
  /** The identifiers its code declares (functions, classes, types, constants), for the search. */
  identifiers: string[]
}

export interface BlockReference {
  /** 0-based line of the body and 0-based columns (UTF-16), `<<` to after `>>`. */
  line: number
  start: number
  end: number
  name: string
  /** The blocks it names, in document order: none when it names no block. */
  targets: WovenBlock[]
}

export interface BlockOutput {
  /** The file, absolute. */
  file: string
  /** 1-based lines of the file, both included. */
  first: number
  last: number
  /** Written there by a noweb reference of another block, not as a block of its own. */
  throughReference: boolean
}

export interface WovenHeading {
  headline: Headline
  /** Its anchor: its `:ID:` when it has one, else one made from its title. */
  anchor: string
  title: string
  id: string | undefined
}

export interface WeaveDocument {
  /** The Org file, absolute. */
  path: string
  /** Its page, under the site's folder (site-map.ts). */
  page: string
  title: string
  plan: DocumentPlan
  /** Undefined when the document could not be read. */
  root: OrgRoot | undefined
  meta: DocumentMeta | undefined
  headings: WovenHeading[]
  blocks: WovenBlock[]
  /** Its file-level `:ID:`s: each leads to the top of its page. */
  fileIds: string[]
  /** Its `#+INCLUDE:` lines, by their 1-based line. */
  includes: Map<number, Include>
  /** The reader's and the tangler's errors and warnings: a document with an error gets no page. */
  diagnostics: Diagnostic[]
}

/** Read and plan the Org file FILE, whose page is PAGE. */
export function readWeaveDocument(
  file: string,
  page: string,
  allowOutside: readonly string[],
  disk = new DiskView(),
): WeaveDocument {
  const plan = planFile(file, allowOutside, disk)
  const document: WeaveDocument = {
    path: file,
    page,
    title: path.basename(file, '.org'),
    plan,
    root: plan.root,
    meta: plan.root && documentMeta(file, plan.root),
    headings: [],
    blocks: [],
    fileIds: [],
    includes: new Map(),
    diagnostics: plan.diagnostics,
  }
  if (!plan.root || plan.failed) return document
  const doc = new OrgDocument(file, plan.root)
  document.title = doc.keywords.findLast((keyword) => keyword.key === 'TITLE')?.value || document.title
  document.headings = headingsOf(doc)
  document.fileIds = idsOf(doc, -1)
  document.blocks = blocksOf(doc, plan)
  document.includes = includesOf(
    plan.root,
    file,
    documentBoundary(file, allowOutside, disk),
    disk,
    document.diagnostics,
  )
  return document
}

/**
 * The `#+INCLUDE:` lines of ROOT, the document FILE's, by line: those of a file inside BOUNDARY, the one tangle
 * holds targets to, its links followed. Org's own export includes any file it can read; a woven page is made to be
 * published, and an include of `~/.ssh/id_ed25519` or `/etc/passwd` would publish it: one outside is said in
 * DIAGNOSTICS and left out.
 */
function includesOf(
  root: OrgRoot,
  file: string,
  boundary: {root: string; allowed: readonly string[]},
  disk: DiskView,
  diagnostics: Diagnostic[],
): Map<number, Include> {
  const inside = [boundary.root, ...boundary.allowed].map((folder) => disk.realpath(folder))
  const includes = new Map<number, Include>()
  for (const node of root.children) {
    const include = node.type === 'keyword' && node.key === 'INCLUDE' ? parseInclude(node.value, file) : undefined
    if (!include) continue
    const real = disk.realpath(include.file)
    if (inside.some((folder) => folder === path.sep || isInside(real, folder)))
      includes.set(node.position.start.line, include)
    else diagnostics.push(diagnostic(file, includeOutside(include.file, boundary.root), node.position))
  }
  return includes
}

/** The headings of DOC with their anchors, each anchor once in the page. */
function headingsOf(doc: OrgDocument): WovenHeading[] {
  const taken = new Set<string>()
  return doc.headlines.map((headline) => {
    const title = headline.title ?? ''
    const id = idsOf(doc, headline.index)[0]
    const anchor = unique(id ?? `sec-${slug(title) || headline.index + 1}`, taken)
    return {headline, anchor, title, id}
  })
}

/** The `:ID:`s of the drawer of the headline HEADLINE (-1: the file's own). */
function idsOf(doc: OrgDocument, headline: number): string[] {
  const drawer = doc.drawers.get(headline)
  return (drawer?.properties ?? [])
    .filter((property) => property.key.toUpperCase() === 'ID' && property.value !== '')
    .map((property) => property.value)
}

/** The blocks of DOC as its page shows them, their references resolved and their outputs found in PLAN. */
function blocksOf(doc: OrgDocument, plan: DocumentPlan): WovenBlock[] {
  const infos = new BlockInfos(doc)
  const taken = new Set<string>()
  const blocks = doc.blocks.map((block): WovenBlock => {
    const info = infos.get(block, false)
    const nowebRef = info.params.string(':noweb-ref')
    const lines = info.body.map((line) => line.text)
    return {
      block,
      anchor: unique(`code-${block.name === null ? block.index + 1 : slug(block.name) || block.index + 1}`, taken),
      language: block.language,
      lines,
      names: [...new Set([block.name, nowebRef].filter((name): name is string => !!name))],
      references: nowebEnabled(info.params, 'tangle')
        ? lines.flatMap((text, line) => findReferences(text).map((found) => ({...found, line, targets: []})))
        : [],
      outputs: [],
      usedIn: [],
      identifiers: identifiersIn(lines, block.language),
    }
  })
  resolveReferences(blocks)
  const owners = ownersOfLines(blocks, doc.lines.length)
  for (const target of plan.targets) findOutputs(target, blocks, owners)
  return blocks
}

/** The block whose body holds each Org line (index: the 1-based line), of a document of COUNT lines. */
function ownersOfLines(blocks: readonly WovenBlock[], count: number): (WovenBlock | undefined)[] {
  const owners: (WovenBlock | undefined)[] = new Array(count + 1)
  for (const block of blocks)
    for (let line = block.block.open.start.line + 1; line < block.block.close.start.line; line++) owners[line] = block
  return owners
}

/**
 * Each reference's blocks, as Org finds them: the block whose `#+NAME:` it is, else every block whose
 * `:noweb-ref` it is; and each of those blocks' users.
 */
function resolveReferences(blocks: WovenBlock[]): void {
  const named = new Map<string, WovenBlock>()
  const byRef = new Map<string, WovenBlock[]>()
  for (const block of blocks) {
    if (block.block.name !== null && !named.has(block.block.name)) named.set(block.block.name, block)
    for (const name of block.names.filter((name) => name !== block.block.name))
      byRef.set(name, [...(byRef.get(name) ?? []), block])
  }
  for (const user of blocks) {
    for (const reference of user.references) {
      const byName = named.get(reference.name)
      reference.targets = byName ? [byName] : (byRef.get(reference.name) ?? [])
      for (const target of reference.targets) if (!target.usedIn.includes(user)) target.usedIn.push(user)
    }
  }
}

/**
 * Where TARGET's lines came from: a block of its own fills the lines the tangler says it wrote its body to
 * (assemble.ts); a block included by a reference fills the lines whose characters came from its body, from the
 * first to the last in each file.
 */
function findOutputs(target: TargetPlan, blocks: WovenBlock[], owners: readonly (WovenBlock | undefined)[]): void {
  target.blocks.forEach((block, index) => {
    const span = target.spans[index]!
    blocks[block.index]!.outputs.push({file: target.path, ...span, throughReference: false})
  })
  const included = new Map<WovenBlock, {first: number; last: number}>()
  target.lines.forEach((line, index) => {
    for (const segment of line.segments) {
      const block = owners[segment.line]
      if (!block || target.blocks.includes(block.block)) continue
      const span = included.get(block)
      if (span) span.last = index + 1
      else included.set(block, {first: index + 1, last: index + 1})
    }
  })
  for (const [block, span] of included) block.outputs.push({file: target.path, ...span, throughReference: true})
}

/** Declarations a reader looks a block up by: TypeScript's and JavaScript's, and Emacs Lisp's definitions. */
const DECLARATIONS: Record<string, RegExp> = {
  script: /\b(?:function\*?|class|interface|type|enum|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/g,
  lisp: /\((?:defun|defmacro|defvar|defcustom|defconst|defface|cl-defun|define-minor-mode|define-derived-mode)\s+([^\s()]+)/g,
}
const SCRIPT_LANGUAGES = new Set(['typescript', 'ts', 'javascript', 'js', 'tsx', 'jsx'])
const LISP_LANGUAGES = new Set(['emacs-lisp', 'elisp'])

/** The identifiers LINES of LANGUAGE declare, each once. */
function identifiersIn(lines: readonly string[], language: string | null): string[] {
  const pattern = SCRIPT_LANGUAGES.has(language ?? '')
    ? DECLARATIONS.script!
    : LISP_LANGUAGES.has(language ?? '')
      ? DECLARATIONS.lisp!
      : undefined
  if (!pattern) return []
  return [...new Set(lines.flatMap((line) => [...line.matchAll(pattern)].map((match) => match[1]!)))]
}

/** TEXT as a fragment of an anchor: lower-case words joined by `-`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
}

/** ANCHOR, or ANCHOR-2, -3…, the first not TAKEN; taken from then on. */
function unique(anchor: string, taken: Set<string>): string {
  let candidate = anchor
  for (let n = 2; taken.has(candidate); n++) candidate = `${anchor}-${n}`
  taken.add(candidate)
  return candidate
}
