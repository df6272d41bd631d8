/**
 * How the command line prints diagnostics: one `path:LINE:COL: severity:
 * reason [rule]` line each on stderr, followed by the Org lines around it when
 * stderr is a terminal (or `--frames` asks for them).
 */
import fs from 'node:fs'
import {codeFrame, type Diagnostic, formatDiagnostic} from '../diagnostics.ts'
import {decodeOrg} from '../org/decode.ts'

export interface Printer {
  cwd: string
  frames: boolean
}

export function printDiagnostics(diagnostics: readonly Diagnostic[], printer: Printer): void {
  const sources = new Map<string, string | undefined>()
  for (const message of diagnostics) {
    process.stderr.write(`${formatDiagnostic(message, printer.cwd)}\n`)
    if (!printer.frames || !message.file || !message.line) continue
    if (!sources.has(message.file)) sources.set(message.file, readSource(message.file))
    const text = sources.get(message.file)
    if (text !== undefined) process.stderr.write(`${codeFrame(text, message.line, message.column ?? 1)}\n`)
  }
}

/** The file as the reader saw it (decoded, line endings converted), for code frames. */
function readSource(file: string): string | undefined {
  try {
    return decodeOrg(fs.readFileSync(file)).text
  } catch {
    return undefined
  }
}
