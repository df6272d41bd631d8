/**
 * `passepartout fmt` without its command line: the files under the folders
 * given (the code blocks of Org documents, and TypeScript and JavaScript files),
 * formatted and written back, or only compared (`check`).
 *
 * Each file is written whole or not at all: to a temporary file beside it, then
 * renamed over it (an editor or a watcher never reads half a file), with its
 * mode kept.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {formattedUnwritten, unparsable} from '../messages/fmt.ts'
import {readFailed} from '../messages/io.ts'
import {listFiles} from '../project.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'
import {type CodeLanguage, formatCode} from './format-code.ts'
import {type BlockOutcome, type FormattedFile, formatOrgDocument} from './format-org.ts'

/** The files fmt formats, by extension: Org documents, and code as the formatter parses it. */
const CODE_EXTENSIONS: Record<string, CodeLanguage> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
}

export function isFormattable(file: string): boolean {
  return file.endsWith('.org') || Object.hasOwn(CODE_EXTENSIONS, path.extname(file))
}

/** Every file fmt formats under DIR, sorted, skipping dependencies, generated output and hidden folders. */
export function listFormattable(dir: string): string[] {
  // Files only: a link is left alone, since a write by renaming would replace the link with a file.
  return listFiles(dir, (entry) => entry.isFile() && isFormattable(entry.name))
}

export interface FileOutcome {
  /** Absolute. */
  path: string
  /** Its formatted text differs from what it holds (and, unless checking, was written). */
  changed: boolean
  /** The code blocks of an Org document; undefined for a code file. */
  blocks?: BlockOutcome[]
}

export interface FmtReport {
  files: FileOutcome[]
  diagnostics: Diagnostic[]
  elapsedMs: number
}

/** FILES (absolute) formatted; with CHECK, compared only: nothing is written. */
export async function formatFiles(files: readonly string[], options: {check: boolean}): Promise<FmtReport> {
  const started = performance.now()
  const report: FmtReport = {files: [], diagnostics: [], elapsedMs: 0}
  for (const file of files) {
    const read = readProjectFile(file, ORG_DOCUMENT_MAX_BYTES)
    if (!read.ok) {
      report.diagnostics.push(diagnostic(file, readFailed(file, read.why)))
      continue
    }
    const {bytes} = read
    const formatted = file.endsWith('.org') ? await formatOrgDocument(file, bytes) : await formatCodeFile(file, bytes)
    report.diagnostics.push(...formatted.diagnostics)
    report.files.push({path: file, changed: formatted.changed, blocks: formatted.blocks})
    if (!formatted.changed || options.check) continue
    try {
      writeAtomically(file, formatted.bytes)
    } catch (error) {
      report.diagnostics.push(diagnostic(file, formattedUnwritten(errorText(error))))
    }
  }
  report.elapsedMs = performance.now() - started
  return report
}

/** A TypeScript or JavaScript file, formatted whole (as a program: a file is never a fragment). */
async function formatCodeFile(file: string, bytes: Uint8Array): Promise<FormattedFile> {
  const text = Buffer.from(bytes).toString('utf8')
  const formatted = await formatCode(text, CODE_EXTENSIONS[path.extname(file)]!, {fragments: false})
  if (!formatted.ok) {
    const start = {line: formatted.line, column: formatted.column}
    return {
      bytes,
      changed: false,
      diagnostics: [diagnostic(file, unparsable('file', formatted.reason), {start, end: start})],
    }
  }
  return {bytes: Buffer.from(formatted.text, 'utf8'), changed: formatted.text !== text, diagnostics: []}
}

/** BYTES into FILE through a temporary file beside it, renamed over it; FILE's mode kept. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.fmt-tmp`)
  try {
    fs.writeFileSync(temporary, bytes)
    fs.chmodSync(temporary, fs.statSync(file).mode & 0o7777)
    fs.renameSync(temporary, file)
  } catch (error) {
    fs.rmSync(temporary, {force: true})
    throw error
  }
}

function errorText(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message
}
