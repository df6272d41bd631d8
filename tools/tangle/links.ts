/**
 * The link Org stores for a position (`org-store-link`), which tangling puts
 * in `:comments link` comments, and the helpers around it: heading search
 * strings, link escaping, the path of the Org file relative to a target, and
 * `org-fill-template`.
 */
import os from 'node:os'
import type {OrgDocument} from './document.ts'
import {BLANKS_AND_BREAKS, trimBoth} from '../org/trim.ts'

export interface StoredLink {
  /** `file:PATH` or `file:PATH::SEARCH`, unescaped, PATH absolute (abbreviated under HOME). */
  target: string
  description: string | null
}

/**
 * `org-store-link` in an Org buffer at OFFSET (a position in the document's
 * text), with `org-id-link-to-org-use-id` off as tangling binds it.
 */
export function storeLink(doc: OrgDocument, offset: number): StoredLink {
  const file = `file:${abbreviateFileName(doc.path)}`
  const line = doc.lineOfOffset(offset)
  const target = targetAt(doc, offset, line)
  if (target !== undefined) return {target: `${file}::${target}`, description: `${file}::${target}`}
  const headline = doc.headlineAt(line)
  const customId = customIdOf(doc, headline)
  if (customId !== undefined) return {target: `${file}::#${customId}`, description: `${file}::#${customId}`}
  const name = doc.blockAt(line)?.name ?? null
  const beforeFirstHeading = headline < 0
  const context =
    name ??
    (beforeFirstHeading
      ? normalizeLinkString(doc.lines[line - 1] ?? '', true)
      : `*${normalizeLinkString(headingText(doc, headline))}`)
  if (!/[^ \r\t\n]/.test(context)) return {target: file, description: file}
  const description = name ?? (beforeFirstHeading ? null : normalizeLinkString(headingText(doc, headline)))
  return {target: `${file}::${context}`, description: description === null ? null : displayFormat(description)}
}

/** `org-in-regexp "[^<]<<\\([^<>]+\\)>>[^>]" 1`: a radio-target-like `<<x>>` spanning point. */
function targetAt(doc: OrgDocument, offset: number, line: number): string | undefined {
  const from = doc.lineStart(Math.max(1, line - 1))
  const to = line + 1 < doc.lines.length ? doc.lineStart(line + 2) - 1 : doc.text.length
  const window = doc.text.slice(from, Math.max(from, to))
  const pattern = /[^<]<<([^<>]+)>>[^>]/g
  for (let match; (match = pattern.exec(window));) {
    const start = from + match.index
    if (start > offset) break
    if (start + match[0].length >= offset) return match[1]
  }
  return undefined
}

/** `org-entry-get nil "CUSTOM_ID"` for an entry (no inheritance). */
function customIdOf(doc: OrgDocument, headline: number): string | undefined {
  const drawer = doc.drawers.get(headline)
  if (!drawer) return undefined
  let base: string | null = null
  let found = false
  const plus: string[] = []
  for (const property of drawer.properties) {
    const key = property.key.toLowerCase()
    if (key === 'custom_id' && !found) {
      found = true
      base = property.value === 'nil' ? null : property.value
    } else if (key === 'custom_id+') plus.push(property.value)
  }
  if (base === null && plus.length === 0) return undefined
  const value = [base, ...plus].filter((v): v is string => v !== null).join(' ')
  return value === 'nil' ? undefined : value
}

/** `(org-get-heading t t t t)`: the title without TODO, priority, tags and COMMENT. */
export function headingText(doc: OrgDocument, headline: number): string {
  const title = doc.headlines[headline]?.title ?? ''
  return title.replace(/^COMMENT[ \t]+/, '')
}

