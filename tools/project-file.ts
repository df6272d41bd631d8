/**
 * The one reader of the files a project holds that a command reads by name (its .env, package.json,
 * passepartout.json, tsconfig.json, its Org documents): whoever can write the project chooses what such a name
 * is. A named pipe no one writes made every command that read it wait forever, and a link to /dev/zero (or a file of
 * gigabytes) filled its memory; so a file is read only when it is a regular file (once links are followed) of at most
 * the bytes its caller says, opened without waiting. Anything else is a reason, which the caller says as `io/read`
 * at the file with the words of its own family (tools/messages/io.ts, the core's messages.org).
 */
import fs from 'node:fs'
import {type Unreadable, unreadableWhy} from './messages/io.ts'

/**
 * The most an Org document may hold: 16 MiB, over a hundred times the largest document of this repository
 * (messages.org, 140 KB). The tangler had no bound: a larger file is no document a person writes, and its parse,
 * its origins and its plan would take gigabytes.
 */
export const ORG_DOCUMENT_MAX_BYTES = 16 * 1024 * 1024

/** The most a file of settings (package.json, tsconfig.json) may hold: some lines; anything larger is none. */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024

/**
 * The most a file the toolchain keeps for itself (its caches, its journal) is read to: the tangle's cache of this
 * repository's 75 documents is 110 KB. One larger is none the toolchain wrote, and is read as none.
 */
export const STATE_FILE_MAX_BYTES = 64 * 1024 * 1024

/** What reading a project's file gave: its bytes, or why not (`missing`: there is no such file). */
export type ProjectFileRead = {ok: true; bytes: Buffer} | {ok: false; missing: boolean; why: string}

/** FILE's bytes, when it is a regular file of at most MAX_BYTES; else why not. Never throws, never waits. */
export function readProjectFile(file: string, maxBytes: number): ProjectFileRead {
  let fd: number | undefined
  try {
    // Not blocking: opening a named pipe with no writer would wait for one.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) return refused({kind: 'not-a-file'})
    const bytes = readAtMost(fd, stat.size, maxBytes)
    return bytes ? {ok: true, bytes} : refused({kind: 'too-large', max: maxBytes})
  } catch (error) {
    const {code, message} = error as NodeJS.ErrnoException
    return {ok: false, missing: code === 'ENOENT', why: unreadableWhy({kind: 'error', error: message})}
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** FILE's text (UTF-8), as readProjectFile reads it. */
export function readProjectText(
  file: string,
  maxBytes: number,
): {ok: true; text: string} | {ok: false; missing: boolean; why: string} {
  const read = readProjectFile(file, maxBytes)
  return read.ok ? {ok: true, text: read.bytes.toString('utf8')} : read
}

function refused(why: Unreadable): ProjectFileRead {
  return {ok: false, missing: false, why: unreadableWhy(why)}
}

/** Where a read past a file's end looks for one more byte. */
const PROBE = Buffer.alloc(1)

/**
 * The bytes of the open regular file FD of SIZE bytes (as fstat said) up to its end, or undefined when it holds
 * more than MAX. Read into one buffer of its size, as readFileSync does, then on in chunks only if it grew: the
 * bound holds by what was read, not by the size told (a file that grows while it is read would pass it). Chunks of
 * 64 KB for every file (a core's start reads some hundreds) left the core's process 14-26 MB larger at rest
 * (`make bench`'s footprint: the tree at rest 184 MB watching and 173 not, against 158 and 159 read this way), the
 * allocator keeping what it was given back.
 */
function readAtMost(fd: number, size: number, max: number): Buffer | undefined {
  if (size > max) return undefined
  const whole = Buffer.allocUnsafe(size)
  let total = 0
  while (total < size) {
    const read = fs.readSync(fd, whole, total, size - total, null)
    if (read === 0) return whole.subarray(0, total)
    total += read
  }
  // At its end, unless it grew meanwhile: one byte tells (a buffer of each file's would be the churn again).
  if (fs.readSync(fd, PROBE, 0, 1, null) === 0) return whole
  const chunks: Buffer[] = [whole, Buffer.from(PROBE)]
  total += 1
  if (total > max) return undefined
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, max + 1 - total))
    const read = fs.readSync(fd, chunk, 0, chunk.length, null)
    if (read === 0) return Buffer.concat(chunks, total)
    chunks.push(chunk.subarray(0, read))
    total += read
    if (total > max) return undefined
  }
}
