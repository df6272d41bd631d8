/**
 * Watch Org documents with chokidar and report them in settled batches:
 * editors save in several steps (write a temporary file, rename, touch), and
 * one save must become one batch, not three. The same holds for the generated
 * files a caller asks for too (`alsoReports`): an editor's save of one is one
 * change, whatever dance it does.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type FSWatcher, watch} from 'chokidar'
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
  /** How often a root that is not there (deleted, or not made yet) is looked for. */
  pollMs?: number
  /** Which files (absolute paths) are reported besides the `.org` files: generated files, for `watch --detangle`. */
  alsoReports?: (file: string) => boolean
  onError?: (error: Error) => void
}

/** Watch the `.org` files under ROOTS (files or folders); ON_CHANGES gets each settled batch, in path order. */
export function watchOrgFiles(
  roots: string[],
  onChanges: (changes: OrgChange[]) => void,
  options: WatchOptions = {},
): OrgWatcher {
  const settleMs = options.settleMs ?? 50
  const reports = (file: string) => file.endsWith('.org') || (options.alsoReports?.(path.resolve(file)) ?? false)
  let pending = new Map<string, {at: number}>()
  let timer: NodeJS.Timeout | undefined
  // What happened to a file is read from the disk when its batch is delivered: events only say where to look.
  const note = (file: string) => {
    if (!reports(file)) return
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
  // One chokidar watcher for each root, so that a root deleted and back is watched afresh, and its watcher says
  // when it is in place (chokidar says `ready` once only: a path added to a watcher that is ready never does).
  const watchers = new Map<string, FSWatcher>()
  const waiting = new Map<string, NodeJS.Timeout>()
  let closed = false
  const watchRoot = (root: string): Promise<void> => {
    const stats = fs.statSync(root, {throwIfNoEntry: false})
    // A root not there yet (a project's first org/) is waited for as one that went away: chokidar, given a path
    // that does not exist, takes what the folder holds when it comes for its initial scan and reports none of it,
    // so that the first document saved there (a core's first skill) was not applied until it was saved again.
    if (!stats) {
      awaitReturn(root)
      return Promise.resolve()
    }
    const isFolder = stats.isDirectory()
    const watcher = watch(root, {
      ignoreInitial: true,
      ignored: (file, stats) => isSkippedEntry(path.basename(file), stats?.isDirectory() ?? false) && file !== root,
    })
    watchers.set(root, watcher)
    watcher.on('add', note).on('change', note).on('unlink', note)
    // chokidar drops a file's change that comes within 50 ms of the last one it reported (its throttle): a save
    // that quick would wait for someone to look again. The file system's own events, which chokidar passes on
    // as `raw`, are not throttled; they are noted too, and the settling makes one change of both.
    watcher.on('raw', (event, name, details) => {
      const watched = (details as {watchedPath?: string}).watchedPath
      // The folder's own event (deleted, moved): chokidar says nothing when a folder made again at once took its
      // place before it looked (and the new one may have the old one's inode), and its watch stays on the folder
      // that is gone. (A file of the folder's own name in it looks the same: it costs a look at the folder.)
      if (isFolder && event === 'rename' && watched === root && name === path.basename(root)) awaitReturn(root)
      const file = rawEventPath(name, watched, reports)
      if (file && !isSkippedEntry(path.basename(file), false)) note(file)
    })
    watcher.on('error', (error) => options.onError?.(error as Error))
    watcher.on('unlinkDir', (gone) => {
      if (path.resolve(gone) === root) awaitReturn(root)
    })
    return new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  }
  // A watched folder that is deleted (a checkout, `rm -r org`), or not made yet, is waited for: chokidar does not
  // watch a root again once it is gone, so its return is polled, and it gets a watcher of its own again. Once that
  // one is in place, every document in the folder, and every one reported there before, is looked at: what was
  // saved or removed before the new watcher could see it is not lost (its own scan reports nothing).
  const awaitReturn = (root: string) => {
    if (waiting.has(root)) return
    const poll = setInterval(async () => {
      if (!fs.existsSync(root) || closed) return
      clearInterval(poll)
      waiting.delete(root)
      await watchers.get(root)?.close()
      if (closed) return
      await watchRoot(root)
      if (closed) return
      for (const file of delivered.keys()) if (file.startsWith(`${root}${path.sep}`)) note(file)
      for (const file of orgFilesIn(root)) note(file)
    }, options.pollMs ?? 250)
    waiting.set(root, poll)
  }
  const resolved = roots.map((root) => path.resolve(root))
  const ready = Promise.all(resolved.map(watchRoot)).then(() => {})
  return {
    ready,
    async close() {
      closed = true
      clearTimeout(timer)
      for (const poll of waiting.values()) clearInterval(poll)
      await Promise.all([...watchers.values()].map((watcher) => watcher.close()))
    },
  }
}

/**
 * The file a raw event of fs.watch is about: NAME in the folder WATCHED, or WATCHED itself when chokidar
 * watches that file (it watches each file it knows, and each folder): one that is REPORTED.
 */
function rawEventPath(
  name: string | undefined,
  watched: string | undefined,
  reported: (file: string) => boolean,
): string | undefined {
  if (!name || !watched) return undefined
  return path.basename(watched) === name && reported(watched) ? watched : path.join(watched, name)
}

const MISSING = 'missing'

/** The Org documents under ROOT (ROOT itself, a file), none when it is gone again. */
function orgFilesIn(root: string): string[] {
  try {
    return fs.statSync(root).isDirectory() ? listOrgFiles(root) : [root]
  } catch {
    return []
  }
}

/** What identifies one version of FILE on disk, or that it is missing. */
export function fileStamp(file: string): string {
  const stats = fs.statSync(file, {throwIfNoEntry: false, bigint: true})
  return stats ? `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` : MISSING
}
