/**
 * The messages of the `io/*`, `cache/*` and `config/*` rules the toolchain
 * raises: files that cannot be read or written, runs that were cut short, the
 * tangle cache, the `passepartout` section of package.json, and the
 * toolchain's own settings (tools/settings.ts). (The core's own
 * `config/invalid` messages, about its settings, are the core's.)
 */
import type {Message} from '../diagnostics.ts'

/** FILE could not be read, for WHY (the error's message). */
export function readFailed(file: string, why: string): Message {
  return {ruleId: 'io/read', reason: `cannot read ${file}: ${why}`}
}

/** Why a file of the project was not read (project-file.ts). */
export type Unreadable = {kind: 'not-a-file'} | {kind: 'too-large'; max: number} | {kind: 'error'; error: string}

/** WHY in words, for the io/read message of the file's own family. */
export function unreadableWhy(why: Unreadable): string {
  switch (why.kind) {
    case 'not-a-file':
      return 'it is not a regular file'
    case 'too-large':
      return `it holds more than ${why.max} bytes`
    case 'error':
      return why.error
  }
}

/** Why no file can be written at a path, whatever the options: found before anything is written. */
export type UnusablePath =
  | {kind: 'nul'}
  | {kind: 'path-too-long'; bytes: number; max: number}
  | {kind: 'name-too-long'; name: string; bytes: number; max: number}
  | {kind: 'not-a-folder'; folder: string}
  | {kind: 'folder-error'; folder: string; error: string}
  | {kind: 'not-a-file'; file: string; what: string}
  | {kind: 'link-error'; link: string; error: string}

/** `:tangle FILE_NAME` cannot be written, for WHY. */
export function unwritableTarget(fileName: string, why: UnusablePath): Message {
  return {ruleId: 'io/write', reason: `:tangle ${printableName(fileName)} cannot be written: ${unusable(why)}`}
}

function unusable(why: UnusablePath): string {
  switch (why.kind) {
    case 'nul':
      return 'the file name holds a NUL byte, which no file name may'
    case 'path-too-long':
      return `the path is ${why.bytes} bytes long; the file system takes ${why.max}`
    case 'name-too-long':
      return `the name ${printableName(why.name)} is ${why.bytes} bytes long; the file system takes ${why.max}`
    case 'not-a-folder':
      return `${why.folder} is a file, not a folder`
    case 'folder-error':
      return `${why.folder}: ${why.error}`
    case 'not-a-file':
      return `${why.file} is ${why.what}, not a file: passepartout writes regular files only (Emacs would delete it and write a file in its place)`
    case 'link-error':
      return `the link ${why.link} leads nowhere a file can be written: ${why.error}`
  }
}

/** NAME for a message: a long name cut in its middle, a NUL shown as \0. */
function printableName(name: string): string {
  const shown = name.replaceAll('\0', '\\0')
  return shown.length > 80 ? `${shown.slice(0, 40)}…${shown.slice(-30)}` : shown
}

/** Writing a document's files failed at `:tangle FILE_NAME` (or before any one), for WHY: nothing of it was written. */
export function writeFailed(fileName: string | undefined, why: string): Message {
  const what = fileName === undefined ? 'cannot write the files of this document' : `cannot write :tangle ${fileName}`
  return {ruleId: 'io/write', reason: `${what}, so none of this document's files was written: ${why}`}
}

/** The Org document detangle changed could not be written, for WHY: it is as it was. */
export function documentWriteFailed(why: string): Message {
  return {ruleId: 'io/write', reason: `cannot write this document, so it is as it was and no edit went back: ${why}`}
}

/** SHOWN, a file this document no longer writes, could not be removed, for WHY. */
export function removeFailed(shown: string, why: string): Message {
  return {ruleId: 'io/write', reason: `cannot remove ${shown}, which this document no longer writes: ${why}`}
}

/** A run was killed while staging this document's files: what it left was removed. */
export function stagingUndone(): Message {
  return {
    ruleId: 'io/recovered',
    reason:
      'an earlier run did not finish writing the files of this document (it was killed, or could not undo a failure); what it left was removed and every target is as it was',
  }
}

/** A run was killed while renaming this document's files into place: the rest were put in place, but FAILED (each a path and why). */
export function renamesCompleted(failed: readonly string[]): Message {
  return {
    ruleId: 'io/recovered',
    reason:
      failed.length === 0
        ? 'a run that was killed while replacing the files of this document left it half written; its remaining files were put in place'
        : `a run that was killed while replacing the files of this document left it half written, and these could not be put in place: ${failed.join('; ')}`,
  }
}

/** The folder ARG (as given on the command line) holds no Org file. */
export function noDocuments(arg: string): Message {
  return {ruleId: 'io/no-documents', reason: `the folder ${arg} holds no .org file: there is nothing to read`}
}

export function cacheDamaged(): Message {
  return {
    ruleId: 'cache/damaged',
    reason:
      'the tangle cache is damaged (not the shape this build writes); it is discarded and every document is read again',
  }
}

/** package.json's `"passepartout": {"allowOutside": …}` is not a list of folders. */
export function allowOutsideInvalid(): Message {
  return {
    ruleId: 'config/invalid',
    reason: '"passepartout": {"allowOutside": …} in package.json is not a list of folders',
    expected: ['write a list of folders, such as ["~/.config"]'],
  }
}

/** The project's .env exists and could not be read, for WHY: its settings are not used. */
export function dotenvUnreadable(why: string): Message {
  return {ruleId: 'io/read', reason: `the .env file could not be read: ${why}`}
}

/** The toolchain's setting NAME is VALUE, which is not what it EXPECTS: UNSET holds. */
export function toolchainSettingInvalid(name: string, value: string, expects: string, unset: string): Message {
  return {ruleId: 'config/invalid', reason: `${name} must be ${expects}, not '${value}'; ${unset} is used`}
}

/** The page PAGE of a woven site could not be written: the other pages are. */
export function pageWriteFailed(page: string, why: string): Message {
  return {ruleId: 'io/write', reason: `cannot write the page ${page} of the site: ${why}`}
}