/** `org-link--normalize-string`. */
export function normalizeLinkString(text: string, context = false): string {
  let result = text.replace(/\[[0-9]*(?:%|\/[0-9]*)\]/g, ' ').replace(/[ \t]+/g, ' ')
  result = trimBoth(result, BLANKS_AND_BREAKS)
  if (context) {
    for (;;) {
      if (result.startsWith('(') && result.endsWith(')') && result.length >= 2) {
        result = trimBoth(result.slice(1, -1), BLANKS_AND_BREAKS)
        continue
      }
      const marks = /^[#*]+[ \t]*/.exec(result)
      if (!marks) break
      result = result.slice(marks[0].length)
    }
  }
  return result
}

/** `org-link-escape`: backslash-escape brackets (and the backslashes before them or at the end). */
export function escapeLink(link: string): string {
  // A loop, not /(\\*)([[\]]|$)/g: on a long run of backslashes that regular expression starts at each one.
  let out = ''
  let slashes = 0
  for (const char of link) {
    if (char === '\\') {
      slashes++
      continue
    }
    const run = '\\'.repeat(slashes)
    out += char === '[' || char === ']' ? `${run}${run}\\${char}` : `${run}${char}`
    slashes = 0
  }
  return out + '\\'.repeat(slashes * 2)
}

/** `org-link-make-string`. */
export function makeLinkString(link: StoredLink): string {
  const description =
    link.description === null || !/[^ \r\t\n]/.test(link.description) ? null : protectDescription(link.description)
  return `[[${escapeLink(link.target)}]${description === null ? '' : `[${description}]`}]`
}

function protectDescription(text: string): string {
  const zeroWidthSpace = '\u200b'
  return trimBoth(text, BLANKS_AND_BREAKS)
    .replace(/\]$/, `]${zeroWidthSpace}`)
    .replace(/\](?=\])/g, `]${zeroWidthSpace}`)
}

/** `org-link-display-format`: bracket links shown as their descriptions. */
function displayFormat(text: string): string {
  return text.replace(
    /\[\[((?:[^[\]\\]|\\(?:\\\\)*[[\]]|\\+[^[\]])+)\](?:\[([\s\S]+?)\])?\]/g,
    (_m, link: string, description?: string) => description ?? link,
  )
}

/**
 * The link of a tangle comment: `file:` plus the Org file (and search) relative
 * to the directory of the `:tangle` value, as `file-relative-name` computes it
 * on the whole `PATH::SEARCH` string.
 */
export function relativeLink(link: StoredLink, tangleValue: string | undefined, orgDirectory: string): string {
  const escaped = escapeLink(link.target)
  const rest = escaped.slice('file:'.length)
  const directoryPart = tangleValue === undefined ? '' : tangleValue.slice(0, tangleValue.lastIndexOf('/') + 1)
  const directory = expandFileName(directoryPart || '.', orgDirectory)
  return `file:${fileRelativeName(expandFileName(rest, orgDirectory), directory)}`
}

/** `expand-file-name`: absolute, `~` expanded, `.`, `..` and repeated slashes resolved textually. */
export function expandFileName(name: string, directory: string): string {
  let absolute = name
  if (name === '~' || name.startsWith('~/')) absolute = os.homedir() + name.slice(1)
  else if (!name.startsWith('/')) absolute = `${directory}/${name}`
  if (!/\/\/|\/\.\.?(?:\/|$)/.test(absolute)) return absolute
  const parts: string[] = []
  const segments = absolute.split('/')
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue
    if (segment === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop()
    else parts.push(segment)
  }
  const last = segments[segments.length - 1]
  const trailing = absolute.endsWith('/') && parts.length > 0 && last === ''
  return `/${parts.join('/')}${trailing ? '/' : ''}`
}

/** `file-relative-name` on absolute names. */
function fileRelativeName(file: string, directory: string): string {
  let dir = directory.endsWith('/') ? directory : `${directory}/`
  let ancestor = '.'
  while (!(`${file}/`.startsWith(dir) || file.startsWith(dir))) {
    dir = dir.slice(0, dir.slice(0, -1).lastIndexOf('/') + 1)
    ancestor = ancestor === '.' ? '..' : `../${ancestor}`
  }
  if (file.startsWith(dir)) {
    const rest = file.slice(dir.length)
    return ancestor === '.' && rest !== '' ? rest : `${ancestor}/${rest}`
  }
  return ancestor
}

/** `abbreviate-file-name`: the home directory as `~`. */
export function abbreviateFileName(file: string): string {
  const home = process.env.HOME
  if (home && home !== '/' && (file === home || file.startsWith(`${home}/`))) return `~${file.slice(home.length)}`
  return file
}

/** `org-fill-template`: `%key` replaced by its value, shorter keys first. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  let result = template
  for (const key of Object.keys(values).sort((a, b) => a.length - b.length))
    result = result.split(`%${key}`).join(values[key]!)
  return result
}
