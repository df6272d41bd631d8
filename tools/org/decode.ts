/**
 * Turning the bytes of an Org file into the text Emacs would see.
 *
 * Emacs (in a UTF-8 locale) decodes a file as UTF-8 when its bytes are valid
 * UTF-8, dropping a leading byte-order mark, and as Latin-1 otherwise; it
 * writes tangled files as UTF-8 either way. It then picks one end-of-line
 * convention for the whole file (coding.c, `detect_eol`): CRLF or CR when the
 * file uses only that (a stray CR in a CRLF file stays a character), LF as soon
 * as the conventions are mixed with LF. Matching this is what makes a CRLF file
 * tangle to LF files and a mixed file tangle like Emacs's (usually to nothing).
 */

export type Eol = 'lf' | 'crlf' | 'cr'

export interface DecodedText {
  /** The text with the end-of-line convention removed: lines end in `\n`. */
  text: string
  eol: Eol
  encoding: 'utf-8' | 'latin-1'
}

const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: false})
const latin1 = new TextDecoder('latin1')

export function decodeOrg(input: Uint8Array | string): DecodedText {
  if (typeof input === 'string') return {...normalizeEol(input), encoding: 'utf-8'}
  let raw: string
  let encoding: DecodedText['encoding'] = 'utf-8'
  try {
    raw = utf8.decode(input)
  } catch {
    raw = latin1.decode(input)
    encoding = 'latin-1'
  }
  return {...normalizeEol(raw), encoding}
}

/** Detect the end-of-line convention like Emacs and convert it to `\n`. */
export function normalizeEol(raw: string): {text: string; eol: Eol} {
  const eol = detectEol(raw)
  if (eol === 'crlf') return {text: raw.replaceAll('\r\n', '\n'), eol}
  if (eol === 'cr') return {text: raw.replaceAll('\r', '\n'), eol}
  return {text: raw, eol}
}

function detectEol(raw: string): Eol {
  let seen: Eol | undefined
  for (let i = raw.indexOf('\r'), lf = raw.indexOf('\n'); ;) {
    if (i === -1 && lf === -1) break
    let kind: Eol
    let at: number
    if (lf !== -1 && (i === -1 || lf < i)) {
      kind = 'lf'
      at = lf
    } else {
      at = i
      kind = raw.charCodeAt(i + 1) === 10 ? 'crlf' : 'cr'
    }
    if (kind === 'lf') return 'lf'
    if (seen === undefined) seen = kind
    else if (seen !== kind) seen = 'crlf' // CR mixed with CRLF: DOS with stray CRs
    const next = kind === 'crlf' ? at + 2 : at + 1
    i = raw.indexOf('\r', next)
    // Searched again only once passed: in a file with no LF at all, searching from each CR scanned to the end every time.
    if (lf !== -1 && lf < next) lf = raw.indexOf('\n', next)
  }
  return seen ?? 'lf'
}
