/**
 * Emacs 28's file-name functions on GNU/Linux and macOS, as pure string
 * operations: `file-name-directory`, `file-name-nondirectory`,
 * `file-name-sans-versions`, `file-name-sans-extension`, `file-name-extension`,
 * `file-name-as-directory` and `expand-file-name`. None touches the file
 * system: Emacs does not either, for these.
 *
 * Emacs hands some names to a file-name handler instead (TRAMP for
 * `/host:path`, `/:` for quoted names); passepartout refuses those. The
 * handlers for compressed, encrypted and archive names leave these
 * operations to the built-in code, so they need nothing special.
 */
import * as say from '../messages/lisp.ts'
import {LispRefusal} from './lisp-read.ts'

/** `file-name-handler-alist` entries that change what these functions return: TRAMP and `/:`. */
const REMOTE = /^\/(?:[^/|:]+:|:)/

/** Refuse a name Emacs would hand to TRAMP or to the `/:` handler. */
export function checkLocal(name: string): void {
  if (REMOTE.test(name)) throw new LispRefusal(say.fileNameHandler(name))
}

/** `file-name-directory`: up to and including the last slash, or undefined (nil) when there is none. */
export function fileNameDirectory(name: string): string | undefined {
  const slash = name.lastIndexOf('/')
  return slash === -1 ? undefined : name.slice(0, slash + 1)
}

/** `file-name-nondirectory`: what follows the last slash. */
export function fileNameNondirectory(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1)
}

/**
 * `file-name-sans-versions`: NAME without what `file-name-version-regexp`
 * matches at its end, `~` or `.~VERSION~` or `.~VERSION~N~`, the leftmost
 * match winning. Scanned backwards from the final `~`, so linear.
 *
 *     foo.js.~HEAD~1~
 *           ^ cut here: "foo.js"
 */
export function fileNameSansVersions(name: string): string {
  if (!name.endsWith('~')) return name
  const last = name.length - 1
  const middle = name.lastIndexOf('~', last - 1)
  // `.~X~N~`: digits between the last two tildes, X between the one before and the middle one.
  if (middle > 0 && middle < last - 1 && /^[0-9]+$/.test(name.slice(middle + 1, last))) {
    const opening = name.lastIndexOf('~', middle - 1)
    if (opening > 0 && name[opening - 1] === '.' && versionText(name, opening + 1, middle))
      return name.slice(0, opening - 1)
  }
  // `.~X~`: X between the middle tilde and the last one.
  if (middle > 0 && name[middle - 1] === '.' && versionText(name, middle + 1, last)) return name.slice(0, middle - 1)
  return name.slice(0, last)
}

/** `[-[:alnum:]:#@^._]+` over NAME[FROM, TO); `[:alnum:]` of a non-ASCII character is Unicode's letters, marks, letter numbers and decimal digits. */
function versionText(name: string, from: number, to: number): boolean {
  if (from >= to) return false
  for (const c of name.slice(from, to)) {
    if (!(ASCII_VERSION_CHAR.test(c) || (c > '\u007f' && UNICODE_ALNUM.test(c)))) return false
  }
  return true
}

const ASCII_VERSION_CHAR = /^[-A-Za-z0-9:#@^._]$/
const UNICODE_ALNUM = /^[\p{L}\p{M}\p{Nl}\p{Nd}]$/u

/** The 0-based offset of the extension's dot in FILE (no directory), or -1: `\.[^.]*\'` not at the start. */
function extensionDot(file: string): number {
  const dot = file.lastIndexOf('.')
  return dot > 0 ? dot : -1
}

/** `file-name-sans-extension`. */
export function fileNameSansExtension(name: string): string {
  const file = fileNameSansVersions(fileNameNondirectory(name))
  const dot = extensionDot(file)
  if (dot === -1) return name
  return (fileNameDirectory(name) ?? '') + file.slice(0, dot)
}

/** `file-name-extension`: undefined (nil) when there is none and PERIOD is false. */
export function fileNameExtension(name: string, period: boolean): string | undefined {
  const file = fileNameSansVersions(fileNameNondirectory(name))
  const dot = extensionDot(file)
  if (dot !== -1) return file.slice(period ? dot : dot + 1)
  return period ? '' : undefined
}

/** `file-name-as-directory`: a final slash added, `./` for the empty name. */
export function fileNameAsDirectory(name: string): string {
  if (name === '') return './'
  return name.endsWith('/') ? name : `${name}/`
}

/**
 * `expand-file-name NAME DIRECTORY` (fileio.c, not DOS): `~` from HOME, a
 * relative name put in DIRECTORY (itself expanded when relative), then `//`,
 * `/.` and `/dir/..` removed textually. DIRECTORY is the buffer's
 * `default-directory` when undefined; `/` when it was not a string.
 */
export function expandFileName(
  name: string,
  directory: string,
  defaultDirectory: string,
  home: string | undefined,
): string {
  checkLocal(name)
  checkLocal(directory)
  if (!defaultDirectory.startsWith('/')) throw new LispRefusal(say.defaultDirectoryRelative(defaultDirectory))
  if (!directory.startsWith('/')) directory = expandFileName(directory, defaultDirectory, defaultDirectory, home)
  let rest = name
  let prefix: string | undefined
  if (name[0] === '~') {
    if (name.length > 1 && name[1] !== '/') throw new LispRefusal(say.userHomeRefused(name.split('/')[0]!))
    if (home === undefined || !home.startsWith('/')) throw new LispRefusal(say.homeUnset())
    prefix = home
    rest = name.slice(1)
  } else if (!name.startsWith('/')) prefix = directory
  let target = rest
  if (prefix !== undefined) {
    // Drop the prefix's final slashes, unless it is just "/" or "//".
    let length = prefix.length
    while (length > 1 && prefix[length - 1] === '/' && !(length === 2 && prefix[0] === '/')) length--
    const kept = prefix.slice(0, length)
    target = rest === '' || rest.startsWith('/') ? kept + rest : fileNameAsDirectory(kept) + rest
  }
  const result = canonicalize(target)
  checkLocal(result)
  return result
}

/**
 * The canonicalizing loop of `expand-file-name`: `/.` dropped, `/x/..`
 * dropped (not above the first character), repeated slashes collapsed except
 * a leading `//`.
 *
 *     /a/./b//c/../d
 *     => /a/b/d
 */
function canonicalize(target: string): string {
  // The output is built in place, as in C: `..` walks back over what was written, so each character is removed at most once.
  const out: string[] = []
  let o = 0
  let p = 0
  const n = target.length
  while (p < n) {
    const c = target[p]!
    if (c !== '/') out[o++] = target[p++]!
    else if (target[p + 1] === '.' && (target[p + 2] === '/' || p + 2 === n)) {
      // "/." as the whole name keeps its slash.
      if (o === 0 && p + 2 === n) out[o++] = '/'
      p += 2
    } else if (target[p + 1] === '.' && target[p + 2] === '.' && o !== 0 && (target[p + 3] === '/' || p + 3 === n)) {
      while (o !== 0 && out[--o] !== '/') continue
      // Keep the initial slash only when this is the whole name.
      if (o === 0 && out[0] === '/' && p + 3 === n) o++
      p += 3
    } else if (target[p + 1] === '/' && (p !== 0 || target[p + 2] === '/')) p++
    else out[o++] = target[p++]!
  }
  return out.slice(0, o).join('')
}
