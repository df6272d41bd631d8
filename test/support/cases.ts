/**
 * Conformance cases as data: a folder with `input.org` (and any other inputs),
 * `expected/` holding exactly the files Emacs wrote (or a lone `ERROR`), and a
 * `case.md`. A case is run on a temporary copy, as `check.sh` does.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {expect} from 'vitest'
import {hasErrors, tangle, type TangleReport} from '../../tools/tangle/tangle.ts'

export interface CaseResult {
  /** Files created or changed, relative to the case folder, with their bytes. */
  written: Map<string, Buffer>
  deleted: string[]
  failed: boolean
  report: TangleReport
  work: string
}

export interface CaseExpectation {
  error: boolean
  files: Map<string, Buffer>
  /** The rule an error case expects among the fatal diagnostics. */
  rule: string | undefined
  /** What Emacs said when it failed, as it shows an error (recorded in `expected/ERROR`); undefined when it crashed. */
  emacsSaid: string | undefined
}

export function listCases(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, {withFileTypes: true})
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'input.org')))
    .map((entry) => entry.name)
    .sort()
}

export function expectation(caseDir: string): CaseExpectation {
  const files = readTree(path.join(caseDir, 'expected'))
  // An error case names the rule it expects on a `rule:` line of its case.md (the shared corpus's do not).
  const description = fs.existsSync(path.join(caseDir, 'case.md')) ? fs.readFileSync(path.join(caseDir, 'case.md'), 'utf8') : ''
  const error = files.size === 1 && files.has('ERROR')
  return {error, files, rule: /^rule: (\S+)$/m.exec(description)?.[1], emacsSaid: error ? emacsMessage(files.get('ERROR')!.toString('utf8')) : undefined}
}

/**
 * The error Emacs signalled, from the line regenerate.sh records (`… wrote no files: (error "Reference ‘x’ not
 * found in this buffer")`), as `error-message-string` shows it: an `error`'s text, a file error's parts
 * (`Opening output file: No such file or directory, /path`), any other signal as printed.
 */
function emacsMessage(recorded: string): string | undefined {
  const signal = /wrote no files: (\(.*\))\s*$/.exec(recorded)?.[1]
  if (signal === undefined) return undefined
  const error = /^\(error "((?:[^"\\]|\\.)*)"\)$/.exec(signal)
  if (error) return error[1]!.replace(/\\(.)/g, '$1')
  const file = /^\(file-[a-z-]+ "([^"]*)" "([^"]*)"(?: "([^"]*)")?\)$/.exec(signal)
  if (file) return `${file[1]}: ${file[2]}${file[3] === undefined ? '' : `, ${file[3]}`}`
  return signal
}

/** Copy the case's inputs to a fresh folder, tangle `input.org` there, report what changed. */
export async function runCase(caseDir: string): Promise<CaseResult> {
  const work = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-case-')), 'case')
  fs.cpSync(caseDir, work, {recursive: true})
  fs.rmSync(path.join(work, 'expected'), {recursive: true, force: true})
  fs.rmSync(path.join(work, 'case.md'), {force: true})
  makeWritable(work)
  const before = fingerprints(work)
  const report = await tangle({files: [path.join(work, 'input.org')]})
  const after = fingerprints(work)
  const written = new Map<string, Buffer>()
  for (const [file, hash] of after) if (before.get(file) !== hash) written.set(file, fs.readFileSync(path.join(work, file)))
  const deleted = [...before.keys()].filter((file) => !after.has(file))
  return {written, deleted, failed: hasErrors(report), report, work}
}

/** Tangle the case and expect exactly what Emacs did: the same files, byte for byte, or an error and nothing written. */
export async function expectCaseToMatchEmacs(caseDir: string): Promise<void> {
  const expected = expectation(caseDir)
  const result = await runCase(caseDir)
  expect(result.deleted).toEqual([])
  if (expected.error) {
    expect(result.failed).toBe(true)
    expect([...result.written.keys()]).toEqual([])
    if (expected.rule) expect(result.report.diagnostics.filter((d) => d.fatal).map((d) => d.ruleId)).toContain(expected.rule)
    // Where Emacs failed with a message, the note says it in Emacs's words (as far as passepartout knows them).
    if (expected.emacsSaid !== undefined) {
      const notes = result.report.diagnostics.filter((d) => d.fatal && d.note).map((d) => d.note!)
      expect(notes.length, `a note with what Emacs said: ${expected.emacsSaid}`).toBeGreaterThan(0)
      for (const note of notes) expect(expected.emacsSaid.startsWith(note.replace(/^Emacs: /, '')), `${note} against ${expected.emacsSaid}`).toBe(true)
    }
    return
  }
  expect(result.report.diagnostics.filter((d) => d.fatal).map((d) => d.reason)).toEqual([])
  expect([...result.written.keys()].sort()).toEqual([...expected.files.keys()].sort())
  // Latin-1 maps bytes one to one, so a mismatch shows as text and no byte difference can hide.
  for (const [file, bytes] of expected.files) expect(result.written.get(file)?.toString('latin1'), file).toBe(bytes.toString('latin1'))
}

function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  if (!fs.existsSync(dir)) return files
  for (const entry of fs.readdirSync(dir, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    files.set(path.relative(dir, full), fs.readFileSync(full))
  }
  return files
}

function fingerprints(dir: string): Map<string, string> {
  const result = new Map<string, string>()
  for (const [file, bytes] of readTree(dir)) result.set(file, createHash('sha256').update(bytes).digest('hex'))
  return result
}

function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o755)
  for (const entry of fs.readdirSync(dir, {recursive: true, withFileTypes: true})) {
    const full = path.join(entry.parentPath, entry.name)
    fs.chmodSync(full, entry.isDirectory() ? 0o755 : 0o644)
  }
}
