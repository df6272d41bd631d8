/**
 * The messages of `passepartout init`: a folder it will not write a project into (`init/refused`), and one it
 * cannot write (`io/write`: the system's reason, a folder it may not write, a read-only disk). Each is one line:
 * the folder, then why.
 */
import type {Message} from '../diagnostics.ts'

/** Why a name given to init is no folder name, in words. */
export type NotAFolderName = {kind: 'empty'} | {kind: 'control'} | {kind: 'too-long'; bytes: number; max: number}

/** NAME, given as the folder of a new project, cannot name a folder. */
export function notAFolderName(name: string, why: NotAFolderName): Message {
  const reason = {
    empty: () => 'an empty name names no folder',
    control: () => `${JSON.stringify(name)} holds a control character, which a folder's name should not`,
    'too-long': ({bytes, max}: {bytes: number; max: number}) =>
      `a name of the path is ${bytes} bytes long; the file system takes ${max}`,
  }
  return {ruleId: 'init/refused', reason: `no project was written: ${reason[why.kind](why as never)}`}
}

/** The path given is a file (or anything but a folder). */
export function notAFolder(): Message {
  return {ruleId: 'init/refused', reason: 'no project was written: this is a file, not a folder'}
}

/** The folder holds ENTRIES (the first few of them), none an Org document: init would write among files it does not know. */
export function folderNotEmpty(entries: readonly string[], count: number): Message {
  const shown = entries.join(', ') + (count > entries.length ? `, … (${count} in all)` : '')
  return {
    ruleId: 'init/refused',
    reason: `no project was written: the folder is not empty (${shown}) and holds no Org document; name a new folder, or an empty one`,
  }
}

/** The folder that would hold the project does not exist. */
export function parentMissing(parent: string): Message {
  return {
    ruleId: 'init/refused',
    reason: `no project was written: the folder ${parent} that would hold it does not exist`,
  }
}

/** Writing the project failed, for WHY (the system's words): nothing of it was left. */
export function projectNotWritten(why: string): Message {
  return {ruleId: 'io/write', reason: `no project was written: ${why}`}
}
