/**
 * One document as a run of `tangle` needs it: planned, held to where a skill
 * may write, its source maps written, and reduced to what the run writes and
 * says. The generated lines and their Org origins are not kept (the check
 * plans a document again when a problem in it needs them): a run of 1000
 * documents that kept them all spent a tenth of its time collecting garbage.
 */
import path from 'node:path'
import type {Position} from 'unist'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {readFailed} from '../messages/io.ts'
import {type DocumentMeta, documentMeta} from '../org/document-meta.ts'
import {isInside, isTestFile, skillsFolder} from '../project.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import {DiskView} from './disk.ts'
import {skillTargetRefusal} from './skill-targets.ts'
import {sourceMapOf, sourceMapPath, sourceMapsFolder, writeSourceMap} from './source-map.ts'
import {type DocumentPlan, planDocument} from './tangle-document.ts'
import type {WriteTarget} from './write.ts'

export interface PlannedDocument {
  /** Absolute path of the Org file. */
  path: string
  failed: boolean
  blockCount: number
  diagnostics: Diagnostic[]
  /** What the document declares about itself; absent when it could not be read. */
  meta: DocumentMeta | undefined
  targets: WriteTarget[]
  /** The other files it read (setup files), absolute. */
  inputs: string[]
  /** The whole plan, with every generated line's Org origin: dropped by a run unless it was asked to keep it. */
  plan: DocumentPlan
}

export interface RunOptions {
  /** Folders outside the project (or outside the Org file's folder) where targets may go; `/` allows everywhere. */
  allowOutside: readonly string[]
  /** What becomes of the source maps of the code the project's documents write (`SourceMaps`). */
  sourceMaps: SourceMaps
}

/**
 * `write`: every code file's map is written. `update`: only the maps already there are written again, so that none
 * says what an older version of its document said, and no new one is made (`passepartout tangle`: a map serves the
 * commands that run the code, and making one file more for each code file doubled the files a fresh tangle
 * creates, where creating a file is most of its time). `none`: no map is touched.
 */
export type SourceMaps = 'write' | 'update' | 'none'

/** Plan the Org file FILE for a run. */
export function planForRun(file: string, options: RunOptions, disk: DiskView): PlannedDocument {
  const plan = planFile(file, options.allowOutside, disk)
  const planned: PlannedDocument = {
    path: plan.path,
    failed: plan.failed,
    blockCount: plan.blockCount,
    diagnostics: plan.diagnostics,
    meta: plan.root && documentMeta(plan.path, plan.root),
    inputs: plan.inputs,
    plan,
    targets: plan.targets.map((target) => ({
      path: target.path,
      fileName: target.fileName,
      content: target.content,
      mode: target.mode,
      makeDirectory: target.makeDirectory,
      place: target.blocks[0]?.open,
      blockLines: target.blocks.map((block) => block.open.start.line),
      lineCount: target.lines.length - 1,
    })),
  }
  if (refuseSkillTargets(planned, disk)) return planned
  if (options.sourceMaps !== 'none') writeSourceMaps(plan, disk, options.sourceMaps)
  return planned
}

/** The plan of the Org file FILE as it is on disk: what it would write, line by line with origins. */
export function planFile(file: string, allowOutside: readonly string[], disk = new DiskView()): DocumentPlan {
  const read = readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
  if (!read.ok)
    return {
      path: file,
      targets: [],
      diagnostics: [diagnostic(file, readFailed(file, read.why))],
      blockCount: 0,
      failed: true,
      root: undefined,
      inputs: [],
    }
  return planBytes(file, read.bytes, allowOutside, disk)
}

/** The plan of BYTES as the Org file FILE, held to the boundary a run holds it to: what it would write, in memory. */
export function planBytes(
  file: string,
  bytes: Uint8Array,
  allowOutside: readonly string[],
  disk = new DiskView(),
): DocumentPlan {
  return planDocument(file, bytes, {boundary: documentBoundary(file, allowOutside, disk), disk})
}

/** Where what the document FILE writes (or, woven, includes) must be: its project, or its loose root, and ALLOWED. */
export function documentBoundary(
  file: string,
  allowed: readonly string[],
  disk: DiskView,
): {root: string; allowed: readonly string[]} {
  return {root: disk.projectRoot(path.dirname(file)) ?? looseRoot(file, allowed), allowed}
}

/**
 * The root of FILE, a document outside any project: the nearest of the ALLOWED folders that holds it (the
 * folder a command works on is one: inputs.ts), else its own folder. Its targets may go anywhere under it, and
 * a refusal names it.
 */
function looseRoot(file: string, allowed: readonly string[]): string {
  const holding = allowed.filter((folder) => isInside(file, folder))
  return holding.sort((a, b) => b.length - a.length)[0] ?? path.dirname(file)
}

/** Where the skill document of PLAN tangles where a skill may not (skill-targets.ts), each at its block; none for a document that is no skill. */
export function skillTargetProblems(plan: DocumentPlan, disk: DiskView): Diagnostic[] {
  const project = disk.projectRoot(path.dirname(plan.path))
  if (!project) return []
  return plan.targets.flatMap((target) => {
    const refusal = skillTargetRefusal(plan.path, target.path, skillsFolder(project), project)
    return refusal ? [diagnostic(plan.path, refusal, target.blocks[0]?.open)] : []
  })
}

/** A skill document that writes outside the skills' folders writes nothing; true when refused. */
function refuseSkillTargets(document: PlannedDocument, disk: DiskView): boolean {
  const refused = skillTargetProblems(document.plan, disk)
  if (refused.length === 0) return false
  document.diagnostics.push(...refused)
  document.failed = true
  document.blockCount = 0
  document.targets = []
  return true
}

/**
 * The maps of PLAN's code targets, beside nothing Emacs writes. A test file's by token, so that the caret vitest
 * puts under a failure lands on its Org column (the compiler's map composes with it token by token); the rest by
 * line, the Org line being what a stack trace needs: by token, the code of a thousand skill documents took 200 ms
 * more (and nine times the bytes) where by line it takes 40. HOW says whether a map not there yet is made (`SourceMaps`).
 */
function writeSourceMaps(plan: DocumentPlan, disk: DiskView, how: 'write' | 'update'): void {
  const project = disk.projectRoot(path.dirname(plan.path))
  if (!project) return
  // Where the state folder is asks whether node_modules is there: once a run, not once a document.
  const maps = sourceMapsFolder(project, (file) => disk.exists(file))
  for (const target of plan.targets) {
    const file = sourceMapPath(maps, project, target.path)
    // Whether a map is there comes from one listing of its folder a run, not from a system call per map.
    if (!file || (how === 'update' && !disk.entryOf(file))) continue
    try {
      const precision = isTestFile(target.path) ? 'token' : 'line'
      writeSourceMap(file, JSON.stringify(sourceMapOf(target.path, target.lines, plan.path, precision)))
    } catch {
      // A map that cannot be written costs only the Org lines of a stack trace.
    }
  }
}
