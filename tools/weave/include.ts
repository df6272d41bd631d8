/**
 * `#+INCLUDE:` as Org's export reads it: `#+INCLUDE: "FILE" [src LANG | example | export BACKEND] [:lines "A-B"]`,
 * FILE relative to the document. Without a block type the file's text is Org, rendered in place; with one it is
 * shown as that block. `:lines "5-10"` takes lines 5 to 9 (Org's manual: "10 excluded"), `"-5"` the first four,
 * `"10-"` from the tenth on.
 */
import path from 'node:path'
import {ORG_DOCUMENT_MAX_BYTES, readProjectText} from '../project-file.ts'

export interface Include {
  /** The file, absolute. */
  file: string
  /** What it is shown as: Org text, or a block (`src` with its language, `example`, `export`). */
  as: {kind: 'org'} | {kind: 'src'; language: string | null} | {kind: 'example'} | {kind: 'export'; backend: string}
  /** 1-based lines, the first taken and the first not taken (undefined: to the end). */
  lines: {from: number; to: number | undefined}
}

/** The include VALUE (a `#+INCLUDE:` line's, after the colon) of the document DOCUMENT; undefined when it names none. */
export function parseInclude(value: string, document: string): Include | undefined {
  const named = /^\s*(?:"([^"]*)"|(\S+))\s*(.*)$/.exec(value)
  if (!named) return undefined
  const [, quoted, bare, rest] = named
  // The block type and its argument come first, the `:options` after them.
  const at = rest!.search(/(?:^|\s):[a-z]/)
  const [type, argument] = (at === -1 ? rest! : rest!.slice(0, at)).trim().split(/\s+/)
  const lines = at === -1 ? null : /:lines\s+"(\d*)-(\d*)"/.exec(rest!.slice(at))
  return {
    file: path.resolve(path.dirname(document), quoted ?? bare!),
    as:
      type === 'src'
        ? {kind: 'src', language: argument ?? null}
        : type === 'example'
          ? {kind: 'example'}
          : type === 'export'
            ? {kind: 'export', backend: argument ?? ''}
            : {kind: 'org'},
    lines: {from: lines?.[1] ? Number(lines[1]) : 1, to: lines?.[2] ? Number(lines[2]) : undefined},
  }
}

/**
 * The text INCLUDE takes from its file (its lines, each ended by a newline); throws, saying why, when the file cannot
 * be read, or is no regular file of at most a document's bytes (a named pipe waited for good, /dev/zero filled the
 * memory).
 */
export function includedText(include: Include): string {
  const read = readProjectText(include.file, ORG_DOCUMENT_MAX_BYTES)
  if (!read.ok) throw new Error(read.why)
  const lines = read.text.split(/(?<=\n)/)
  return lines.slice(include.lines.from - 1, include.lines.to === undefined ? undefined : include.lines.to - 1).join('')
}
