/**
 * `#+SETUPFILE:` as Org 9.5 follows it when it collects a buffer's keywords
 * (`org-collect-keywords`, which `org-set-regexps-and-options` calls for the
 * `#+PROPERTY:` and `#+TODO:` lines that tangling depends on): at the place of
 * each `#+SETUPFILE:` line, the keywords of that file, read as Org, in order,
 * following its own `#+SETUPFILE:` lines. A relative name is relative to the
 * folder of the file that names it; a file already on the way is skipped (Org
 * says nothing; we warn), and so is a file that cannot be read (Org says
 * "Unable to read file"; we warn at the line). A setup file's headlines and
 * property drawers count for nothing, as in Org: only its keywords.
 *
 *     #+SETUPFILE: "../common/header-args.org"
 *                  ^ quotes are stripped, ~ is $HOME
 */
import path from 'node:path'
import type {Position} from 'unist'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {setupFileCycle, setupFileUnreadable} from '../messages/org.ts'
import {setupFileOverNetwork, setupFilesTooDeep} from '../messages/tangle.ts'
import type {Keyword, OrgRoot} from '../org/ast.ts'
import {readOrg} from '../org/parse.ts'
import {ORG_DOCUMENT_MAX_BYTES, readProjectFile} from '../project-file.ts'

/** A keyword in effect in a document, at the line of the document it belongs to (its `#+SETUPFILE:` line for one of a setup file). */
export interface DocumentKeyword {
  key: string
  value: string
  line: number
}

export interface CollectedKeywords {
  keywords: DocumentKeyword[]
  /** The setup files it named, read or not, absolute: a change to one changes the document. */
  inputs: string[]
  diagnostics: Diagnostic[]
}

/** How deep setup files may name setup files. */
const SETUP_FILE_NESTING_LIMIT = 50

/** The keywords in effect in the document FILE (absolute) whose tree is ROOT. */
export function collectKeywords(file: string, root: OrgRoot): CollectedKeywords {
  const result: CollectedKeywords = {keywords: [], inputs: [], diagnostics: []}
  const collect = (nodes: Keyword[], directory: string, chain: string[], at: Position | undefined) => {
    for (const node of nodes) {
      const line = at?.start.line ?? node.position.start.line
      if (node.key !== 'SETUPFILE') {
        result.keywords.push({key: node.key, value: node.value, line})
        continue
      }
      if (!/[^ \t\n\r]/.test(node.value)) continue
      const place = at ?? node.position
      const name = stripQuotes(node.value)
      if (/^(?:https?|ftp):\/\//.test(name)) {
        result.diagnostics.push(diagnostic(file, setupFileOverNetwork(name), place))
        continue
      }
      const setupFile = path.resolve(directory, expandHome(name))
      if (chain.includes(setupFile)) {
        result.diagnostics.push(
          diagnostic(
            file,
            setupFileCycle(
              name,
              [...chain.slice(1), setupFile].map((link) => path.basename(link)),
            ),
            place,
          ),
        )
        continue
      }
      if (chain.length > SETUP_FILE_NESTING_LIMIT) {
        result.diagnostics.push(diagnostic(file, setupFilesTooDeep(SETUP_FILE_NESTING_LIMIT, name), place))
        continue
      }
      if (!result.inputs.includes(setupFile)) result.inputs.push(setupFile)
      const read = readProjectFile(setupFile, ORG_DOCUMENT_MAX_BYTES)
      if (!read.ok) {
        result.diagnostics.push(
          diagnostic(file, setupFileUnreadable(setupFile, read.missing ? 'ENOENT' : read.why), place),
        )
        continue
      }
      const setup = readOrg(read.bytes).root
      collect(keywordsOf(setup), path.dirname(setupFile), [...chain, setupFile], place)
    }
  }
  collect(keywordsOf(root), path.dirname(file), [file], undefined)
  return result
}

/** Does ROOT name any setup file? (Most documents do not, and pay nothing more.) */
export function namesSetupFiles(root: OrgRoot): boolean {
  return root.children.some((node) => node.type === 'keyword' && node.key === 'SETUPFILE')
}

function keywordsOf(root: OrgRoot): Keyword[] {
  return root.children.filter((node): node is Keyword => node.type === 'keyword')
}

/** `org-strip-quotes`: the text between a pair of surrounding double quotes. */
function stripQuotes(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}

function expandHome(name: string): string {
  const home = process.env.HOME
  return home && (name === '~' || name.startsWith('~/')) ? path.join(home, name.slice(1)) : name
}
