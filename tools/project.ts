/**
 * Where the project is and which Org documents it holds.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** The nearest directory at or above FROM holding `package.json` or `.git`, or undefined. */
export function findProjectRoot(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) || fs.existsSync(path.join(dir, '.git'))) return dir
    if (path.dirname(dir) === dir) return undefined
  }
}

/**
 * What a command works on when it is named nothing, from the working folder CWD: the project's org/ when it has
 * one (this repository, a project `init` made); else every Org document under the project's root, or, outside
 * any project, under the working folder: a folder of notes or someone's dotfiles keeps its documents where it
 * likes.
 */
export function defaultFolder(cwd: string): string {
  const root = findProjectRoot(cwd) ?? path.resolve(cwd)
  const org = path.join(root, 'org')
  return fs.statSync(org, {throwIfNoEntry: false})?.isDirectory() ? org : root
}

/**
 * This user's folder for what the toolchain keeps of documents outside any npm project: $XDG_CACHE_HOME/
 * passepartout, or ~/.cache/passepartout. Never the temporary folder, which every user of the machine shares:
 * a folder there made by one user cannot be written by the next, and what another leaves there (a journal of a
 * run "to complete") is not to be acted on.
 */
export function userStateFolder(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'passepartout')
}

/** Where a project's skill documents are: each Org document under it is a skill. */
export function skillsFolder(project: string): string {
  return path.join(project, 'org', 'skills')
}

/** Whether FILE is a test file, as vitest names them: NAME.test.ts, NAME.spec.js and the like. */
export function isTestFile(file: string): boolean {
  return /\.(test|spec)\.[cm]?[jt]sx?$/.test(file)
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'generated'])

/** Entries no search for Org documents enters: hidden ones, dependencies, generated output. */
export function isSkippedEntry(name: string, isDirectory: boolean): boolean {
  return name.startsWith('.') || (isDirectory && SKIPPED_DIRECTORIES.has(name))
}

/** Every `.org` file under DIR, sorted, skipping dependencies, generated output and hidden folders. */
export function listOrgFiles(dir: string): string[] {
  return listFiles(dir, (entry) => entry.name.endsWith('.org'))
}

/** Every file under DIR that WANTED takes, sorted, skipping dependencies, generated output and hidden folders. */
export function listFiles(dir: string, wanted: (entry: fs.Dirent) => boolean): string[] {
  const found: string[] = []
  const pending = [path.resolve(dir)]
  while (pending.length > 0) {
    const current = pending.pop()!
    for (const entry of fs.readdirSync(current, {withFileTypes: true})) {
      if (isSkippedEntry(entry.name, entry.isDirectory())) continue
      const full = path.join(current, entry.name)
      if (entry.isDirectory()) pending.push(full)
      else if (wanted(entry)) found.push(full)
    }
  }
  return found.sort()
}

/**
 * FILE lies inside FOLDER (and is not FOLDER itself): its path from FOLDER neither climbs out (`..`,
 * `../x`) nor is absolute. A name that merely starts with two dots (`..config.ts`) is inside.
 */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file)
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)
}
