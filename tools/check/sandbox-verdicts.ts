/**
 * The sandbox rules' clean verdicts, remembered, so that a boot parses only
 * the skill modules that changed: parsing means loading TypeScript's parser,
 * which was most of what a boot of the shipped skills cost (38% of its CPU,
 * about 57 MB).
 *
 * A verdict is decided by the rules (the tool's build that applied them), the
 * module's path (its extension picks the parser's dialect) and text, and the
 * capabilities its document grants: an entry's key is a hash of the four.
 * Builds share the file: the command line and the core are bundled apart,
 * each a build of its own, and both apply the rules (`check`, the boot). Only
 * clean verdicts are kept: a module with a violation is parsed again, so its
 * problems always come from the rules at its current Org lines.
 *
 * Kept beside the tangle cache (`stateFile`: node_modules/.cache/passepartout/
 * sandbox.json), or for folders outside an npm project in one file of the
 * user's cache they all share (`verdictsFile`), written to a temporary file and renamed into place; a file
 * that is damaged or of another shape is ignored. Entries not asked for in a
 * week (those of older builds) are dropped when it is written.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {userStateFolder} from '../project.ts'
import {stateFile, writeStateFile} from '../tangle/cache.ts'
import {number, object, record} from '../shape.ts'
import type {Capability} from './capabilities.ts'

/** Changes whenever what the file holds changes shape. */
const FORMAT = 1

const DAY_MS = 24 * 60 * 60 * 1000
/** How long an entry no boot or check asked for is kept. */
const KEEP_MS = 7 * DAY_MS

const fileShape = object({format: number, clean: record(number)})

export class SandboxVerdicts {
  private dirty = false

  private constructor(
    private readonly file: string,
    private readonly tool: string,
    /** Each clean verdict's key, with when it was last asked for (ms since the epoch). */
    private readonly clean: Record<string, number>,
  ) {}

  /**
   * The verdicts remembered for the documents under FOLDER by the build TOOL; undefined without a build (a
   * toolchain run from its sources, as the tests run it, has no identity to key them by).
   */
  static open(folder: string, tool: string | undefined): SandboxVerdicts | undefined {
    if (!tool) return undefined
    const file = verdictsFile(folder)
    let stored: unknown
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8'))
    } catch {
      // None yet, or one cut short: every module is parsed, and the file is written afresh.
      stored = undefined
    }
    const clean = fileShape(stored) && stored.format === FORMAT ? stored.clean : {}
    return new SandboxVerdicts(file, tool, clean)
  }

  /** Whether the rules found the module at FILE with TEXT clean under GRANTED, as they stand. */
  isClean(file: string, text: string, granted: Iterable<Capability>): boolean {
    const key = verdictKey(this.tool, file, text, granted)
    const used = this.clean[key]
    if (used === undefined) return false
    // When it was used is written again once a day at most, not at every boot.
    if (Date.now() - used > DAY_MS) {
      this.clean[key] = Date.now()
      this.dirty = true
    }
    return true
  }

  /** Remember that the rules found the module at FILE with TEXT clean under GRANTED. */
  rememberClean(file: string, text: string, granted: Iterable<Capability>): void {
    this.clean[verdictKey(this.tool, file, text, granted)] = Date.now()
    this.dirty = true
  }

  /** Write what was learnt or used since the file was read; a file that cannot be written only costs time. */
  save(): void {
    if (!this.dirty) return
    const since = Date.now() - KEEP_MS
    const clean = Object.fromEntries(Object.entries(this.clean).filter(([, used]) => used >= since))
    try {
      writeStateFile(this.file, JSON.stringify({format: FORMAT, clean}))
      this.dirty = false
    } catch {
      // The next boot parses what this one could not remember.
    }
  }
}

/**
 * Where the verdicts for the documents under FOLDER are kept: beside its tangle cache in an npm project, else in one
 * file of the user's cache for every such folder. A key holds all that decides its verdict, the module's path among
 * them, so folders can share the file: the shipped skills, read by every project from this installation, are
 * parsed once for all of them, not once a folder (about 0.6 s of CPU a first boot, TypeScript's parser loaded).
 */
function verdictsFile(folder: string): string {
  return fs.existsSync(path.join(folder, 'node_modules'))
    ? stateFile(folder, 'sandbox')
    : path.join(userStateFolder(), 'sandbox.json')
}

/** What decides a module's verdict: the rules (TOOL), its path, its text and its grants, as one hash. */
function verdictKey(tool: string, file: string, text: string, granted: Iterable<Capability>): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, file, [...granted].sort(), text]))
    .digest('base64url')
}
