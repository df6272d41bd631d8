/**
 * A file as a check read it, told apart from any later version of it without
 * reading it when possible: the hash of its bytes, and its stamp (size, times,
 * inode) when the stamp can be trusted. As git's index does, a file whose stamp
 * is as recorded is taken as unchanged and is not read; one whose stamp differs
 * is read and its hash compared (a file written again with the same bytes is
 * still the same). A stamp taken within the file system's clock tick of the
 * file's last change is not kept ("racily clean": a second change in that tick
 * would keep it), so that file is read and hashed every time.
 */
import fs from 'node:fs'
import {readProjectFile} from '../project-file.ts'
import {array, nullable, object, string} from '../shape.ts'
import {hashOf} from '../tangle/written.ts'

export interface FileRecord {
  /** Absolute. */
  path: string
  /** `size:mtimeMs:ctimeMs:ino`; null when too fresh to trust, or when the file was not there. */
  stamp: string | null
  /** The hash of its bytes; null when the file was not there. */
  hash: string | null
}

export const fileRecordsShape = array(object({path: string, stamp: nullable(string), hash: nullable(string)}))

/**
 * The most a recorded file is read to: far over the largest the compiler reads (TypeScript's lib.dom.d.ts, 2.3 MB).
 * One that is no regular file (a named pipe put in place of package.json), or larger, is recorded as not there: the
 * memory then holds no answer for it, and the compiler is asked.
 */
const RECORDED_MAX_BYTES = 64 * 1024 * 1024

/** How recent a change must be for its stamp to be doubted (the tangle cache's rule: cache.ts). */
export const RACY_MS = 50

/** FILE's stamp, and whether it is old enough to be trusted; undefined when the file is not there. */
export function stampOf(file: string): {stamp: string; changedMs: number} | undefined {
  const stat = fs.statSync(file, {throwIfNoEntry: false})
  if (!stat) return undefined
  const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`
  return {stamp, changedMs: Math.max(stat.mtimeMs, stat.ctimeMs)}
}

/**
 * FILE as it is now. A hash of KNOWN (an earlier record of it) is taken over without reading when the stamp is
 * the same; the stamp is taken before the bytes are read, so a change in between shows as a stamp that differs.
 */
export function recordOf(file: string, known?: FileRecord): FileRecord {
  const now = stampOf(file)
  if (!now) return {path: file, stamp: null, hash: null}
  const trusted = Date.now() - now.changedMs >= RACY_MS ? now.stamp : null
  if (known?.stamp && known.stamp === now.stamp && known.hash) return {path: file, stamp: known.stamp, hash: known.hash}
  const read = readProjectFile(file, RECORDED_MAX_BYTES)
  return read.ok ? {path: file, stamp: trusted, hash: hashOf(read.bytes)} : {path: file, stamp: null, hash: null}
}

/**
 * Whether the file of RECORD still holds what it held; with `refreshed`, the record as it now is, when it
 * holds the same bytes under a new stamp (worth keeping, so the next look need not read it).
 */
export function unchanged(record: FileRecord): {same: boolean; refreshed?: FileRecord} {
  const now = stampOf(record.path)
  if (!now) return {same: record.hash === null}
  if (record.stamp !== null && record.stamp === now.stamp) return {same: true}
  if (record.hash === null) return {same: false}
  const current = recordOf(record.path)
  if (current.hash !== record.hash) return {same: false}
  return current.stamp === null ? {same: true} : {same: true, refreshed: current}
}
