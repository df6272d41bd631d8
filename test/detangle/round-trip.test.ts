/**
 * The round trip, as a property: for random line edits of the files documents tangle to (the Emacs conformance
 * corpus's and some of this project's own), detangle either refuses or gives a document that tangles to exactly the
 * edited bytes, every other file it writes unchanged. Never different bytes. All in memory: the documents are
 * planned, not written.
 */
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {detangleDocument} from '../../tools/detangle/detangle.ts'
import {planDocument} from '../../tools/tangle/tangle-document.ts'
import {hashOf} from '../../tools/tangle/written.ts'

const repo = path.resolve(import.meta.dirname, '../..')
// Where conformance.test.ts finds it: beside the clone, or where PASSEPARTOUT_CONFORMANCE says.
const corpus = process.env.PASSEPARTOUT_CONFORMANCE ?? path.resolve(repo, '../shared/conformance')
const conformance = fs.existsSync(path.join(corpus, 'cases'))
  ? fs
      .readdirSync(path.join(corpus, 'cases'))
      .map((name) => path.join(corpus, 'cases', name, 'input.org'))
      .filter((file) => fs.existsSync(file))
  : []
const ours = [
  'org/core/errors.org',
  'org/core/conversation.org',
  'org/core/signals.org',
  'org/core/host-budget.org',
].map((file) => path.join(repo, file))

/** The plan of BYTES as the document DOCUMENT, its targets allowed anywhere: none is written. */
function plan(document: string, bytes: Uint8Array) {
  return planDocument(document, bytes, {boundary: {root: path.sep, allowed: [path.sep]}})
}

/** Documents that tangle, with at least one file. */
const documents = [...conformance, ...ours].filter((document) => {
  const planned = plan(document, fs.readFileSync(document))
  return !planned.failed && planned.targets.length > 0
})

/** Text a line may become: code, Org's own syntax, escapes, references, blanks. */
const lineText = fc.oneof(
  fc.constantFrom(
    '',
    '  ',
    '\t',
    '* heading',
    ',* escaped',
    '#+end_src',
    ',#+begin_src',
    '<<ref>>',
    '  x = 1',
    'y',
    '// ;; comment',
  ),
  fc.string({maxLength: 12}).map((text) => text.replace(/[\n\r]/g, '')),
)

const edit = fc.record({
  kind: fc.constantFrom('replace', 'insert', 'delete', 'indent'),
  at: fc.nat(),
  text: lineText,
})

/** LINES with EDITS made, each at its position modulo the length. */
function applied(lines: readonly string[], edits: readonly {kind: string; at: number; text: string}[]): string[] {
  const result = [...lines]
  for (const {kind, at, text} of edits) {
    // The last line is what follows the final newline: edits go before it.
    const index = at % Math.max(1, result.length - 1)
    if (kind === 'insert') result.splice(index, 0, text)
    else if (result.length > 1 && kind === 'delete') result.splice(index, 1)
    else if (result.length > 1 && kind === 'replace') result[index] = text
    else if (result.length > 1) result[index] = `  ${result[index]}`
  }
  return result
}

describe('detangle, then tangle', () => {
  it("finds documents to edit: the corpus's (CI runs beside it) and ours", () => {
    expect(documents.length).toBeGreaterThanOrEqual(ours.length)
    if (process.env.CI) expect(conformance.length).toBeGreaterThan(0)
  })

  it('gives the edited bytes or a refusal, never other bytes', () => {
    const outcomes = {detangled: 0}
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.array(edit, {minLength: 1, maxLength: 4}), (pick, pickTarget, edits) => {
        const document = documents[pick % documents.length]!
        const bytes = fs.readFileSync(document)
        const before = plan(document, bytes)
        const target = before.targets[pickTarget % before.targets.length]!
        const edited = Buffer.from(applied(target.content.split('\n'), edits).join('\n'))
        const result = detangleDocument({
          document,
          bytes,
          plan: (candidate) => plan(document, candidate),
          edited: [{path: target.path, recordedHash: hashOf(target.content), bytes: edited}],
          display: (file) => path.basename(file),
        })
        if (result.bytes === undefined) {
          if (edited.equals(Buffer.from(target.content))) return
          expect(result.refusals.length).toBeGreaterThan(0)
          return
        }
        expect(result.refusals).toEqual([])
        outcomes.detangled++
        const after = plan(document, result.bytes)
        const contents = new Map(after.targets.map((planned) => [planned.path, planned.content]))
        expect(Buffer.from(contents.get(target.path) ?? '')).toEqual(edited)
        for (const other of before.targets)
          if (other.path !== target.path) expect(contents.get(other.path)).toBe(other.content)
      }),
      {numRuns: 300},
    )
    // Not all refused: about a third of such edits goes back (the rest touch what Org computed, or what its
    // trimming and indentation removal would not give back).
    expect(outcomes.detangled).toBeGreaterThan(20)
  })
})
