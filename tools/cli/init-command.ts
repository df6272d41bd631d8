/**
 * `passepartout init [DIR]`: a project of one's own (tools/init/project-files.ts), in DIR (the working folder
 * when none is named). It never writes over anything: into a new folder, or an empty one (a `.git` alone is
 * empty), it writes every file; into a folder that holds Org documents, only those it lacks, and says which;
 * any other folder it refuses. Nothing is half-written: the files are written into a folder of their own
 * first, then renamed into place, and a rename that fails takes back those before it; an init killed between
 * two renames leaves a folder the next init completes. A link named as DIR is followed (it is the folder named);
 * a link inside it, where a file would be written through to elsewhere, is refused, and one at a file's place kept.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, type Message} from '../diagnostics.ts'
import {installationRoot} from '../installation.ts'
import {
  appearedWhileWritten,
  folderNotEmpty,
  folderUnreadable,
  linkInside,
  linkToNothing,
  notAFolder,
  notAFolderName,
  parentMissing,
  parentNotAFolder,
  projectNotWritten,
} from '../messages/init.ts'
import {listOrgFiles} from '../project.ts'
import {EXAMPLE_SKILL, packageName, projectFiles} from '../init/project-files.ts'
import {alive} from '../tangle/journal.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

/** The longest name of a path a file system takes, in bytes (Linux's NAME_MAX). */
const NAME_MAX = 255
/** What a folder may hold and still be empty to init. */
const NOTHING = new Set(['.git'])

/** What init made of a folder: the files it wrote and those it kept (already there), or why it wrote none. */
export type Initialised = {written: string[]; kept: string[]} | {refused: Diagnostic}

export async function runInit([name = '.']: string[], context: CommandContext): Promise<number> {
  const target = path.resolve(context.cwd, name)
  const result = initProject(name, target)
  if ('refused' in result) {
    printDiagnostics([result.refused], {cwd: context.cwd, frames: false})
    return 1
  }
  const shown = path.relative(context.cwd, target) || '.'
  if (result.written.length === 0) {
    process.stdout.write(`${shown} has every file of a project already: nothing was written\n`)
    return 0
  }
  const made = result.kept.length === 0 ? `a project in ${shown}` : `to ${shown} what a project lacked`
  process.stdout.write(`wrote ${made}: ${result.written.join(', ')}\n`)
  if (result.kept.length > 0) process.stdout.write(`kept what it had: ${result.kept.join(', ')}\n`)
  const into = shown === '.' ? '' : `cd ${shown}, then `
  process.stdout.write(`next: ${into}passepartout test (its tests), passepartout run (its core)\n`)
  return 0
}

/** Write a project into TARGET (the folder NAME names, absolute): what it wrote and kept, or why it wrote nothing. */
export function initProject(name: string, target: string): Initialised {
  const refuse = (message: Message): Initialised => ({refused: diagnostic(target, message)})
  const badName = nameProblem(name)
  // Said at the folder it would have gone into: the name itself may not be printable on a line.
  if (badName) return {refused: diagnostic(path.dirname(target), badName)}
  let found: Found | Message
  try {
    found = inspect(target)
  } catch (error) {
    return refuse(folderUnreadable((error as Error).message))
  }
  if ('ruleId' in found) return refuse(found)
  const files = projectFiles({name: packageName(path.basename(target)), version: installedVersion()})
  const missing = Object.keys(files).filter((file) => !present(target, file))
  const kept = Object.keys(files).filter((file) => !missing.includes(file))
  const link = missing.map((file) => linkOnTheWay(target, file)).find(Boolean)
  if (link) return refuse(linkInside(link, fs.readlinkSync(path.join(target, link))))
  // A name of its own, not TARGET's with more: TARGET's may be as long as a name can be.
  const staging = path.join(found.exists ? target : path.dirname(target), `${STAGING}${process.pid}`)
  try {
    if (found.exists) moveInto(target, stage(staging, files, missing))
    else renameInto(target, stage(staging, files, missing))
  } catch (error) {
    return refuse(projectNotWritten((error as Error).message))
  }
  return {written: missing, kept}
}

/** What init found at the path it was given: whether a folder is there (else it makes one). */
interface Found {
  exists: boolean
}

/**
 * What is at TARGET, or why init writes nothing there: a folder (any link to one followed, as the name given), or
 * nothing in a folder that exists. The folders of staged files a killed init left behind are removed first, so a
 * folder it was writing is what it was before, or holds an Org document (written first) and is completed.
 */
function inspect(target: string): Found | Message {
  const onTheWay = fileOnTheWay(target)
  if (onTheWay) return parentNotAFolder(onTheWay)
  const link = fs.lstatSync(target, {throwIfNoEntry: false})?.isSymbolicLink()
  const stat = fs.statSync(target, {throwIfNoEntry: false})
  if (link && !stat) return linkToNothing(fs.readlinkSync(target))
  if (stat && !stat.isDirectory()) return notAFolder()
  if (!stat && !fs.existsSync(path.dirname(target))) return parentMissing(path.dirname(target))
  removeStaleStaging(stat ? target : path.dirname(target))
  const entries = stat ? fs.readdirSync(target).filter((entry) => !NOTHING.has(entry)) : []
  if (entries.length > 0 && listOrgFiles(target).length === 0)
    return folderNotEmpty(entries.slice(0, 3), entries.length)
  return {exists: stat !== undefined}
}

