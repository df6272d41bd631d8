/**
 * `passepartout fmt --check` over this repository (its org/ and tools/, as
 * `make test` would check them), as a command, next to what it cannot go
 * below: starting Node (`node -e 0`), and Prettier alone formatting the same
 * code (each code block's body and each file: no Org reading, no noweb
 * placeholders, no fragment readings), as a command too and warm in one
 * process. Medians of 3; the CPU time of each run beside its wall time (the
 * machine is shared).
 * Figures only; asserts nothing.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as prettier from 'prettier'
import {HOUSE_STYLE} from '../tools/fmt/format-code.ts'
import {listFormattable} from '../tools/fmt/fmt.ts'
import {blockBody, readOrg} from '../tools/org/parse.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const RUNS = 3
const FOLDERS = ['org', 'tools']
const CODE_LANGUAGES = new Set(['typescript', 'ts', 'js', 'javascript'])

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--prettier-alone') {
    await prettierAlone(codeInputs())
    return 0
  }
  console.log(
    `passepartout fmt benchmark: node ${process.version}; ${os.cpus().length} CPUs; prettier ${prettier.version}\n`,
  )
  const inputs = codeInputs()
  const lines = inputs.reduce((sum, code) => sum + code.split('\n').length - 1, 0)
  console.log(`  input: ${FOLDERS.join('/ and ')}/: ${inputs.length} pieces of code (blocks and files), ${lines} lines`)
  const command = median(Array.from({length: RUNS}, () => spawned(['bin/passepartout', 'fmt', '--check'])))
  const node = median(Array.from({length: RUNS}, () => spawned([process.execPath, '-e', '0'])))
  const cold = median(
    Array.from({length: RUNS}, () => spawned(['node', 'bin/launch.mjs', 'bench/fmt.bench.ts', '--prettier-alone'])),
  )
  const warm: Timed[] = []
  for (let run = 0; run < RUNS + 1; run++) warm.push(await prettierAlone(inputs))
  const formatter = median(warm.slice(1))
  console.log(`  passepartout fmt --check (command)        ${show(command)}`)
  console.log(`  node -e 0                                 ${show(node)}`)
  console.log(`  Prettier alone on the same code (command) ${show(cold)}`)
  console.log(`  Prettier alone, warm (one process)        ${show(formatter)}`)
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`
  console.log(
    `  fmt --check / Prettier alone: ${ratio(command.ms, cold.ms)} wall, ${ratio(command.cpuMs, cold.cpuMs)} CPU; ` +
      `Prettier cold / warm: ${ratio(cold.cpuMs, formatter.cpuMs)} CPU`,
  )
  return 0
}

interface Timed {
  ms: number
  cpuMs: number
}

/** ARGV run in the repository as a child process: its wall time and the CPU time it used. */
function spawned(argv: string[]): Timed {
  const cpuBefore = childrenCpuMs()
  const started = performance.now()
  const result = spawnSync(argv[0]!, argv.slice(1), {cwd: repo, encoding: 'utf8'})
  const ms = performance.now() - started
  // fmt --check exits 1 when a file would change: what it says while the repository is not yet formatted.
  if (result.status !== 0 && result.status !== 1) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`)
  return {ms, cpuMs: childrenCpuMs() - cpuBefore}
}

/**
 * The CPU time of the children this process has waited for, in ms: cutime and cstime of /proc/self/stat (the
 * 14th and 15th fields after the command's name), in clock ticks of 1/100 s. Node's resourceUsage() has no
 * children's times.
 */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10
}

/** Every block body of the Org documents and every code file of FOLDERS, as Prettier alone is given them. */
function codeInputs(): string[] {
  const inputs: string[] = []
  for (const file of FOLDERS.flatMap((folder) => listFormattable(path.join(repo, folder)))) {
    const text = fs.readFileSync(file, 'utf8')
    if (!file.endsWith('.org')) {
      inputs.push(text)
      continue
    }
    const {root} = readOrg(text)
    for (const node of root.children) {
      if (node.type !== 'srcBlock' || !CODE_LANGUAGES.has(node.language ?? '')) continue
      inputs.push(
        `${blockBody(node, root.data.lines)
          .map((line) => line.value)
          .join('\n')}\n`,
      )
    }
  }
  return inputs
}

/** INPUTS through Prettier, each once; those that do not parse as a program cost their failed parse. */
async function prettierAlone(inputs: readonly string[]): Promise<Timed> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (const code of inputs) {
    try {
      await prettier.format(code, {...HOUSE_STYLE, parser: 'typescript', filepath: 'code.ts'})
    } catch {
      // A fragment: what the command then tries as a class body is its own cost.
    }
  }
  const used = process.cpuUsage(cpu)
  return {ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000}
}

function median(runs: Timed[]): Timed {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!
}

function show(timed: Timed): string {
  return `${timed.ms.toFixed(0).padStart(6)} ms wall, ${timed.cpuMs.toFixed(0).padStart(6)} ms CPU`
}
