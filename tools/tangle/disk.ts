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
  private readonly kinds = new Map<string, 'directory' | 'other' | 'missing' | NodeJS.ErrnoException>()
  private readonly listings = new Map<string, Map<string, fs.Dirent> | undefined>()
  private readonly realpaths = new Map<string, string>()
  private readonly roots = new Map<string, string | undefined>()

  isDirectory(file: string): boolean {
    return this.kind(file) === 'directory'
  }

  /**
   * What is at FILE: a directory, something else, nothing; or the error that kept us from knowing (a name
   * too long, a loop of links, no permission). A path through a file (ENOTDIR) has nothing at it.
   */
  kind(file: string): 'directory' | 'other' | 'missing' | NodeJS.ErrnoException {
    let known = this.kinds.get(file)
    if (known === undefined) {
      try {
        const stat = fs.statSync(file, {throwIfNoEntry: false})
        known = stat === undefined ? 'missing' : stat.isDirectory() ? 'directory' : 'other'
      } catch (error) {
        known = (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'missing' : (error as NodeJS.ErrnoException)
      }
      this.kinds.set(file, known)
    }
    return known
  }

  /**
   * Whether FILE is a directory (through links), read from one listing of its folder per run (`entryOf`).
   */
  isDirectoryEntry(file: string): boolean {
    const entry = this.entryOf(file)
    if (!entry) return false
    return entry.isSymbolicLink() ? this.isDirectory(file) : entry.isDirectory()
  }

  /**
   * The entry FILE has in its folder, or undefined, from one listing of the folder per run: a thousand targets
   * in one folder cost one read, and no stat that waits on the folder while the staging thread creates files
   * in it (write.ts). The listing is of the folder as the run found it: a run's own files are renamed into
   * place only at its end.
   */
  entryOf(file: string): fs.Dirent | undefined {
    const folder = path.dirname(file)
    let entries = this.listings.get(folder)
    if (!this.listings.has(folder)) {
      try {
        entries = new Map(fs.readdirSync(folder, {withFileTypes: true}).map((entry) => [entry.name, entry]))
      } catch {
        entries = undefined
      }
      this.listings.set(folder, entries)
    }
    return entries?.get(path.basename(file))
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

  /**
   * The file a write to FILE replaces: FILE in the real path of its folder. A rename over a link replaces the
   * link, not what it points at, so the last name is kept as it is.
   */
  realTarget(file: string): string {
    return path.join(this.realpath(path.dirname(file)), path.basename(file))
  }

  projectRoot(directory: string): string | undefined {
    if (!this.roots.has(directory)) this.roots.set(directory, findProjectRoot(directory))
    return this.roots.get(directory)
  }

  /** Whether something is at FILE, as `fs.existsSync` answers (an error that kept us from knowing is no), once a run. */
  exists(file: string): boolean {
    const kind = this.kind(file)
    return kind === 'directory' || kind === 'other'
  }
}
