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
  let pending = new Map<string, {at: number}>()
  let timer: NodeJS.Timeout | undefined
  // What happened to a file is read from the disk when its batch is delivered: events only say where to look.
  const note = (file: string) => {
    if (!file.endsWith('.org')) return
    const resolved = path.resolve(file)
    pending.set(resolved, {at: pending.get(resolved)?.at ?? performance.now()})
    clearTimeout(timer)
    timer = setTimeout(flush, settleMs)
  }
  // What each file was when it was last delivered: a change is reported twice (by chokidar and by the raw
  // event, once each side of a settling), and a removal is reported again when chokidar's own comes.
  const delivered = new Map<string, string>()
  const flush = () => {
    const batch: OrgChange[] = []
    for (const [file, {at}] of pending) {
      const stamp = fileStamp(file)
      if (delivered.get(file) === stamp) continue
      delivered.set(file, stamp)
      batch.push({kind: stamp === MISSING ? 'removed' : 'changed', path: file, at})
    }
    pending = new Map()
    if (batch.length > 0) onChanges(batch.sort((a, b) => (a.path < b.path ? -1 : 1)))
  }
  watcher.on('add', note).on('change', note).on('unlink', note)
  // chokidar drops a file's change that comes within 50 ms of the last one it reported (its throttle): a save
  // that quick would wait for someone to look again. The file system's own events, which chokidar passes on
  // as `raw`, are not throttled; they are noted too, and the settling makes one change of both.
  watcher.on('raw', (_event, name, details) => {
    const file = rawEventPath(name, (details as {watchedPath?: string}).watchedPath)
    if (file && !isSkippedEntry(path.basename(file), false)) note(file)
  })
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
        for (const file of listOrgFiles(root)) note(file)
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

/**
 * The file a raw event of fs.watch is about: NAME in the folder WATCHED, or WATCHED itself when chokidar
 * watches that file (it watches each file it knows, and each folder).
 */
function rawEventPath(name: string | undefined, watched: string | undefined): string | undefined {
  if (!name || !watched) return undefined
  return path.basename(watched) === name && watched.endsWith('.org') ? watched : path.join(watched, name)
}

const MISSING = 'missing'

/** What identifies one version of FILE on disk, or that it is missing. */
export function fileStamp(file: string): string {
  const stats = fs.statSync(file, {throwIfNoEntry: false, bigint: true})
  return stats ? `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` : MISSING
}
