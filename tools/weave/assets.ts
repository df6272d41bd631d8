/**
 * The site's two files besides its pages: its one style sheet (light, and dark when the reader's system asks for
 * it; the code's tokens are classes, `t-token-keyword`, coloured by the palette: highlight.ts) and the search
 * box's script, plain JavaScript with no framework. The search's entries are a script too (`weave-index.js`,
 * search-index.ts), not a JSON file fetched: a page opened from `file://` may not fetch. The search loads them when
 * the box is first used, not with the page: they are the site's largest file (867 KB for this project), and most
 * pages are read without a search.
 */
import {INDEX_FILE} from './search-index.ts'

export const STYLE_FILE = 'weave.css'
export const SEARCH_FILE = 'weave-search.js'

export const STYLE = `:root {
  --text: #1f2328;
  --muted: #59636e;
  --background: #ffffff;
  --panel: #f6f8fa;
  --border: #d1d9e0;
  --link: #0969da;
  --t-token-keyword: #cf222e;
  --t-token-string: #0a3069;
  --t-token-comment: #6e7781;
  --t-token-constant: #0550ae;
  --t-token-parameter: #953800;
  --t-token-function: #8250df;
  --t-token-string-expression: #116329;
  --t-token-punctuation: #1f2328;
  --t-token-link: #0969da;
  color-scheme: light dark;
}

@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6edf3;
    --muted: #9198a1;
    --background: #0d1117;
    --panel: #151b23;
    --border: #3d444d;
    --link: #4493f8;
    --t-token-keyword: #ff7b72;
    --t-token-string: #a5d6ff;
    --t-token-comment: #8b949e;
    --t-token-constant: #79c0ff;
    --t-token-parameter: #ffa657;
    --t-token-function: #d2a8ff;
    --t-token-string-expression: #7ee787;
    --t-token-punctuation: #e6edf3;
    --t-token-link: #58a6ff;
  }
}

body {
  margin: 0;
  color: var(--text);
  background: var(--background);
  font: 16px/1.6 system-ui, sans-serif;
}

a {
  color: var(--link);
}

header.site {
  position: sticky;
  top: 0;
  display: flex;
  gap: 1em;
  align-items: center;
  padding: 0.5em 1.5em;
  background: var(--panel);
  border-bottom: 1px solid var(--border);
}

#weave-search {
  flex: 1;
  max-width: 30em;
  font: inherit;
  padding: 0.2em 0.5em;
}

#weave-results {
  position: absolute;
  top: 100%;
  margin: 0;
  padding: 0.5em 1.5em;
  list-style: none;
  background: var(--panel);
  border: 1px solid var(--border);
}

#weave-results:empty {
  display: none;
}

main {
  max-width: 60em;
  margin: 0 auto;
  padding: 1em 1.5em 4em;
}

.source,
figcaption,
.used-in {
  color: var(--muted);
  font-size: 0.9em;
}

code {
  font: 0.9em/1.5 ui-monospace, monospace;
}

figure.block {
  margin: 1.5em 0;
}

pre.code {
  overflow-x: auto;
  padding: 0.8em 1em;
  background: var(--panel);
  border: 1px solid var(--border);
  border-radius: 6px;
}

/* The kinds of tokens (highlight.ts), coloured by the palette above. */
.t-token-keyword {
  color: var(--t-token-keyword);
}

.t-token-string {
  color: var(--t-token-string);
}

.t-token-comment {
  color: var(--t-token-comment);
}

.t-token-constant {
  color: var(--t-token-constant);
}

.t-token-parameter {
  color: var(--t-token-parameter);
}

.t-token-function {
  color: var(--t-token-function);
}

.t-token-string-expression {
  color: var(--t-token-string-expression);
}

.t-token-punctuation {
  color: var(--t-token-punctuation);
}

.t-token-link {
  color: var(--t-token-link);
}

a.noweb {
  text-decoration: underline dotted;
}

.noweb.unresolved,
.unknown-link {
  text-decoration: underline wavy;
}

table {
  border-collapse: collapse;
}

td,
th {
  padding: 0.2em 0.6em;
  border: 1px solid var(--border);
}

/* The graph at Graphviz's own size (shrunk to the page, a project's names could not be read), scrolled. */
.graph {
  overflow: auto;
  max-height: 80vh;
  margin: 0;
  border: 1px solid var(--border);
}

.graph svg polygon[fill="white"] {
  fill: transparent;
}

@media (prefers-color-scheme: dark) {
  .graph svg text {
    fill: var(--text);
  }

  .graph svg path,
  .graph svg polygon {
    stroke: var(--muted);
  }
}
`

/**
 * The search: the entries of \`weave-index.js\` (\`[text, kind, href, document]\`, each href from the site's root),
 * loaded as a script when the box is first focused or typed in, filtered by what is typed (again once they came),
 * those that start with it first; twenty at most, each a link.
 */
export const SEARCH = `'use strict'
;(function () {
  var input = document.getElementById('weave-search')
  var results = document.getElementById('weave-results')
  var root = document.body.getAttribute('data-root') || ''
  var entries = null
  var requested = false
  function load() {
    if (requested) return
    requested = true
    var script = document.createElement('script')
    script.src = root + ${JSON.stringify(INDEX_FILE)}
    script.onload = function () {
      entries = window.WEAVE_INDEX || []
      show()
    }
    document.body.appendChild(script)
  }
  function show() {
    if (entries === null) return load()
    var query = input.value.trim().toLowerCase()
    results.textContent = ''
    if (query === '') return
    var found = entries.filter(function (entry) {
      return entry[0].toLowerCase().indexOf(query) !== -1
    })
    found.sort(function (a, b) {
      var aStarts = a[0].toLowerCase().indexOf(query) === 0 ? 0 : 1
      var bStarts = b[0].toLowerCase().indexOf(query) === 0 ? 0 : 1
      return aStarts - bStarts || a[0].length - b[0].length
    })
    found.slice(0, 20).forEach(function (entry) {
      var item = document.createElement('li')
      var link = document.createElement('a')
      link.href = root + entry[2]
      link.textContent = entry[0]
      item.appendChild(link)
      item.appendChild(document.createTextNode(' ' + entry[1] + ', ' + entry[3]))
      results.appendChild(item)
    })
  }
  input.addEventListener('focus', load)
  input.addEventListener('input', show)
})()
`
