/**
 * The reader as a unified parser plugin: `unified().use(orgParse).parse(file)`
 * gives the Org tree of `file` (its value may be the raw bytes: they are
 * decoded as Emacs would), and every problem the reader found becomes a
 * message on the file, with its place, rule id, note and suggestions.
 */
import type {Plugin} from 'unified'
import type {VFile} from 'vfile'
import type {OrgRoot} from './ast.ts'
import type {ReadOptions} from './parse.ts'
import {readDocument} from './read-document.ts'

export const orgParse: Plugin<[ReadOptions?], string, OrgRoot> = function (options = {}) {
  this.parser = (_document: string, file: VFile): OrgRoot => {
    const {root, diagnostics} = readDocument(file.path, file.value, options)
    file.messages.push(...diagnostics)
    return root
  }
}
