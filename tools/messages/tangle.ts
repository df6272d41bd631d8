/**
 * The messages of the `tangle/*` rules: where Org fails (`tangle/emacs-error`
 * and the more precise rules beside it), where passepartout refuses what it
 * does not reproduce or what safety forbids, and the warnings about what a
 * tangle replaces or leaves behind.
 *
 * Where Emacs fails the same way, `note` holds its own words (`Emacs: …`);
 * forms and references in reasons are shortened by the caller (`shortForm`).
 */
import type {Message} from '../diagnostics.ts'

// Blocks and :tangle.

/** A `#+begin_src` without its own `#+end_src`, which Org Babel pairs with the one at END_LINE. */
export function unterminatedBlockPairs(endLine: number): Message {
  return {
    ruleId: 'tangle/unterminated-block-pairs',
    reason: `this #+begin_src has no #+end_src of its own; Org Babel pairs it with the #+end_src at line ${endLine} and fails`,
    note: 'Emacs: (wrong-type-argument stringp nil)',
    expected: ['add a #+end_src line to this block'],
  }
}

export function tangleWithoutValue(): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: ':tangle without a value: Org fails while computing the link to the block',
    note: 'Emacs: (wrong-type-argument stringp nil)',
  }
}

/** The header argument NAME holds the Lisp form SOURCE, which Org evaluates and passepartout cannot (WHY). */
export function lispForm(name: string, source: string, why: string): Message {
  return {
    ruleId: 'tangle/lisp-form',
    reason: `Org evaluates the Emacs Lisp form ${source} for ${name}; passepartout cannot: ${why}`,
  }
}

/** The header argument NAME is the number VALUE, which Org compares as a string. */
export function comparedAsString(name: string, value: number): Message {
  return {ruleId: 'tangle/emacs-error', reason: `Org compares ${name} as a string, and fails on the number ${value}`}
}

/** NAME (`:results`, `:exports`) is a number, or nothing, which Org cannot split into words. */
export function notWords(name: string, value: 'missing' | 'numeric'): Message {
  return {ruleId: 'tangle/emacs-error', reason: `Org splits ${name} into words and fails on a ${value} value`}
}

/** Org evaluates the form FORM of a header argument, and Emacs signals ERROR (as `%S` prints it). */
export function evaluationFails(form: string, error: string): Message {
  return {ruleId: 'tangle/emacs-error', reason: `Org evaluates ${form} and Emacs fails`, note: `Emacs: ${error}`}
}

/** A header argument Org cannot read, for WHY. */
export function unreadableHeader(why: string): Message {
  return {ruleId: 'tangle/emacs-error', reason: `Org cannot read this header argument: ${why}`}
}

// Variables.

export function variableWithoutAssignment(): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: ':var needs a NAME=VALUE assignment; Org fails on this value',
    expected: [':var NAME=VALUE'],
  }
}

/** `:var TEXT`: no NAME=, and no earlier variable to take it as its value. */
export function variableWithoutDefault(text: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `:var ${text} assigns no variable, and no earlier one takes it as its value; Org fails`,
    note: `Emacs: Variable "${text}" must be assigned a default value`,
    expected: [`:var NAME=${text}`],
  }
}

/** Org evaluates `:var NAME=REF`, and Emacs signals ERROR. */
export function variableEvaluationFails(name: string, ref: string, error: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `Org evaluates :var ${name}=${ref} and Emacs fails`,
    note: `Emacs: ${error}`,
  }
}

/** Org cannot read `:var NAME=REF`, for WHY. */
export function unreadableVariable(name: string, ref: string, why: string): Message {
  return {ruleId: 'tangle/emacs-error', reason: `Org cannot read :var ${name}=${ref}: ${why}`}
}

/** `:var NAME=REF` of an Emacs Lisp block is a form passepartout cannot evaluate (WHY). */
export function variableLispForm(name: string, ref: string, why: string): Message {
  return {
    ruleId: 'tangle/lisp-form',
    reason: `:var ${name}=${ref} is an Emacs Lisp form passepartout cannot evaluate: ${why}`,
  }
}

/** `:var` REF calls a block (`name(args)`). */
export function variableCallsBlock(ref: string): Message {
  return {
    ruleId: 'tangle/needs-evaluation',
    reason: `:var ${ref} calls a block, which Org runs while tangling; passepartout does not evaluate code`,
  }
}

