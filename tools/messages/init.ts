/**
 * The messages of `passepartout init`: a folder it will not write a project into (`init/refused`), and one it
 * cannot write (`io/write`: the system's reason, a folder it may not write, a read-only disk). Each is one line:
 * the folder, then why.
 */
import type {Message} from '../diagnostics.ts'

/** Why a name given to init is no folder name, in words. */
export type NotAFolderName =
  {kind: 'empty'} | {kind: 'blank'} | {kind: 'control'} | {kind: 'too-long'; bytes: number; max: number}

/** NAME, given as the folder of a new project, cannot name a folder. */
export function notAFolderName(name: string, why: NotAFolderName): Message {
  const reason = {
    empty: () => 'an empty name names no folder',
    blank: () => `${JSON.stringify(name)} is blanks alone, which name no folder one can see`,
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

/** A folder on the path to the project, PARENT, is a file: nothing can be written under it. */
export function parentNotAFolder(parent: string): Message {
  return {
    ruleId: 'init/refused',
    reason: `no project was written: ${parent}, which would hold it, is a file, not a folder`,
  }
}

/** The path given is a link to TO, which does not exist: init does not make a folder at the far end of a link. */
export function linkToNothing(to: string): Message {
  return {ruleId: 'init/refused', reason: `no project was written: this is a link to ${to}, which does not exist`}
}

/** ENTRY, a folder of the project init would write into, is a link to TO: a file written there would land elsewhere. */
export function linkInside(entry: string, to: string): Message {
  return {
    ruleId: 'init/refused',
    reason: `no project was written: ${entry} is a link (to ${to}); init writes nothing through a link`,
  }
}

/** The folder, or one on its path, cannot be read, for WHY (the system's words). */
export function folderUnreadable(why: string): Message {
  return {ruleId: 'io/read', reason: `no project was written: ${why}`}
}

/** DESTINATION, in the new project, was made by someone else while init moved the project's files in. */
export function appearedWhileWritten(destination: string): string {
  return `${destination} appeared while the project was written`
}
