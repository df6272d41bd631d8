/**
 * The plans of the skill documents, kept between the processes of a project: a core that boots on skills unchanged
 * since a session last planned them loads them from their plans instead of reading their Org again (parsing and
 * planning the shipped skills was the largest part of a boot's own work: 30 ms of CPU of the 3, 65 of a profiled
 * boot's 780).
 *
 * A plan is decided by its Org file, the files it read (setup files), the tool's build that planned it, the project
 * its document is in (the folder its targets must stay in: a package.json made or removed above it moves it) and the
 * folders outside the project its targets may go to: an entry is taken only when all are as they were. Its document
 * as read (the Org tree, half its size) is not kept, only what the core takes from it (`DocumentMeta`).
 *
 * One file an Org document (its path's hash, under `stateFolder`'s `plans`), written beside and renamed into place
 * once it changed; a file that is damaged, of another shape or of another key is planned again and written afresh.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {type DocumentMeta, documentMeta} from '../org/document-meta.ts'
import {findProjectRoot} from '../project.ts'
import {readStateJson, stateFolder, writeStateFile} from '../tangle/cache.ts'
import type {DocumentPlan} from '../tangle/tangle-document.ts'

/** Changes whenever what a file holds changes shape. */
const FORMAT = 2

/** A plan as the core takes it: without the document as read, with what the document declares. */
export interface KeptPlan {
  plan: DocumentPlan
  meta: DocumentMeta
}

interface StoredPlan extends KeptPlan {
  key: string
  /** The Org file's stamp (`fileStamp`) when it was planned. */
  stamp: string
  /** The stamp of each file it read, null for one that was not there. */
  inputs: Record<string, string | null>
  /** The project the document was in when it was planned, null outside any. */
  project: string | null
}

export class SkillPlans {
  /** The stamp of the Org file each stored plan was planned from, as this process wrote or read it. */
  private readonly stored = new Map<string, string>()

  private constructor(
    private readonly folder: string,
    private readonly key: string,
  ) {}

  /**
   * The plans kept for the documents under FOLDER by the build TOOL, for targets allowed in ALLOW_OUTSIDE; undefined
   * without a build (a toolchain run from its sources, as the tests run it, has no identity to key them by).
   */
  static open(folder: string, tool: string | undefined, allowOutside: readonly string[]): SkillPlans | undefined {
    if (!tool) return undefined
    return new SkillPlans(stateFolder(folder, 'plans'), JSON.stringify({format: FORMAT, tool, allowOutside}))
  }

  /** The plan kept of FILE while it has STAMP and the files it read are as they were; undefined otherwise. */
  get(file: string, stamp: string): KeptPlan | undefined {
    const stored = readStateJson(this.fileOf(file)) as StoredPlan | undefined
    if (stored?.key !== this.key || stored.stamp !== stamp || stored.plan?.path !== file) return undefined
    if (stored.project !== projectOf(file)) return undefined
    if (Object.entries(stored.inputs ?? {}).some(([input, was]) => (fileStamp(input) ?? null) !== was)) return undefined
    this.stored.set(file, stamp)
    return {plan: stored.plan, meta: stored.meta}
  }

  /** Keep KEPT, FILE's plan while it has STAMP: written unless it is the one stored already. */
  keep(file: string, stamp: string, kept: KeptPlan): void {
    if (this.stored.get(file) === stamp) return
    const inputs = Object.fromEntries(kept.plan.inputs.map((input) => [input, fileStamp(input) ?? null]))
    const plan = {...kept.plan, root: undefined}
    const stored: StoredPlan = {key: this.key, stamp, inputs, project: projectOf(file), plan, meta: kept.meta}
    try {
      writeStateFile(this.fileOf(file), JSON.stringify(stored))
      this.stored.set(file, stamp)
    } catch {
      // A plan not kept is planned again at the next boot: nothing else is lost.
    }
  }

  /** FILE is gone: its plan too. */
  forget(file: string): void {
    this.stored.delete(file)
    fs.rmSync(this.fileOf(file), {force: true})
  }

  private fileOf(file: string): string {
    return path.join(this.folder, `${createHash('sha256').update(file).digest('hex').slice(0, 32)}.json`)
  }
}

/** The project FILE is in, as its plan's boundary takes it (run-document.ts's `planFile`); null outside any. */
function projectOf(file: string): string | null {
  return findProjectRoot(path.dirname(file)) ?? null
}

/** What PLAN's document declares; nothing for one that could not be read. */
export function planMeta(plan: DocumentPlan): DocumentMeta {
  return plan.root ? documentMeta(plan.path, plan.root) : {path: plan.path, ids: [], dependsOn: [], capabilities: []}
}

/**
 * FILE's size, times and inode, or undefined when it is gone or changed within the clock tick of now: two
 * saves in one tick carry the same times (the tangle cache's "racily clean" rule).
 */
export function fileStamp(file: string): string | undefined {
  const stat = fs.statSync(file, {throwIfNoEntry: false})
  if (!stat || Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) < RACY_MS) return undefined
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`
}

/** How recent a change must be for a file's stamp to be doubted (cache.ts says why). */
const RACY_MS = 50
