/**
 * Making folders with the system's true reason when it fails. Node's recursive `mkdirSync` answers a failure it
 * does not expect (EROFS: a read-only disk) with the result of a `stat` it makes next, ENOENT, "no such file or
 * directory": a project on a read-only disk was said to lack a folder. It names nothing outside itself (its
 * modules are arguments), so that the tangler's staging thread runs it from its source text too.
 */

/**
 * Make FOLDER and those missing above it, as `fs.mkdirSync(FOLDER, {recursive: true, mode})` does; the first made,
 * if any. When that fails with ENOENT, the first missing folder is made alone: its failure is the true reason, and
 * once it is made (the disk changed in between) the rest are made as before.
 */
export function makeFolders(
  fs: typeof import('node:fs'),
  path: typeof import('node:path'),
  folder: string,
  mode?: number,
): string | undefined {
  try {
    return fs.mkdirSync(folder, {recursive: true, mode})
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    let first = path.resolve(folder)
    while (path.dirname(first) !== first && !fs.existsSync(path.dirname(first))) first = path.dirname(first)
    fs.mkdirSync(first, {mode})
    makeFolders(fs, path, folder, mode)
    return first
  }
}
