/**
 * The site's index: the documents listed in load order, each a link to its page (a document that did not read is
 * listed without one), then the `#+DEPENDS_ON:` graph drawn as SVG by Graphviz (as WebAssembly, @viz-js/viz: no
 * system binary), each document's node a link to its page: the list first, as a graph of many documents is read
 * by scrolling.
 */
import {instance} from '@viz-js/viz'
import type {ElementContent, Root} from 'hast'
import {toDot} from '../cli/deps-command.ts'
import type {DocumentGraph} from '../graph/document-graph.ts'
import {element, raw} from './hast.ts'
import {pageFrame} from './page.ts'
import {hrefTo} from './site-map.ts'
import type {WeaveDocument} from './weave-document.ts'

export const INDEX_PAGE = 'index.html'

/** What the index says of a document. */
export type IndexedDocument = Pick<WeaveDocument, 'path' | 'page' | 'title'>

/** The index of DOCUMENTS (HAS_PAGE says which have a page), whose graph is GRAPH; SHOW names a file. */
export async function indexPage<Document extends IndexedDocument>(
  documents: readonly Document[],
  graph: DocumentGraph,
  hasPage: (document: Document) => boolean,
  show: (file: string) => string,
): Promise<Root> {
  const byPath = new Map(documents.map((document) => [document.path, document]))
  const link = (file: string) => {
    const document = byPath.get(file)
    return document && hasPage(document) ? hrefTo(INDEX_PAGE, {page: document.page}) : undefined
  }
  const svg = await drawGraph(toDot(graph.order, graph.dependencies, show, link))
  const items = graph.order.map((file) => {
    const document = byPath.get(file)!
    const href = link(file)
    const name: ElementContent = href
      ? element('a', {href}, [document.title])
      : element('span', {className: ['unknown-link']}, [`${document.title} (not woven: it does not read)`])
    return element('li', {}, [name, ' ', element('code', {className: ['source']}, [show(file)])])
  })
  return pageFrame(INDEX_PAGE, 'Documents', [
    element('h1', {}, ['Documents']),
    element('ol', {className: ['documents']}, items),
    element('h2', {}, ['What each depends on']),
    element('figure', {className: ['graph']}, [raw(svg)]),
  ])
}

/** DOT as an SVG element (Graphviz's XML prolog and doctype left out: the SVG sits in an HTML page). */
async function drawGraph(dot: string): Promise<string> {
  const viz = await instance()
  const svg = viz.renderString(dot, {format: 'svg'})
  return svg.slice(svg.indexOf('<svg'))
}
