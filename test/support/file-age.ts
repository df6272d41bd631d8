/**
 * Waiting for a file to be older than the clock tick in which a cache does not trust its stamp (the tangle
 * cache's and the session's "racily clean" rule: 50 ms).
 */
import fs from 'node:fs'

/** Resolves once FILE's last change (its times or its inode) lies MS behind the clock; fails after 5 s. */
export async function olderThan(file: string, ms: number): Promise<void> {
  const changed = () => {
    const stats = fs.statSync(file)
    return Math.max(stats.mtimeMs, stats.ctimeMs)
  }
  const deadline = Date.now() + 5000
  while (Date.now() - changed() < ms) {
    if (Date.now() > deadline) throw new Error(`${file} older than ${ms} ms: its change is ahead of the clock`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
