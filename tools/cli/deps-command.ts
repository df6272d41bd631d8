/**
 * `passepartout deps [FILE|DIR ...]`: the documents in load order, one path a
 * line; `--json` the graph for programs; `--dot` the graph for Graphviz
 * (`passepartout deps --dot | dot -Tsvg > deps.svg`).
 */
import {diagnosticJson, displayPath, isError} from '../diagnostics.ts'
import {commandInputs} from './inputs.ts'
import {printDiagnostics} from './output.ts'
import type {CommandContext} from './usage.ts'

export interface DepsFlags {
  json: boolean
  dot: boolean
}

export async function runDeps(args: string[], flags: DepsFlags, context: CommandContext): Promise<number> {
  const {session, files} = commandInputs(args, {allowOutside: [], cache: true}, context)
  const {graph, documents} = await session.graph(files)
  const show = (file: string) => displayPath(file, context.cwd)
  if (flags.json) {
    const report = {
      version: 1,
      order: graph.order.map(show),
      documents: documents.map((document) => ({
        path: show(document.path),
        ids: document.ids.map((entry) => entry.id),
        dependsOn: (graph.dependencies.get(document.path) ?? []).map(show),
        broken: graph.broken.has(document.path),
      })),
      diagnostics: graph.diagnostics.map((message) => diagnosticJson(message, context.cwd)),
    }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } else if (flags.dot) {
    process.stdout.write(toDot(graph.order, graph.dependencies, show))
  } else {
    for (const file of graph.order) process.stdout.write(`${show(file)}\n`)
  }
  printDiagnostics(graph.diagnostics, {cwd: context.cwd, frames: context.frames})
  return graph.diagnostics.some(isError) ? 1 : 0
}

/**
 * DOT with an edge from each document to each document it depends on (an arrow reads "needs"); with LINK, each
 * document's node leads to the URL LINK gives it (the woven site's graph: weave/index-page.ts).
 */
export function toDot(
  order: readonly string[],
  dependencies: ReadonlyMap<string, readonly string[]>,
  show: (file: string) => string,
  link?: (file: string) => string | undefined,
): string {
  const lines = ['digraph passepartout {', '  rankdir=LR;', '  node [shape=box];']
  for (const file of order) {
    const url = link?.(file)
    lines.push(`  ${quote(show(file))}${url === undefined ? '' : ` [URL=${quote(url)}]`};`)
  }
  for (const file of order) {
    for (const target of dependencies.get(file) ?? []) lines.push(`  ${quote(show(file))} -> ${quote(show(target))};`)
  }
  lines.push('}')
  return `${lines.join('\n')}\n`
}

/** A DOT quoted identifier: backslashes and double quotes escaped, newlines as `\n`. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}
