/**
 * What a bare Emacs 28 knows about block languages while tangling: only Emacs
 * Lisp has Babel support (`ob-emacs-lisp`, aliased as `elisp`), and only it
 * has a file extension other than its name (`org-babel-tangle-lang-exts`).
 */

/** Languages with Org Babel support: the others cannot be run, and drop `:var`. */
export function isEmacsLisp(language: string | null): boolean {
  return language === 'emacs-lisp' || language === 'elisp'
}

/** The extension `:tangle yes` gives a block (none for a block without language). */
export function tangleExtension(language: string | null): string | null {
  return isEmacsLisp(language) ? 'el' : language
}
