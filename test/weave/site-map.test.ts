/**
 * Where the site puts each document's page and how a page links to a place: a table of rows, no weave.
 */
import {describe, expect, it} from 'vitest'
import {hrefTo, rootFrom, SiteMap} from '../../tools/weave/site-map.ts'

describe('the site map', () => {
  it.each([
    ['/p/org/core/turn.org', 'org/core/turn.html'],
    ['/p/notes.org', 'notes.html'],
    ['/p/org/Upper.ORG', 'org/Upper.html'],
    // A document outside the folder woven (named on the command line) keeps its page inside the site.
    ['/elsewhere/notes.org', 'outside/elsewhere/notes.html'],
    ['/p-other/notes.org', 'outside/p-other/notes.html'],
  ])('puts the page of %s at %s', (document, page) => {
    expect(new SiteMap('/p').addDocument(document)).toBe(page)
  })

  it.each([
    ['org/a.html', {page: 'org/b.html'}, 'b.html'],
    ['org/a.html', {page: 'org/a.html', anchor: 'x'}, '#x'],
    ['org/a.html', {page: 'org/a.html'}, 'a.html'],
    ['org/core/a.html', {page: 'org/skills/b.html', anchor: 'y'}, '../skills/b.html#y'],
    ['index.html', {page: 'org/b.html'}, 'org/b.html'],
    // A page's name and an anchor are encoded, so that no character of a file name or an ID is read as part of a
    // URL: `#` a fragment, `?` a query, `%` an escape, `name:` a scheme (`javascript:` ran the rest as script).
    ['org/a.html', {page: 'org/javascript:alert(1).html'}, 'javascript%3Aalert(1).html'],
    ['org/a.html', {page: 'org/a#b.html'}, 'a%23b.html'],
    ['org/a.html', {page: 'org/c?d.html'}, 'c%3Fd.html'],
    ['org/a.html', {page: 'org/100%.html'}, '100%25.html'],
    ['org/a.html', {page: 'org/sp ace.html'}, 'sp%20ace.html'],
    ['index.html', {page: 'org/x:y/b.html', anchor: 'a#b"<c>%'}, 'org/x%3Ay/b.html#a%23b%22%3Cc%3E%25'],
    ['org/a.html', {page: 'org/a.html', anchor: 'x y'}, '#x%20y'],
    ['org/a#b.html', {page: 'org/a#b.html'}, 'a%23b.html'],
  ])('links from %s to %o with %s', (from, place, href) => {
    expect(hrefTo(from, place)).toBe(href)
  })

  it.each([
    ['index.html', ''],
    ['org/a.html', '../'],
    ['org/core/a.html', '../../'],
  ])('reaches the root of the site from %s by %j', (page, root) => {
    expect(rootFrom(page)).toBe(root)
  })
})