/** `:var` REF names a place in another file (`file:name`). */
export function variableInOtherFile(ref: string): Message {
  return {
    ruleId: 'tangle/unsupported',
    reason: `:var ${ref} refers to another file, which passepartout does not follow`,
  }
}

/** `:var` REF names an Emacs Lisp block, which Org runs. */
export function variableNamesLispBlock(ref: string): Message {
  return {
    ruleId: 'tangle/needs-evaluation',
    reason: `:var ${ref} names an Emacs Lisp block, which Org runs while tangling; passepartout does not evaluate code`,
  }
}

/** `:var` REF names a LANGUAGE block, which Org must run and cannot. */
export function variableNamesBlock(ref: string, language: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `:var ${ref} names a ${language} block, which Org must run, and fails`,
    note: `Emacs: No org-babel-execute function for ${language}!`,
  }
}

/** `:var` REF names a `#+CALL:` line. */
export function variableNamesCall(ref: string): Message {
  return {
    ruleId: 'tangle/needs-evaluation',
    reason: `:var ${ref} names a #+CALL, which Org runs while tangling; passepartout does not evaluate code`,
  }
}

/** `:var` REF names an element (ELEMENT, Org's type) that is no value. */
export function variableNamesNoValue(ref: string, element: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `:var ${ref} names a ${element}, which Org cannot read as a value`,
    note: 'Emacs: Reference not found',
  }
}

/** `:var` REF gives Org data (a table, a list…) to an Emacs Lisp block. */
export function variableOrgDataToLisp(ref: string): Message {
  return {
    ruleId: 'tangle/unsupported',
    reason: `:var ${ref} passes Org data to an Emacs Lisp block; passepartout does not convert Org data to Lisp`,
  }
}

/** `:var` REF gives a headline to an Emacs Lisp block. */
export function variableHeadlineToLisp(ref: string): Message {
  return {
    ruleId: 'tangle/unsupported',
    reason: `:var ${ref} passes a headline to an Emacs Lisp block; passepartout does not convert Org data to Lisp`,
  }
}

/** `:var` REF names TARGET, which is nowhere in the document. */
export function variableReferenceNotFound(ref: string, target: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `:var ${ref} names nothing in this document`,
    note: `Emacs: Reference ‘${target}’ not found in this buffer`,
  }
}

// Noweb references.

/** Blocks whose references include each other: CHAIN describes them, the first again at its end. */
export function nowebCycle(chain: readonly string[]): Message {
  return {ruleId: 'tangle/noweb-cycle', reason: `noweb references include each other: ${chain.join(' → ')}`}
}

/** `<<NAME(…)>>` in a block of LANGUAGE: Org runs a block to expand it. */
export function nowebCallsBlock(name: string, language: string | null, emacsLisp: boolean): Message {
  if (emacsLisp)
    return {
      ruleId: 'tangle/needs-evaluation',
      reason: `<<${name}>> asks Org to run a block while tangling (an Emacs Lisp evaluation); passepartout does not evaluate code`,
    }
  return {
    ruleId: 'tangle/needs-evaluation',
    reason: `<<${name}>> asks Org to run a block while tangling (Org has no way to run ${language ?? 'it'}); passepartout does not evaluate code`,
    note: 'Emacs: No org-babel-execute function',
  }
}

/** `<<NAME>>` names the ID of the file-level property drawer. */
export function nowebFileLevelId(name: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `<<${name}>> names the file-level ID, and Org fails`,
    note: 'Emacs: Before first headline',
  }
}

export function nowebSeparatorNotString(): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: 'Org joins :noweb-ref blocks with :noweb-sep and fails on a value that is not a string',
  }
}

// Comments.

/** `:comments COMMENTS` in a block of LANGUAGE, whose Emacs mode has no comment syntax. */
export function noCommentSyntax(comments: string, language: string | null): Message {
  return {
    ruleId: 'tangle/no-comment-syntax',
    reason: `:comments ${comments} needs the comment syntax of the block's language, and Emacs has none for ${language ?? 'a block without language'}`,
    note: 'Emacs: No comment syntax is defined',
  }
}

/** `:comments noweb` in a block whose mode (MODE-mode) has no comment syntax. */
export function nowebCommentsWithoutSyntax(mode: string): Message {
  return {
    ruleId: 'tangle/no-comment-syntax',
    reason: `:comments noweb needs comment syntax, and ${mode}-mode has none`,
    note: 'Emacs: No comment syntax is defined',
  }
}

