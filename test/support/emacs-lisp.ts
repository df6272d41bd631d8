/**
 * Evaluate header-argument forms in Emacs 28, as `org-babel-read` does
 * (`(eval (read CELL) t)`), in a buffer whose `buffer-file-name`,
 * `default-directory` and name are those of an Org file, with HOME set:
 * one batch process for all forms. What each form gives is printed as `%S`
 * prints it (its value, or the error it signals).
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type EmacsAnswer = {value: string} | {error: string}

const ELISP = `(let ((coding-system-for-read 'utf-8)
      (file (getenv "LISP_FILE"))
      forms)
  (with-temp-buffer
    (insert-file-contents (getenv "LISP_FORMS"))
    (condition-case nil
        (while t (push (read (current-buffer)) forms))
      (end-of-file nil)))
  (with-current-buffer (get-buffer-create (file-name-nondirectory file))
    (setq buffer-file-name file
          default-directory (file-name-directory file))
    (dolist (form (nreverse forms))
      (let ((answer (condition-case err
                        (cons "V" (prin1-to-string (eval (read form) t)))
                      (error (cons "E" (prin1-to-string err))))))
        (princ (format "%s %s\\n" (car answer)
                       (base64-encode-string (encode-coding-string (cdr answer) 'utf-8) t)))))))`

/** Each form's value or error in Emacs, for an Org file FILE (absolute) and HOME. */
export function evaluateWithEmacs(forms: readonly string[], file: string, home: string): EmacsAnswer[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-lisp-'))
  try {
    const formsFile = path.join(dir, 'forms.el')
    fs.writeFileSync(formsFile, forms.map((form) => `"${form.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join('\n'))
    const output = execFileSync('emacs', ['--batch', '-Q', '--eval', ELISP], {
      env: {...process.env, HOME: home, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', LISP_FORMS: formsFile, LISP_FILE: file},
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    })
    const answers = output
      .split('\n')
      .filter((line) => /^[VE] /.test(line))
      .map((line): EmacsAnswer => {
        const text = Buffer.from(line.slice(2), 'base64').toString('utf8')
        return line[0] === 'V' ? {value: text} : {error: text}
      })
    if (answers.length !== forms.length) throw new Error(`Emacs answered ${answers.length} of ${forms.length} forms`)
    return answers
  } finally {
    fs.rmSync(dir, {recursive: true, force: true})
  }
}
