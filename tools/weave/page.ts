/**
 * The frame every page of the site shares (its head, the bar with the link to the index and the search box, the
 * scripts), and the page of one document inside it: its title (holding its file-level `:ID:`s), the Org file it is
 * woven from, then its prose with its blocks. Links to the site's own files are relative to the page.
 */
import type {Element, ElementContent, Root, RootContent} from 'hast'
import {SEARCH_FILE, STYLE_FILE} from './assets.ts'
import {element} from './hast.ts'
import {rootFrom} from './site-map.ts'
import type {WeaveDocument} from './weave-document.ts'

/** A whole page at PAGE (under the site's folder), titled TITLE, holding CONTENT. */
export function pageFrame(page: string, title: string, content: ElementContent[]): Root {
  const root = rootFrom(page)
  const head = element('head', {}, [
    element('meta', {charset: 'utf-8'}),
    element('meta', {name: 'viewport', content: 'width=device-width, initial-scale=1'}),
    element('title', {}, [title]),
    element('link', {rel: ['stylesheet'], href: `${root}${STYLE_FILE}`}),
  ])
  const bar = element('header', {className: ['site']}, [
    element('a', {href: `${root}index.html`}, ['Documents']),
    element('input', {id: 'weave-search', type: 'search', placeholder: 'Find a heading, a block, an identifier'}),
    element('ol', {id: 'weave-results'}),
  ])
  const body = element('body', {dataRoot: root}, [
    bar,
    element('main', {}, content),
    element('script', {src: `${root}${SEARCH_FILE}`}),
  ])
  return {type: 'root', children: [{type: 'doctype'}, element('html', {lang: 'en'}, [head, body])]}
}

/** The page of DOCUMENT, whose prose (blocks in it) is PROSE; SOURCE: its Org file as the page names it. */
export function documentPage(document: WeaveDocument, prose: Root, source: string): Root {
  const [first, ...others] = document.fileIds
  const title = element('h1', first === undefined ? {} : {id: first}, [document.title])
  // One element holds one id: the file's other IDs lead to the top of the page too.
  const anchors = others.map((id) => element('span', {id}))
  const content: ElementContent[] = [
    ...anchors,
    title,
    element('p', {className: ['source']}, ['Woven from ', element('code', {}, [source])]),
    ...prose.children.filter(isContent).map(shiftHeading),
  ]
  return pageFrame(document.page, document.title, content)
}

function isContent(node: RootContent): node is ElementContent {
  return node.type !== 'doctype'
}

/** Org's `*` rendered as `h1` (uniorg) goes under the page's own title: one level down, `h6` at most. */
function shiftHeading(node: ElementContent): ElementContent {
  if (node.type !== 'element') return node
  const level = /^h([1-6])$/.exec(node.tagName)?.[1]
  const shifted: Element = {...node, children: node.children.map(shiftHeading)}
  if (level) shifted.tagName = `h${Math.min(6, Number(level) + 1)}`
  return shifted
}
