/**
 * The file-system facts one tangle run asks about (is this a directory, the
 * real path of a folder, the project around a file), each looked up once per
 * run: a thousand documents writing into one folder should not stat it a
 * thousand times.
 */
import fs from 'node:fs'
import path from 'node:path'
import {findProjectRoot} from '../project.ts'

export class DiskView {
  private readonly directories = new Map<string, boolean>()
  private readonly realpaths = new Map<string, string>()
  private readonly roots = new Map<string, string | undefined>()

  isDirectory(file: string): boolean {
    let known = this.directories.get(file)
    if (known === undefined) {
      known = fs.statSync(file, {throwIfNoEntry: false})?.isDirectory() ?? false
      this.directories.set(file, known)
    }
    return known
  }

  /** The real path of FILE, resolving symbolic links in the part of it that exists. */
  realpath(file: string): string {
    let known = this.realpaths.get(file)
    if (known === undefined) {
      try {
        known = fs.realpathSync(file)
      } catch {
        const parent = path.dirname(file)
        known = parent === file ? file : path.join(this.realpath(parent), path.basename(file))
      }
      this.realpaths.set(file, known)
    }
    return known
  }

  projectRoot(directory: string): string | undefined {
    if (!this.roots.has(directory)) this.roots.set(directory, findProjectRoot(directory))
    return this.roots.get(directory)
  }
}
