/**
 * The search's entries, made at weave time: each heading, each block's names and each identifier its code
 * declares, with the place it leads to (from the site's root) and the document it is in. Written as a script
 * that sets `window.WEAVE_INDEX` (assets.ts says why not a JSON file): its value is JSON.
 */
import {hrefTo} from './site-map.ts'
import type {WeaveDocument} from './weave-document.ts'

export const INDEX_FILE = 'weave-index.js'

/** `[text, kind, href from the site's root, document title]`. */
export type SearchEntry = [string, 'heading' | 'block' | 'identifier', string, string]

export function searchEntries(documents: readonly WeaveDocument[]): SearchEntry[] {
  const entries: SearchEntry[] = []
  for (const document of documents) {
    const at = (anchor: string) => hrefTo('index.html', {page: document.page, anchor})
    for (const heading of document.headings)
      entries.push([heading.title, 'heading', at(heading.anchor), document.title])
    for (const block of document.blocks) {
      for (const name of block.names) entries.push([name, 'block', at(block.anchor), document.title])
      for (const identifier of block.identifiers)
        entries.push([identifier, 'identifier', at(block.anchor), document.title])
    }
  }
  return entries
}

/**
 * The script that holds the entries of each document, BY_DOCUMENT: each document's JSON made once in a process
 * (a weave after a save changes the entries of one document or two of a thousand).
 */
export function searchIndexScript(byDocument: readonly (readonly SearchEntry[])[]): string {
  const parts = byDocument.map(jsonOf).filter((part) => part !== '')
  return `window.WEAVE_INDEX = [${parts.join(',')}]\n`
}

const json = new WeakMap<readonly SearchEntry[], string>()

/** ENTRIES as JSON without its brackets: the entries, separated by commas. */
function jsonOf(entries: readonly SearchEntry[]): string {
  let text = json.get(entries)
  if (text === undefined) json.set(entries, (text = JSON.stringify(entries).slice(1, -1)))
  return text
}
