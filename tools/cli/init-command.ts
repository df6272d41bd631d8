/**
 * `passepartout init [DIR]`: a project of one's own (tools/init/project-files.ts), in DIR (the working folder
 * when none is named). It never writes over anything: into a new folder, or an empty one (a `.git` alone is
 * empty), it writes every file; into a folder that holds Org documents, only those it lacks, and says which;
 * any other folder it refuses. Nothing is half-written: the files are written into a folder of their own
 * first, then renamed into place, and a rename that fails takes back those before it.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic, type Message} from '../diagnostics.ts'
import {installationRoot} from '../installation.ts'
import {folderNotEmpty, notAFolder, notAFolderName, parentMissing, projectNotWritten} from '../messages/init.ts'
import {listOrgFiles} from '../project.ts'
import {EXAMPLE_SKILL, packageName, projectFiles} from '../init/project-files.ts'
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
  const stat = fs.statSync(target, {throwIfNoEntry: false})
  if (stat && !stat.isDirectory()) return refuse(notAFolder())
  if (!stat && !fs.existsSync(path.dirname(target))) return refuse(parentMissing(path.dirname(target)))
  const entries = stat ? fs.readdirSync(target).filter((entry) => !NOTHING.has(entry)) : []
  if (entries.length > 0 && listOrgFiles(target).length === 0)
    return refuse(folderNotEmpty(entries.slice(0, 3), entries.length))
  const files = projectFiles({name: packageName(path.basename(target)), version: installedVersion()})
  const missing = Object.keys(files).filter((file) => !present(target, file))
  const kept = Object.keys(files).filter((file) => !missing.includes(file))
  try {
    // A name of its own, not TARGET's with more: TARGET's may be as long as a name can be.
    const staging = `.passepartout-init-${process.pid}`
    if (stat) moveInto(target, stage(path.join(target, staging), files, missing))
    else fs.renameSync(stage(path.join(path.dirname(target), staging), files, missing), target)
  } catch (error) {
    return refuse(projectNotWritten((error as Error).message))
  }
  return {written: missing, kept}
}

/** What is wrong with NAME as a folder's name, if anything. */
function nameProblem(name: string): Message | undefined {
  if (name === '') return notAFolderName(name, {kind: 'empty'})
  if (/\p{Cc}/u.test(name)) return notAFolderName(name, {kind: 'control'})
  const longest = Math.max(...name.split(path.sep).map((part) => Buffer.byteLength(part)))
  return longest > NAME_MAX ? notAFolderName(name, {kind: 'too-long', bytes: longest, max: NAME_MAX}) : undefined
}

/** Whether TARGET has FILE, or, for the example skill, a skill document of its own: it needs no example then. */
function present(target: string, file: string): boolean {
  if (fs.existsSync(path.join(target, file))) return true
  const skills = path.join(target, 'org', 'skills')
  return file === `org/skills/${EXAMPLE_SKILL}.org` && fs.existsSync(skills) && listOrgFiles(skills).length > 0
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

/**
 * Rename each file of STAGING (a folder inside TARGET) to its place in TARGET, making the folders it needs;
 * when one fails, those renamed and the folders made are taken back. STAGING is removed either way.
 */
function moveInto(target: string, staging: string): void {
  const moved: string[] = []
  const made: string[] = []
  try {
    for (const file of fs.readdirSync(staging, {recursive: true, encoding: 'utf8'}).sort()) {
      const from = path.join(staging, file)
      const to = path.join(target, file)
      if (fs.statSync(from).isDirectory()) {
        if (!fs.existsSync(to)) {
          fs.mkdirSync(to)
          made.push(to)
        }
        continue
      }
      if (fs.existsSync(to)) throw new Error(`${file} appeared while the project was written`)
      fs.renameSync(from, to)
      moved.push(to)
    }
  } catch (error) {
    for (const file of moved) fs.rmSync(file, {force: true})
    for (const folder of made.reverse()) fs.rmSync(folder, {recursive: true, force: true})
    throw error
  } finally {
    fs.rmSync(staging, {recursive: true, force: true})
  }
}

/** The installation's version, which the project's package.json depends on. */
function installedVersion(): string {
  return String(JSON.parse(fs.readFileSync(path.join(installationRoot(), 'package.json'), 'utf8')).version)
}
