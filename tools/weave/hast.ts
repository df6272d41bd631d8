/**
 * The few hast nodes the weave builds itself, without a framework: an element, a text, and raw HTML (the SVG
 * Graphviz writes).
 */
import type {Element, ElementContent, Properties, Text} from 'hast'

export function element(
  tagName: string,
  properties: Properties = {},
  children: (ElementContent | string)[] = [],
): Element {
  return {
    type: 'element',
    tagName,
    properties,
    children: children.map((child) => (typeof child === 'string' ? text(child) : child)),
  }
}

export function text(value: string): Text {
  return {type: 'text', value}
}

/** HTML given as it is (rehype-stringify writes it when asked to: `allowDangerousHtml`). */
export function raw(value: string): ElementContent {
  return {type: 'raw', value} as unknown as ElementContent
}
