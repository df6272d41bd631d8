/**
 * Watch Org documents with chokidar and report them in settled batches:
 * editors save in several steps (write a temporary file, rename, touch), and
 * one save must become one batch, not three.
 */
import fs from 'node:fs'
import path from 'node:path'
import {watch} from 'chokidar'
import {isSkippedEntry, listOrgFiles} from '../project.ts'

export interface OrgChange {
  kind: 'changed' | 'removed'
  /** Absolute path of the Org file. */
  path: string
  /** When the first event of this batch for the file came (`performance.now()`): where a save's latency starts. */
  at: number
}

export interface OrgWatcher {
  /** Resolves once the initial scan is done and every change after it will be seen. */
  ready: Promise<void>
  close(): Promise<void>
}

export interface WatchOptions {
  /** Quiet time after the last event before a batch is delivered. */
  settleMs?: number
  /** How often a deleted root folder is looked for. */
  pollMs?: number
  onError?: (error: Error) => void
}

/** Watch the `.org` files under ROOTS (files or folders); ON_CHANGES gets each settled batch, in path order. */
export function watchOrgFiles(roots: string[], onChanges: (changes: OrgChange[]) => void, options: WatchOptions = {}): OrgWatcher {
  const settleMs = options.settleMs ?? 50
  const watcher = watch(roots, {
    ignoreInitial: true,
    ignored: (file, stats) => isSkippedEntry(path.basename(file), stats?.isDirectory() ?? false) && !roots.includes(file),
  })
  let pending = new Map<string, {kind: OrgChange['kind']; at: number}>()
  let timer: NodeJS.Timeout | undefined
  const note = (kind: OrgChange['kind']) => (file: string) => {
    if (!file.endsWith('.org')) return
    const resolved = path.resolve(file)
    pending.set(resolved, {kind, at: pending.get(resolved)?.at ?? performance.now()})
    clearTimeout(timer)
    timer = setTimeout(flush, settleMs)
  }
  const flush = () => {
    const batch = [...pending].map(([file, {kind, at}]) => ({kind, path: file, at})).sort((a, b) => (a.path < b.path ? -1 : 1))
    pending = new Map()
    if (batch.length > 0) onChanges(batch)
  }
  watcher.on('add', note('changed')).on('change', note('changed')).on('unlink', note('removed'))
  watcher.on('error', (error) => options.onError?.(error as Error))
  // A watched folder that is deleted (a checkout, `rm -r org`) is waited for: chokidar does not watch a
  // root again once it is gone, so its return is polled, and everything in it counts as changed.
  const waiting = new Map<string, NodeJS.Timeout>()
  watcher.on('unlinkDir', (folder) => {
    const root = path.resolve(folder)
    if (!roots.includes(root) || waiting.has(root)) return
    waiting.set(
      root,
      setInterval(() => {
        if (!fs.existsSync(root)) return
        clearInterval(waiting.get(root))
        waiting.delete(root)
        watcher.unwatch(root)
        watcher.add(root)
        for (const file of listOrgFiles(root)) note('changed')(file)
      }, options.pollMs ?? 250),
    )
  })
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  return {
    ready,
    async close() {
      clearTimeout(timer)
      for (const poll of waiting.values()) clearInterval(poll)
      await watcher.close()
    },
  }
}
