/**
 * The graph of Org files on disk: each read with the Org reader, for the
 * commands that need the order without tangling (`passepartout deps`).
 */
import fs from 'node:fs'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {readFailed} from '../messages/io.ts'
import {readOrg} from '../org/parse.ts'
import {buildGraph, type DocumentGraph} from './document-graph.ts'
import {type DocumentMeta, documentMeta} from '../org/document-meta.ts'

export interface GraphOnDisk {
  graph: DocumentGraph
  documents: DocumentMeta[]
}

/** The graph of FILES (absolute paths); a file that cannot be read is left out, with an `io/read` error. */
export function readDocumentGraph(files: readonly string[], base: string): GraphOnDisk {
  const unreadable: Diagnostic[] = []
  const documents: DocumentMeta[] = []
  for (const file of files) {
    try {
      documents.push(documentMeta(file, readOrg(fs.readFileSync(file)).root))
    } catch (error) {
      unreadable.push(diagnostic(file, readFailed(file, (error as Error).message)))
    }
  }
  const graph = buildGraph(documents, {base})
  graph.diagnostics.unshift(...unreadable)
  return {graph, documents}
}
