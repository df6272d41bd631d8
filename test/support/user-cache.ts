/**
 * The user's cache (XDG_CACHE_HOME) of the tests and of every process they start: a folder of this checkout, not the
 * person's ~/.cache. Each project a test writes outside an npm project keeps its tangle cache and check memory in the
 * user's cache, one entry a folder: thousands a run, none read again once the run ends, and nothing of the tool
 * removes them (a person's own folders are few and kept). Emptied as a run begins, so each run starts as a fresh
 * clone does.
 */
import fs from 'node:fs'
import path from 'node:path'

export const USER_CACHE = path.join(import.meta.dirname, '../../node_modules/.cache/tests-user-cache')

/** vitest's global setup: the cache of the last run removed. */
export function setup(): void {
  fs.rmSync(USER_CACHE, {recursive: true, force: true})
}