/** `:comments noweb` in a block of LANGUAGE, for which Emacs has no mode (MODE-mode). */
export function nowebCommentsWithoutMode(language: string, mode: string): Message {
  return {
    ruleId: 'tangle/no-comment-syntax',
    reason: `:comments noweb needs the major mode of ${language || 'a block without language'}, and Emacs has no ${mode}-mode`,
  }
}

// Targets.

/** `:tangle-mode VALUE`, which is no mode. */
export function badTangleMode(value: string): Message {
  return {
    ruleId: 'tangle/emacs-error',
    reason: `:tangle-mode ${value} is not a file mode Org can set (it fails after writing the file)`,
    expected: ['write :tangle-mode (identity #o755), or a decimal integer'],
  }
}

/** `:tangle FILE_NAME` resolves to TARGET (absolute), outside ROOT and every folder allowed. */
export function outsideRoot(fileName: string, target: string, root: string, folder: string): Message {
  return {
    ruleId: 'tangle/outside-root',
    reason: `:tangle ${fileName} resolves to ${target}, outside ${root}`,
    expected: [
      `allow its folder with --allow-outside=${folder} or "passepartout": {"allowOutside": [${JSON.stringify(folder)}]} in package.json`,
    ],
  }
}

/** `:tangle FILE_NAME` and `:tangle EARLIER` spell one file. */
export function duplicateTarget(fileName: string, earlier: string): Message {
  return {
    ruleId: 'tangle/duplicate-target',
    reason: `:tangle ${fileName} and :tangle ${earlier} are the same file; Org writes both, and this one replaces the other`,
  }
}

export function targetIsDirectory(fileName: string): Message {
  return {
    ruleId: 'tangle/target-is-directory',
    reason: `:tangle ${fileName} names a directory, not a file (Org fails writing it)`,
  }
}

export function missingDirectory(fileName: string): Message {
  return {
    ruleId: 'tangle/missing-directory',
    reason: `the directory of :tangle ${fileName} does not exist`,
    note: 'Emacs: Opening output file: No such file or directory',
    expected: ['add :mkdirp yes'],
  }
}

/** TARGET is also written by OTHERS (Org files): Emacs would let the later replace the earlier. */
export function targetConflict(target: string, others: readonly string[]): Message {
  return {
    ruleId: 'tangle/target-conflict',
    reason: `${target} is also written by ${others.join(', ')}; each target belongs to one document`,
  }
}

/** `:tangle FILE_NAME` was changed by hand since it was tangled. */
export function overwritesEdit(fileName: string): Message {
  return {
    ruleId: 'tangle/overwrites-edit',
    reason: `:tangle ${fileName} was edited since it was tangled; this tangle replaces it, and the edit is lost (Emacs replaces it silently)`,
    expected: ['passepartout detangle brings such an edit back into its document first'],
  }
}

/**
 * A file the record says a document wrote and that no document writes now: SHOWN (relative to the document's
 * folder) which this document no longer writes, or one a DELETED document wrote. EDITED: it differs from
 * what was written, so --prune keeps it.
 */
export function orphanedTarget(orphan: {shown: string} | {deletedDocument: string}, edited: boolean): Message {
  const what =
    'shown' in orphan
      ? `${orphan.shown} was written by this document and no longer is`
      : `written by ${orphan.deletedDocument}, which no longer exists`
  if (edited)
    return {
      ruleId: 'tangle/orphaned-target',
      reason: `${what}, and was edited since: it is kept`,
      expected: ['remove it yourself if it is not needed'],
    }
  return {ruleId: 'tangle/orphaned-target', reason: what, expected: ['passepartout tangle --prune removes it']}
}

// Setup files.

/** `#+SETUPFILE: NAME` is a URL. */
export function setupFileOverNetwork(name: string): Message {
  return {
    ruleId: 'tangle/unsupported',
    reason: `#+SETUPFILE: ${name} is fetched over the network by Org; passepartout reads local setup files only`,
  }
}

/** Setup files nest deeper than MAX; NAME is where the reading stops. */
export function setupFilesTooDeep(max: number, name: string): Message {
  return {
    ruleId: 'tangle/unsupported',
    reason: `setup files name setup files more than ${max} deep; passepartout stops at ${name}`,
  }
}
