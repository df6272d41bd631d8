/**
 * What `check` remembers of its last clean answer, so that a check with nothing
 * changed does not run the compiler again (at 1000 documents the compiler is
 * most of a check: tangling what did not change takes a fifth of it).
 *
 * The answer (no error from the compiler or the sandbox rules; the compiler's
 * warnings, kept as the compiler gave them, at their place in the generated
 * file, so that they are mapped to Org lines as a full check maps them) stands
 * while all of what it was computed from is as it was:
 *
 * - the key: the format of this file, the tool's build (its rules, the sandbox
 *   rules among them), the compiler (its version and the file that runs it) and
 *   the project's tsconfig.json path;
 * - the roots: the generated files, by path and content;
 * - the grants: the capabilities each skill file is held to by the sandbox rules;
 * - the inputs: every other file the compiler read (its `--listFiles`: the lib
 *   files, the declarations of Node and of the dependencies, hand-written files
 *   imported), and what decides how it finds files without being one of them
 *   (compiler-inputs.ts: tsconfig.json and the configurations it extends,
 *   package.json, the package manager's record of node_modules).
 *
 * Only a clean answer is kept: a program with an import that failed to resolve
 * is never remembered, so a file that appears where an import looked for one
 * cannot leave a stale answer behind. One answer is kept, the last clean one,
 * in the project's node_modules/.cache/passepartout/check.json, written to a
 * temporary file and renamed into place; a file that is damaged, of another
 * shape or of another key is ignored.
 */
import {array, literal, number, object, optional, string} from '../shape.ts'
import type {TsProblem} from './checker.ts'
import {type FileRecord, fileRecordsShape, RACY_MS, recordOf, stampOf, unchanged} from './file-records.ts'
import {readStateJson, writeStateFile} from '../tangle/cache.ts'

/** Changes whenever what the file holds changes shape. */
const FORMAT = 1

interface Answer {
  key: string
  grants: string
  roots: FileRecord[]
  inputs: FileRecord[]
  problems: TsProblem[]
}

const problemShape = object({
  file: optional(string),
  line: number,
  column: number,
  code: string,
  message: string,
  severity: literal('warning'),
})
const answerShape = object({
  key: string,
  grants: string,
  roots: fileRecordsShape,
  inputs: fileRecordsShape,
  problems: array(problemShape),
})

/** The files the compiler is about to read, as they are before it starts, and when that was. */
export interface Snapshot {
  /** The generated files. */
  roots: FileRecord[]
  /** The files that say how the compiler finds files (compiler-inputs.ts). */
  configuration: FileRecord[]
  startedMs: number
}

export class CheckMemory {
  private constructor(
    private readonly file: string,
    private readonly key: string,
    private answer: Answer | undefined,
  ) {}

  /** The memory in FILE, for the checks whose key parts are PARTS (see above). */
  static open(file: string, parts: {tool: string; compiler: string; tsconfig: string | undefined}): CheckMemory {
    const key = JSON.stringify({format: FORMAT, ...parts})
    // None yet, or one cut short: this check answers afresh.
    const stored = readStateJson(file)
    const answer = answerShape(stored) && stored.key === key ? (stored as Answer) : undefined
    return new CheckMemory(file, key, answer)
  }

  /**
   * The remembered problems of the program rooted at ROOTS (sorted), when none of what the answer was computed
   * from changed; with GRANTS, the skills' grants (`GeneratedFiles.grants`) must be the same too. Undefined
   * when the check must run.
   */
  recall(roots: readonly string[], grants?: string): TsProblem[] | undefined {
    const answer = this.answer
    if (!answer || answer.roots.length !== roots.length) return undefined
    if (grants !== undefined && grants !== answer.grants) return undefined
    if (answer.roots.some((record, k) => record.path !== roots[k])) return undefined
    let refreshed = false
    for (const records of [answer.roots, answer.inputs]) {
      for (let k = 0; k < records.length; k++) {
        const look = unchanged(records[k]!)
        if (!look.same) return undefined
        if (look.refreshed) {
          records[k] = look.refreshed
          refreshed = true
        }
      }
    }
    // Stamps that had to be looked behind are kept as they now are: the next check reads none of those files.
    if (refreshed) this.save(answer)
    return answer.problems
  }

  /**
   * The generated files ROOTS and the CONFIGURATION files as the compiler is about to read them: their hashes are
   * taken before it starts, so that a change while it runs shows as a hash that differs from the next look.
   */
  snapshot(roots: readonly string[], configuration: readonly string[]): Snapshot {
    const before = [...(this.answer?.roots ?? []), ...(this.answer?.inputs ?? [])]
    const known = new Map(before.map((record) => [record.path, record]))
    const records = (files: readonly string[]) => files.map((file) => recordOf(file, known.get(file)))
    return {roots: records(roots), configuration: records(configuration), startedMs: Date.now()}
  }

  /**
   * Keep the clean answer of the compiler started at SNAPSHOT: its PROBLEMS (warnings only), with the skills'
   * GRANTS, having read READ beside the roots. Not kept when one of the files read changed since the compiler
   * started (what it read of it cannot be known); whether it was kept.
   */
  remember(snapshot: Snapshot, grants: string, read: readonly string[], problems: readonly TsProblem[]): boolean {
    const taken = new Set([...snapshot.roots, ...snapshot.configuration].map((record) => record.path))
    const known = new Map(this.answer?.inputs.map((record) => [record.path, record]))
    const inputs = [...snapshot.configuration]
    for (const file of [...new Set(read)].filter((file) => !taken.has(file)).sort()) {
      const changed = stampOf(file)?.changedMs
      if (changed !== undefined && changed >= snapshot.startedMs - RACY_MS) return false
      inputs.push(recordOf(file, known.get(file)))
    }
    this.answer = {key: this.key, grants, roots: snapshot.roots, inputs, problems: [...problems]}
    return this.save(this.answer)
  }

  private save(answer: Answer): boolean {
    try {
      writeStateFile(this.file, JSON.stringify(answer))
      return true
    } catch {
      // A memory that cannot be written only costs the next check its time.
      return false
    }
  }
}
