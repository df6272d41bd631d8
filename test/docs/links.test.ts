/**
 * Every relative link of the README and docs/ leads somewhere: to a file of the repository, and, with an anchor,
 * to a heading or an `<a id>` of it. The pages link across each other, and the references the code writes link
 * back to the guides: a page renamed or a heading reworded breaks a link here, not for a reader.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {anchorsOf, linksOf, slug} from './links.ts'

const repo = path.resolve(import.meta.dirname, '../..')
const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(repo, 'docs'), {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
]
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8')

describe('an anchor', () => {
  it.each([
    ['Running the core: `passepartout run`', 'running-the-core-passepartout-run'],
    ["The core's tools", 'the-cores-tools'],
    ["The sandbox rules' clean verdicts are remembered", 'the-sandbox-rules-clean-verdicts-are-remembered'],
    ['Memory for skills, and what a skill says', 'memory-for-skills-and-what-a-skill-says'],
    ['Write a skill, with a tool and a test', 'write-a-skill-with-a-tool-and-a-test'],
  ])('of the heading %s is %s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor)
  })

  it("of a document: its headings', the second of a name numbered, its ids; none in a fenced block", () => {
    const text = '# Page\n## Notes\n## Notes\n```\n# not a heading\n```\n| <a id="rule-ts"></a>`ts` |'
    expect([...anchorsOf(text)].sort()).toEqual(['notes', 'notes-1', 'page', 'rule-ts'])
  })
})

describe('the links of a document', () => {
  it('are those that stay in the repository, outside code', () => {
    const text = '[a](docs/a.md#b) [b](#c) [web](https://x.org) `[code](d.md)`\n```\n[e](e.md)\n```\n[f](f.md)'
    expect(linksOf(text)).toEqual(['docs/a.md#b', '#c', 'f.md'])
  })
})

describe('every link of the README and docs/', () => {
  it.each(documents)('%s: leads to a file, and to an anchor it holds', (file) => {
    const broken = linksOf(read(file)).filter((link) => {
      const [target, anchor] = link.split('#')
      const resolved = target ? path.join(path.dirname(file), target) : file
      if (!fs.existsSync(path.join(repo, resolved))) return true
      return anchor !== undefined && !anchorsOf(read(resolved)).has(anchor)
    })
    expect(broken).toEqual([])
  })
})