/** The nearest folder above TARGET that exists and is a file, if one is (no folder can be made under it). */
function fileOnTheWay(target: string): string | undefined {
  for (let dir = path.dirname(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const stat = fs.statSync(dir, {throwIfNoEntry: false})
    if (stat) return stat.isDirectory() ? undefined : dir
  }
  return undefined
}

/** What a folder of staged files is named: this prefix and the pid of the init writing it. */
const STAGING = '.passepartout-init-'

/**
 * Remove from FOLDER the folders of staged files whose init is no longer running (killed while it wrote): they
 * are no one's, and would make the folder look not empty to the next init.
 */
function removeStaleStaging(folder: string): void {
  for (const entry of fs.readdirSync(folder)) {
    const pid = entry.startsWith(STAGING) ? Number(entry.slice(STAGING.length)) : NaN
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) fs.rmSync(path.join(folder, entry), {recursive: true})
  }
}

/** What is wrong with NAME as a folder's name, if anything. */
function nameProblem(name: string): Message | undefined {
  if (name === '') return notAFolderName(name, {kind: 'empty'})
  // A name of spaces is a folder to the system, and a slip to a person (a variable that held nothing, quoted).
  if (name.trim() === '') return notAFolderName(name, {kind: 'blank'})
  if (/\p{Cc}/u.test(name)) return notAFolderName(name, {kind: 'control'})
  const longest = Math.max(...name.split(path.sep).map((part) => Buffer.byteLength(part)))
  return longest > NAME_MAX ? notAFolderName(name, {kind: 'too-long', bytes: longest, max: NAME_MAX}) : undefined
}

/**
 * Whether TARGET has FILE, or, for the example skill, a skill document of its own: it needs no example then. A
 * link at FILE's place, even one to nothing, is a file there: init writes over nothing.
 */
function present(target: string, file: string): boolean {
  if (entryAt(path.join(target, file))) return true
  const skills = path.join(target, 'org', 'skills')
  return file === `org/skills/${EXAMPLE_SKILL}.org` && fs.existsSync(skills) && listOrgFiles(skills).length > 0
}

/** The entry at FILE, a link not followed; undefined when there is none (or a file stands where a folder of it would). */
function entryAt(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, {throwIfNoEntry: false})
  } catch {
    return undefined
  }
}

/** The folder of FILE under TARGET (relative, `/`-separated) that is a link, if one is: FILE would be written through it. */
function linkOnTheWay(target: string, file: string): string | undefined {
  const folders = file.split('/').slice(0, -1)
  return folders
    .map((_, index) => folders.slice(0, index + 1).join('/'))
    .find((folder) => entryAt(path.join(target, folder))?.isSymbolicLink())
}

/** FILES named in CHOSEN, written under the new folder STAGING; STAGING (removed again when a write fails). */
function stage(staging: string, files: Record<string, string>, chosen: readonly string[]): string {
  fs.mkdirSync(staging)
  try {
    for (const file of chosen) {
      fs.mkdirSync(path.dirname(path.join(staging, file)), {recursive: true})
      fs.writeFileSync(path.join(staging, file), files[file]!, {flag: 'wx'})
    }
  } catch (error) {
    fs.rmSync(staging, {recursive: true, force: true})
    throw error
  }
  return staging
}

/** Rename STAGING to TARGET, a new folder: the whole project appears at once, or STAGING is removed. */
function renameInto(target: string, staging: string): void {
  try {
    fs.renameSync(staging, target)
  } finally {
    fs.rmSync(staging, {recursive: true, force: true})
  }
}

/**
 * Rename the entries of STAGING (a folder inside TARGET) into TARGET, each whole where TARGET lacks it; when one
 * fails, those renamed are taken back. STAGING is removed either way. An entry that holds an Org document goes
 * first: an init killed between two renames leaves a folder of Org documents, which the next init completes.
 */
function moveInto(target: string, staging: string): void {
  const moved: string[] = []
  try {
    moveEntries(staging, target, moved)
  } catch (error) {
    for (const entry of moved.reverse()) fs.rmSync(entry, {recursive: true, force: true})
    throw error
  } finally {
    fs.rmSync(staging, {recursive: true, force: true})
  }
}

/** Rename each entry of FROM to TO, whole where TO lacks it, else into TO's folder of its name; MOVED, each renamed. */
function moveEntries(from: string, to: string, moved: string[]): void {
  for (const entry of orgFirst(from)) {
    const source = path.join(from, entry)
    const destination = path.join(to, entry)
    const there = fs.lstatSync(destination, {throwIfNoEntry: false})
    if (!there) {
      fs.renameSync(source, destination)
      moved.push(destination)
    } else if (there.isDirectory() && fs.statSync(source).isDirectory()) moveEntries(source, destination, moved)
    else throw new Error(appearedWhileWritten(destination))
  }
}

/** The entries of FOLDER, sorted, those that are or hold an Org document first. */
function orgFirst(folder: string): string[] {
  const holdsOrg = (entry: string) => {
    const file = path.join(folder, entry)
    return fs.statSync(file).isDirectory() ? listOrgFiles(file).length > 0 : entry.endsWith('.org')
  }
  const entries = fs.readdirSync(folder).sort()
  return [...entries.filter(holdsOrg), ...entries.filter((entry) => !holdsOrg(entry))]
}

/** The installation's version, which the project's package.json depends on. */
function installedVersion(): string {
  return String(JSON.parse(fs.readFileSync(path.join(installationRoot(), 'package.json'), 'utf8')).version)
}
