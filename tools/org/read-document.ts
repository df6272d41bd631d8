/**
 * An Org file read for a command: its tree, and what the reader found wrong as
 * diagnostics of that file (each with its place and rule id). The unified
 * plugin (plugin.ts) and the tangler read through it; the tangler calls it
 * directly, without a unified processor and a VFile per document: loading
 * unified and its packages was a fifth of the CPU of a `passepartout tangle` of
 * one document (380 against 310 ms, median of 15 interleaved runs on a loaded
 * machine).
 */
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import type {OrgRoot} from './ast.ts'
import {readOrg, type ReadOptions} from './parse.ts'

export interface ReadDocument {
  root: OrgRoot
  diagnostics: Diagnostic[]
}

/** Read the Org file FILE from INPUT, its text or bytes (decoded as Emacs would). */
export function readDocument(file: string, input: string | Uint8Array, options: ReadOptions = {}): ReadDocument {
  const {root, problems} = readOrg(input, options)
  return {root, diagnostics: problems.map(({place, ...message}) => diagnostic(file, message, place))}
}
