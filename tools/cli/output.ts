/**
 * How the command line prints diagnostics on stderr: for each, the line editors and problem matchers read,
 * `path:LINE:COL: severity: reason [rule]`; then `  note: …` (Emacs's own words) and one `  help: …` per
 * suggestion, when it has them; then the Org lines around it when stderr is a terminal (or `--frames`
 * asks for them). Every line printable, and coloured when stderr is a terminal (`terminal.ts`).
 */
import {codeFrame, type Diagnostic, formatDetails, formatDiagnostic} from '../diagnostics.ts'
import {decodeOrg} from '../org/decode.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import {paletteFor, printable} from '../terminal.ts'

export interface Printer {
  cwd: string
  frames: boolean
}

export function printDiagnostics(diagnostics: readonly Diagnostic[], printer: Printer): void {
  const sources = new Map<string, string | undefined>()
  const paint = paletteFor(process.stderr)
  for (const message of diagnostics) {
    process.stderr.write(`${[formatDiagnostic(message, printer.cwd, paint), ...formatDetails(message)].join('\n')}\n`)
    if (!printer.frames || !message.file || !message.line) continue
    if (!sources.has(message.file)) sources.set(message.file, readSource(message.file))
    const text = sources.get(message.file)
    const frame = text === undefined ? '' : codeFrame(text, message.line, message.column ?? 1)
    // A document's own lines too: a bidirectional override in one would show its code other than it runs.
    if (frame) process.stderr.write(`${printable(frame)}\n`)
  }
}

/** The file as the reader saw it (decoded, line endings converted), for code frames. */
function readSource(file: string): string | undefined {
  const read = readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
  return read.ok ? decodeOrg(read.bytes).text : undefined
}
