/**
 * Differential testing against Emacs: the same Org documents tangled by Emacs
 * 28 (one batch process for all of them, configured as the conformance corpus
 * configures it) and by passepartout, on separate copies; then every file and
 * mode compared, and failures compared (where Emacs fails, we must fail).
 */
import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {hasErrors, tangle} from '../../tools/tangle/tangle.ts'

export function emacsAvailable(): boolean {
  return spawnSync('emacs', ['--version'], {stdio: 'ignore'}).status === 0
}

export interface Outcome {
  error: string | undefined
  /** Created or changed files, relative to the document's folder: content and mode. */
  files: Map<string, {content: string; mode: number}>
}

/** Rules by which passepartout declines what Emacs can do (evaluating Lisp or blocks). */
const REFUSALS = new Set(['tangle/needs-evaluation', 'tangle/lisp-form', 'tangle/unsupported'])

export interface Difference {
  name: string
  reason: string
}

const ELISP = `(progn
  (require 'org)
  (require 'ob-tangle)
  (setq org-confirm-babel-evaluate nil)
  ;; A prompt in batch mode kills Emacs; make it an ordinary error instead.
  (advice-add 'read-from-minibuffer :override (lambda (&rest _) (error "Emacs prompted")))
  (unless (fboundp 'typescript-mode)
    (define-derived-mode typescript-mode js-mode "TypeScript"))
  (dolist (dir (with-temp-buffer
                  (insert-file-contents (getenv "TANGLE_DIRS_FILE"))
                  (split-string (buffer-string) "\\n" t)))
    (let ((default-directory (file-name-as-directory dir)))
      (condition-case err
          (progn (org-babel-tangle-file (expand-file-name "input.org" dir))
                 (princ (format "\\n@@\\t%s\\tOK\\n" dir)))
        (error (princ (format "\\n@@\\t%s\\tERR\\t%S\\n" dir err)))))
    (dolist (buffer (buffer-list))
      (when (buffer-file-name buffer) (kill-buffer buffer)))))`

/** Tangle each `DIR/input.org` with Emacs in one batch process; the error of each failed document. */
export function tangleWithEmacs(dirs: string[]): Map<string, string | undefined> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'emacs-home-'))
  const list = path.join(home, 'dirs.txt')
  fs.writeFileSync(list, dirs.join('\n'))
  const output = execFileSync('emacs', ['--batch', '-Q', '--eval', ELISP], {
    env: {...process.env, HOME: home, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', TANGLE_DIRS_FILE: list},
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  const results = new Map<string, string | undefined>()
  for (const line of output.split('\n')) {
    const [marker, dir, status, error] = line.split('\t')
    if (marker === '@@' && dir && (status === 'OK' || status === 'ERR')) results.set(dir, status === 'ERR' ? (error ?? 'error') : undefined)
  }
  return results
}

/** Write each document into its own folder under ROOT/NAME; return the folders. */
export function writeDocuments(root: string, documents: Map<string, string>): string[] {
  const dirs: string[] = []
  for (const [name, text] of documents) {
    const dir = path.join(root, name)
    fs.mkdirSync(dir, {recursive: true})
    fs.writeFileSync(path.join(dir, 'input.org'), text)
    dirs.push(dir)
  }
  return dirs
}

/** Remove everything but `input.org` from a document's folder. */
function resetFolder(dir: string): void {
  for (const entry of fs.readdirSync(dir)) if (entry !== 'input.org') fs.rmSync(path.join(dir, entry), {recursive: true, force: true})
}

export function snapshot(dir: string): Map<string, {content: string; mode: number}> {
  const files = new Map<string, {content: string; mode: number}>()
  for (const entry of fs.readdirSync(dir, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    const relative = path.relative(dir, full)
    if (relative === 'input.org') continue
    files.set(relative, {content: fs.readFileSync(full, 'latin1'), mode: fs.statSync(full).mode & 0o7777})
  }
  return files
}

/** Run DOCUMENTS through Emacs and passepartout; list every document where they disagree. */
export async function compare(documents: Map<string, string>): Promise<{differences: Difference[]; emacsErrors: number; refused: number; total: number}> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-differential-'))
  // Both run in the same folders, one after the other: `:comments noweb` writes absolute paths.
  const dirs = writeDocuments(base, documents)
  const emacs = tangleWithEmacs(dirs)
  const differences: Difference[] = []
  let emacsErrors = 0
  let refused = 0
  let k = 0
  for (const name of documents.keys()) {
    const dir = dirs[k]!
    k++
    const expected = snapshot(dir)
    resetFolder(dir)
    if (!emacs.has(dir)) {
      differences.push({name, reason: 'Emacs did not report on this document'})
      continue
    }
    const emacsError = emacs.get(dir)
    const report = await tangle({files: [path.join(dir, 'input.org')]})
    const ourError = hasErrors(report) ? report.diagnostics.filter((d) => d.fatal).map((d) => `${d.ruleId}: ${d.reason}`).join('; ') : undefined
    if (emacsError !== undefined) {
      emacsErrors++
      if (ourError === undefined) differences.push({name, reason: `Emacs failed (${emacsError}) but passepartout did not`})
      else if (snapshot(dir).size > 0) differences.push({name, reason: 'passepartout failed but wrote files'})
      continue
    }
    if (ourError !== undefined && report.diagnostics.filter((d) => d.fatal).every((d) => REFUSALS.has(String(d.ruleId)))) {
      refused++
      continue
    }
    if (ourError !== undefined) {
      differences.push({name, reason: `passepartout failed (${ourError}) but Emacs did not`})
      continue
    }
    const actual = snapshot(dir)
    const names = [...new Set([...expected.keys(), ...actual.keys()])].sort()
    for (const file of names) {
      const e = expected.get(file)
      const a = actual.get(file)
      if (!e || !a) {
        differences.push({name, reason: `${file}: ${e ? 'not written by passepartout' : 'not written by Emacs'}`})
        break
      }
      if (e.content !== a.content) {
        differences.push({name, reason: `${file}: content differs\n--- emacs\n${e.content}\n--- passepartout\n${a.content}`})
        break
      }
      if (e.mode !== a.mode) {
        differences.push({name, reason: `${file}: mode ${a.mode.toString(8)}, Emacs ${e.mode.toString(8)}`})
        break
      }
    }
  }
  fs.rmSync(base, {recursive: true, force: true})
  return {differences, emacsErrors, refused, total: documents.size}
}
