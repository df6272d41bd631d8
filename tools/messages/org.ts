/**
 * The messages of the `org/*` rules: how Org reads the file itself. All are
 * warnings: Emacs reads such a file too, only not as its author may think.
 */
import type {Message} from '../diagnostics.ts'

/** A `#+begin_src` with no `#+end_src` before WHERE (`before the end of the file`). */
export function unterminatedBlock(where: string): Message {
  return {
    ruleId: 'org/unterminated-block',
    reason: `#+begin_src has no matching #+end_src ${where}: Org reads it as text and tangles nothing from it`,
    expected: ['add a #+end_src line'],
  }
}

/** `#+KEY` separated by a blank line from the block at BLOCK_LINE (1-based). */
export function detachedAffiliatedKeyword(key: string, blockLine: number): Message {
  return {
    ruleId: 'org/detached-affiliated-keyword',
    reason: `#+${key} is separated from the #+begin_src at line ${blockLine} by a blank line, so Org does not attach it to the block`,
    expected: ['remove the blank line'],
  }
}

export function ignoredPropertyDrawer(): Message {
  return {
    ruleId: 'org/ignored-property-drawer',
    reason:
      'Org ignores this property drawer: properties are read only from a drawer directly under a headline (or its planning line), or at the very top of the file',
  }
}

export function latin1(): Message {
  return {
    ruleId: 'org/latin-1',
    reason: 'this file is not valid UTF-8: it is read as Latin-1 (as Emacs does) and written back as UTF-8',
  }
}

export function mixedLineEndings(): Message {
  return {
    ruleId: 'org/mixed-line-endings',
    reason:
      'this file mixes CRLF and LF line endings: Emacs then keeps every CR, so lines like #+end_src\\r no longer end blocks',
    expected: ['save the file with one kind of line ending'],
  }
}

/** The setup file FILE (absolute) NAMED by a `#+SETUPFILE:` line could not be read, for WHY (an errno code). */
export function setupFileUnreadable(file: string, why: string): Message {
  return {
    ruleId: 'org/setupfile-unreadable',
    reason: `#+SETUPFILE: ${file} cannot be read (${why}): Org goes on without its keywords`,
    note: `Emacs: Unable to read file "${file}"`,
  }
}

/** NAME is already being read: CHAIN is the files that lead back to it, by their base names. */
export function setupFileCycle(name: string, chain: readonly string[]): Message {
  return {
    ruleId: 'org/setupfile-cycle',
    reason: `#+SETUPFILE: ${name} is already being read (${chain.join(' → ')}); Org skips it`,
  }
}
