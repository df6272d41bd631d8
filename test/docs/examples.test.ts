/**
 * Every example the README and docs/ show as printed is run here, in a project of its own, and held to what the
 * commands print: a transcript (`$ passepartout status` and the lines under it) runs each command through a
 * shell in the example's project; a block marked as a file of the example is written there first; an excerpt
 * (printed lines, no command) is found in the output the example says it comes from; a file shown with `cat` is
 * written as shown before it is printed. What the prose says
 * happened between two commands (a server stopped, a document saved) is the example's own step
 * (examples.ts). A transcript that belongs to no example fails here: none goes stale unseen.
 */
import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type DocProject, repo} from './doc-project.ts'
import {type Example, EXAMPLES} from './examples.ts'
import {type Block, blocksOf, isTranscript, match, stepsOf, taken} from './transcripts.ts'

/** The documents whose examples run: the README and every page of docs/ but the references the code writes. */
function documents(): string[] {
  const pages = fs
    .readdirSync(path.join(repo, 'docs'), {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.md') && !file.startsWith('reference/'))
    .map((file) => `docs/${file}`)
  return ['README.md', ...pages.sort()]
}

const blocks = documents().flatMap((file) => blocksOf(file, fs.readFileSync(path.join(repo, file), 'utf8')))
const place = (block: Block) => `${block.file}:${block.line}`

/** The blocks of each example, in the order of its document. */
const byExample = new Map<string, Block[]>()
for (const block of blocks) {
  const name = block.marker?.example
  if (name) byExample.set(name, [...(byExample.get(name) ?? []), block])
}

describe('the examples of the documentation', () => {
  it('are every transcript it shows', () => {
    const unmarked = blocks.filter((block) => isTranscript(block) && !block.marker?.example).map(place)
    expect(unmarked, 'a transcript with no <!-- example: NAME --> above it').toEqual([])
  })

  it('each run by its steps in examples.ts, each in one document', () => {
    expect([...byExample.keys()].sort()).toEqual(Object.keys(EXAMPLES).sort())
    for (const [name, found] of byExample) expect(new Set(found.map((block) => block.file)).size, name).toBe(1)
  })
})

/** LINES as printed, held to the lines BLOCK shows; what they gave a later command to name is kept. */
function expectShown(project: DocProject, shown: readonly string[], printed: string, where: string): void {
  const lines = project.asShown(printed).replace(/\n+$/, '').split('\n')
  const pairs = match(shown, printed === '' ? [] : lines)
  if (!pairs) expect(lines.join('\n'), `${where}: printed is not what is shown`).toBe(shown.join('\n'))
  for (const [words, actual] of taken(pairs ?? [])) project.taken.set(words, actual)
}

/** What COMMAND printed in PROJECT: the example's own way to run it, or the shell's; a `cd` moves the later ones. */
async function printedBy(example: Example, project: DocProject, command: string): Promise<string> {
  const folder = /^cd (\S+)$/.exec(command)?.[1]
  if (folder) {
    project.cd(folder)
    return ''
  }
  const own = example.commands?.[command]
  return own ? own(project) : project.run(command)
}

/** The transcript BLOCK run step by step in PROJECT, each output held to what is shown; a DEFERRED one kept. */
async function runTranscript(example: Example, project: DocProject, block: Block, deferred: boolean) {
  for (const step of stepsOf(block)) {
    // A file shown with `cat` is the example's: written as shown, then printed.
    const shownFile = /^cat (\S+)$/.exec(step.command)?.[1]
    if (shownFile) project.write(shownFile, `${step.output.join('\n')}\n`)
    await example.around?.[step.command]?.before?.(project)
    const printed = await printedBy(example, project, step.command)
    if (!deferred) expectShown(project, step.output, printed, `${place(block)}: $ ${step.command}`)
    await example.around?.[step.command]?.after?.(project)
  }
}

for (const [name, found] of byExample) {
  const example = EXAMPLES[name]
  if (!example) continue
  describe(`${found[0]!.file}: the example ${name}`, () => {
    let project: DocProject
    beforeAll(async () => {
      project = await example.project()
    })
    afterAll(async () => project?.close())

    const transcripts = found.filter((block) => isTranscript(block))
    const excerpts = found.filter((block) => !isTranscript(block) && !block.marker?.file)
    /** The files to write before each transcript: those shown since the one before. */
    const filesBefore = (block: Block) => {
      const previous = transcripts[transcripts.indexOf(block) - 1]
      return found.filter(
        (file) => file.marker?.file && file.line < block.line && (!previous || file.line > previous.line),
      )
    }
    const title = (block: Block) =>
      `${place(block)}: ${stepsOf(block)
        .map((step) => `$ ${step.command}`)
        .join('; ')}`

    transcripts.forEach((block, n) => {
      it(title(block), async () => {
        for (const file of filesBefore(block)) project.write(file.marker!.file!, `${file.lines.join('\n')}\n`)
        await example.before?.[n]?.(project)
        await runTranscript(example, project, block, example.deferred?.includes(n) ?? false)
      })
    })

    excerpts.forEach((block, n) => {
      it(`${place(block)}: printed as shown`, async () => {
        const printed = await example.excerpts![n]!(project)
        const lines = project.asShown(printed).split('\n')
        expect(match(['…', ...block.lines, '…'], lines), `${place(block)} in:\n${lines.join('\n')}`).toBeDefined()
      })
    })

    for (const n of example.deferred ?? [])
      it(`${title(transcripts[n]!)}: as printed by the end`, async () => {
        const [step] = stepsOf(transcripts[n]!)
        expectShown(project, step!.output, await example.commands![step!.command]!(project), place(transcripts[n]!))
      })
  })
}
