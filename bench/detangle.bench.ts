/**
 * `make bench`: detangling a one-line edit in a project of 1000 documents (the corpus of tangle.bench.ts), beside a
 * tangle of the same project in the same run. Each round edits one line of one generated file and times: the
 * command with the file named, the command with none named (it looks at every file the record holds), and a
 * session kept in process with the file named (what `watch --detangle` does on a save); then the tangle that
 * follows, as a command and in the same session (the one document that changed is tangled again, and writes
 * nothing); and `passepartout --version`, the floor of any command (Node's start and the command line's). The goal
 * (issue 33): detangle's p95 under 200 ms. The CPU time beside the wall time (the machine is
 * shared). Figures only; asserts nothing.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {listOrgFiles} from '../tools/project.ts'
import {ProjectSession} from '../tools/session/project-session.ts'
import {writeCorpus} from './tangle.bench.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const ROUNDS = 20
const GOAL_MS = 200

export async function main(args: string[]): Promise<number> {
  const size = Number(args[0] ?? 1000)
  console.log(`passepartout detangle benchmark: ${ROUNDS} rounds; node ${process.version}; ${os.cpus().length} CPUs\n`)
  // Two copies of the project: the commands' and the session's, whose record of what was written is its own.
  const project = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-bench-detangle-${size}-`))
    writeCorpus(root, size)
    cli(['tangle'], root)
    // A file in the middle of the project; each edit gives one of its lines a new value.
    return {root, file: path.join(root, 'out', `skill-${Math.floor(size / 2)}.ts`)}
  }
  const commands = project()
  const kept = project()
  const documents = listOrgFiles(path.join(kept.root, 'org'))
  const session = new ProjectSession({project: kept.root, stateFolder: kept.root})
  await session.tangle(documents)
  let value = 1000
  const editOneLine = (file: string) => {
    const text = fs.readFileSync(file, 'utf8')
    const edited = text.replace(/^( {2}const v5 = input\.length \+ )\d+/m, `$1${value++}`)
    if (edited === text) throw new Error(`no line to edit in ${file}`)
    fs.writeFileSync(file, edited)
  }
  const series = new Map<string, {ms: number[]; cpuMs: number[]}>()
  const measure = async (label: string, run: () => unknown) => {
    const start = performance.now()
    const cpuStart = cpuMs()
    await run()
    const entry = series.get(label) ?? {ms: [], cpuMs: []}
    entry.ms.push(performance.now() - start)
    entry.cpuMs.push(cpuMs() - cpuStart)
    series.set(label, entry)
  }
  const detangleKept = async () => {
    if ((await session.detangle([kept.file])).settled.length !== 1) throw new Error(`${kept.file} did not go back`)
  }
  for (let round = 0; round < ROUNDS; round++) {
    editOneLine(commands.file)
    await measure('detangle command, the file named', () => cli(['detangle', commands.file], commands.root))
    editOneLine(commands.file)
    await measure('detangle command, none named', () => cli(['detangle'], commands.root))
    await measure('tangle command after it', () => cli(['tangle'], commands.root))
    await measure('passepartout --version (the floor)', () => cli(['--version'], commands.root))
    editOneLine(kept.file)
    await measure('detangle in process, the file named', detangleKept)
    await measure('tangle in process after it', () => session.tangle(documents))
  }
  await session.close()
  console.log(`${size} documents; one line of ${path.relative(commands.root, commands.file)} edited each time`)
  for (const [label, {ms, cpuMs: cpu}] of series) {
    const goal = label.startsWith('detangle') ? `  (goal p95 < ${GOAL_MS} ms: ${percentile(ms, 95) < GOAL_MS ? 'met' : 'missed'})` : ''
    console.log(
      `  ${label.padEnd(40)} p50 ${percentile(ms, 50).toFixed(0).padStart(5)} ms, p95 ${percentile(ms, 95).toFixed(0).padStart(5)} ms wall, p50 ${percentile(cpu, 50).toFixed(0).padStart(5)} ms CPU${goal}`,
    )
  }
  for (const {root} of [commands, kept]) fs.rmSync(root, {recursive: true, force: true})
  return 0
}

function cli(args: string[], cwd: string): void {
  const result = spawnSync(path.join(repo, 'bin/passepartout'), args, {cwd, stdio: ['ignore', 'ignore', 'inherit']})
  if (result.status !== 0) throw new Error(`passepartout ${args.join(' ')} exited with ${result.status}`)
}

/** This process's CPU time and its children's that ended (Linux's /proc/self/stat), in ms. */
function cpuMs(): number {
  const own = process.cpuUsage()
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  // cutime and cstime, in clock ticks (100 a second on Linux's usual builds).
  return (own.user + own.system) / 1000 + ((Number(fields[13]) + Number(fields[14])) * 1000) / 100
}

/** The P-th percentile of VALUES (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
