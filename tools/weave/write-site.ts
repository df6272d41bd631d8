/**
 * The site's files put in place: each written whole to a temporary file beside it and renamed over it (a reader,
 * or a server, never sees half a page), and only when its bytes change (a re-weave touches only what differs, and
 * a server's caches and a browser's reloads follow). A file that cannot be written is said; the others are.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {pageWriteFailed} from '../messages/io.ts'

export interface SiteFile {
  /** Its path under the site's folder, with `/`. */
  path: string
  content: string
}

export interface SiteWrite {
  /** The paths (under the site's folder) written, and those left as they were. */
  written: string[]
  unchanged: string[]
  diagnostics: Diagnostic[]
}

export function writeSite(out: string, files: readonly SiteFile[]): SiteWrite {
  const result: SiteWrite = {written: [], unchanged: [], diagnostics: []}
  for (const file of files) {
    const target = path.join(out, ...file.path.split('/'))
    const bytes = Buffer.from(file.content)
    try {
      if (sameBytes(target, bytes)) {
        result.unchanged.push(file.path)
        continue
      }
      fs.mkdirSync(path.dirname(target), {recursive: true})
      const temporary = `${target}.${process.pid}.tmp`
      try {
        fs.writeFileSync(temporary, bytes)
        fs.renameSync(temporary, target)
      } finally {
        fs.rmSync(temporary, {force: true})
      }
      result.written.push(file.path)
    } catch (error) {
      result.diagnostics.push(diagnostic(target, pageWriteFailed(file.path, (error as Error).message)))
    }
  }
  return result
}

/** Whether FILE holds BYTES already. */
function sameBytes(file: string, bytes: Buffer): boolean {
  try {
    const stat = fs.statSync(file)
    return stat.isFile() && stat.size === bytes.length && fs.readFileSync(file).equals(bytes)
  } catch {
    return false
  }
}
