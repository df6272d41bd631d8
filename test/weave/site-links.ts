/**
 * What a test reads of a woven site: the elements of a page's hast (as the weave built it, before it was written),
 * and every internal link of the site, each resolved to a file of the site and an anchor of that page.
 */
import fs from 'node:fs'
import path from 'node:path'
import type {Element, Root, RootContent} from 'hast'

/** Every element of ROOT, in document order. */
export function elements(root: Root | Element): Element[] {
  const found: Element[] = []
  const visit = (node: Root | RootContent) => {
    if (node.type === 'element') found.push(node)
    if ('children' in node) for (const child of node.children) visit(child)
  }
  visit(root)
  return found
}

/** The text of NODE and its descendants. */
export function textOf(node: Element | RootContent): string {
  if (node.type === 'text') return node.value
  return 'children' in node ? node.children.map((child) => textOf(child as RootContent)).join('') : ''
}

/** The raw HTML ROOT holds (the graph's SVG, an author's `#+HTML:`). */
export function raws(root: Root): string[] {
  const found: string[] = []
  const visit = (node: Root | RootContent) => {
    if ((node as {type: string}).type === 'raw') found.push((node as unknown as {value: string}).value)
    if ('children' in node) for (const child of node.children) visit(child)
  }
  visit(root)
  return found
}

/** The ids of a page. */
export function idsOf(root: Root): Set<string> {
  const ids = new Set(
    elements(root).flatMap((element) => (element.properties.id ? [String(element.properties.id)] : [])),
  )
  for (const svg of raws(root)) for (const match of svg.matchAll(/\sid="([^"]+)"/g)) ids.add(match[1]!)
  return ids
}

/** Every link of the page PAGE leading inside the site: `href` and `src` of its elements, `xlink:href` of its SVG. */
export function internalLinks(page: string, root: Root): string[] {
  const links = elements(root).flatMap((element) =>
    [element.properties.href, element.properties.src].filter((value): value is string => typeof value === 'string'),
  )
  for (const svg of raws(root)) for (const match of svg.matchAll(/xlink:href="([^"]+)"/g)) links.push(match[1]!)
  // `id:` and `file:` are Org's, which no browser follows: left so, they are links of the site that lead nowhere.
  return links.filter((link) => !/^(?!id:|file:)[a-z]+:/i.test(link)).map((link) => `${page} → ${link}`)
}

/**
 * The links of PAGES (by path under OUT) that lead nowhere: to no file of OUT, or to an anchor the page does not
 * hold.
 */
export function brokenLinks(out: string, pages: ReadonlyMap<string, Root>): string[] {
  const broken: string[] = []
  for (const [page, root] of pages) {
    for (const link of internalLinks(page, root)) {
      const href = link.slice(link.indexOf(' → ') + 3)
      const [file, anchor] = href.split('#') as [string, string | undefined]
      const target = file === '' ? page : path.posix.join(path.posix.dirname(page), decodeURIComponent(file))
      if (!fs.existsSync(path.join(out, target))) broken.push(`${link} (no file ${target})`)
      else if (
        anchor !== undefined &&
        !idsOf(pages.get(target) ?? {type: 'root', children: []}).has(decodeURIComponent(anchor))
      )
        broken.push(`${link} (no #${anchor} in ${target})`)
    }
  }
  return broken
}
