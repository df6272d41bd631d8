/**
 * How the command line prints diagnostics: one `path:LINE:COL: severity:
 * reason [rule]` line each on stderr, followed by the Org lines around it when
 * stderr is a terminal (or `--frames` asks for them).
 */
import {codeFrame, type Diagnostic, formatDiagnostic} from '../diagnostics.ts'

export interface Printer {
  cwd: string
  frames: boolean
  /** Source text by absolute path, for code frames. */
  sources: Map<string, string>
}

export function printDiagnostics(diagnostics: readonly Diagnostic[], printer: Printer): void {
  for (const message of diagnostics) {
    process.stderr.write(`${formatDiagnostic(message, printer.cwd)}\n`)
    const text = message.file ? printer.sources.get(message.file) : undefined
    if (printer.frames && text !== undefined && message.line) process.stderr.write(`${codeFrame(text, message.line, message.column ?? 1)}\n`)
  }
}
