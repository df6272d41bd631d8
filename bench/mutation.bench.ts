/**
 * A mutation score over the fast tests of the modules whose behaviour is limits, refusals and gates: each boundary of
 * their code (a comparison, a step of one) moved by one, the module's own tests run against it by vitest's node API,
 * the module put back. A mutant the tests let pass is a survivor; every survivor must be written down in
 * bench/mutation-survivors.md with why it cannot matter, or killed by a test at N and N+1. The goal: no survivor
 * missing from that file (and none written there that no longer survives).
 *
 * Our own runner, not StrykerJS 9.6.1: its vitest runner ran (protocol.ts: 292 mutants in 4.5 min at concurrency 1),
 * but it mutates every literal and schema (82 survivors in protocol.ts alone, mostly zod strings), needs the
 * TypeScript JS API that TypeScript 7 no longer has (its tsconfig rewriting fails unless pointed at no file), and its
 * mutants never reach a skill booted by the engine from org/skills (policy.ts: 18 of 18 "survived" tests that fail on
 * any of them). The boundary is what the issue found untested; this runner mutates just that.
 * Figures only; asserts nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import {createVitest} from 'vitest/node'
import {descendantsOf} from './proc-cpu.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const SURVIVORS_FILE = 'bench/mutation-survivors.md'

/** The modules mutated, each with the fast test files that cover it (no booted core, no skill host). */
const MODULES: readonly {source: string; tests: readonly string[]}[] = [
  {source: 'generated/core/wire.ts', tests: ['generated/core/protocol.test.ts', 'generated/core/client.test.ts']},
  {source: 'generated/core/untrusted.ts', tests: ['generated/core/untrusted.test.ts']},
  {source: 'generated/core/signals.ts', tests: ['generated/core/signals.test.ts']},
  {source: 'generated/core/reading.ts', tests: ['generated/core/reading.test.ts']},
  {source: 'generated/core/actions.ts', tests: ['generated/core/actions.test.ts']},
  {source: 'generated/core/proposal-text.ts', tests: ['generated/core/actions.test.ts']},
  {source: 'generated/core/registry.ts', tests: ['generated/core/registry.test.ts']},
  {source: 'generated/core/loop.ts', tests: ['generated/core/loop.test.ts']},
  {source: 'generated/core/turn.ts', tests: ['generated/core/turn.test.ts']},
  {source: 'generated/core/approvals.ts', tests: ['generated/core/approvals.test.ts']},
  {source: 'generated/core/catalog.ts', tests: ['generated/core/catalog.test.ts']},
]

/** Each boundary moved by one: the comparison that lets N through stops it, and the other way round. */
const SWAPS: Readonly<Record<string, string>> = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '+ 1': '', '- 1': ''}
/** An operator between two spaced operands, as the formatter writes them (generics and arrows have no such spaces). */
const BOUNDARY = / (<=|>=|<|>|\+ 1|- 1)(?= |\)|,|;|$)/g

interface Mutant {
  /** The name kept in the survivors' file: the module, the line as written, and the change. */
  id: string
  source: string
  /** 1-based. */
  line: number
  mutated: string
}

/** `args`: parts of module names, to mutate only those (all when none). */
export async function main(args: string[]): Promise<number> {
  const started = performance.now()
  const modules = MODULES.filter((module) => args.length === 0 || args.some((part) => module.source.includes(part)))
  const written = readSurvivorsFile()
  const runner = await TestRunner.start()
  const survivors: Mutant[] = []
  let total = 0
  try {
    for (const module of modules) {
      const mutants = mutantsOf(module.source)
      const unmutated = performance.now()
      if ((await runner.run(module.tests, UNMUTATED_DEADLINE_MS)) !== 'passed') {
        console.log(`  ${module.source}: its tests fail unmutated, skipped`)
        continue
      }
      const deadline = Math.max(HANG_FLOOR_MS, HANG_FACTOR * (performance.now() - unmutated))
      let hung = 0
      for (const mutant of mutants) {
        total++
        const outcome = await killed(runner, mutant, module.tests, deadline)
        if (outcome === 'passed') survivors.push(mutant)
        if (outcome === 'hung') hung++
      }
      console.log(`  ${module.source}: ${mutants.length} mutants${hung > 0 ? `, ${hung} killed by a hang` : ''}`)
    }
  } finally {
    await runner.close()
  }
  // Only the modules mutated this time say which survivors written down no longer survive.
  const mutated = [...written].filter(([id]) => modules.some((module) => id.startsWith(`${module.source}: `)))
  report(total, survivors, new Map(mutated), performance.now() - started)
  return 0
}

/** Every boundary of a module's code outside comments and strings, each as a whole new text of the module. */
function mutantsOf(source: string): Mutant[] {
  const lines = fs.readFileSync(path.join(repo, source), 'utf8').split('\n')
  const seen = new Map<string, number>()
  return lines.flatMap((text, index) =>
    boundariesOf(text).map(({at, operator}) => {
      const swapped = `${text.slice(0, at + 1)}${SWAPS[operator]}${text.slice(at + 1 + operator.length)}`
      const base = `${source}: ${text.trim()} [${operator} → ${SWAPS[operator] || 'nothing'}]`
      const count = (seen.get(base) ?? 0) + 1
      seen.set(base, count)
      return {
        id: count === 1 ? base : `${base} #${count}`,
        source,
        line: index + 1,
        mutated: lines.with(index, swapped).join('\n'),
      }
    }),
  )
}

/** The operators of one line that stand between operands, not inside a comment or a string. */
function boundariesOf(text: string): {at: number; operator: string}[] {
  if (/^\s*(\/\/|\*|\/\*)/.test(text)) return []
  return [...text.matchAll(BOUNDARY)]
    .filter((match) => !insideString(text.slice(0, match.index)))
    .map((match) => ({at: match.index, operator: match[1]!}))
}

/** Whether a quote opened before this point of the line is still open: the operator is text, not code. */
function insideString(before: string): boolean {
  return [`'`, `"`, '`'].some((quote) => before.split(quote).length % 2 === 0)
}

/** How long the unmutated tests of a module may take (they boot cores on a loaded machine). */
const UNMUTATED_DEADLINE_MS = 600_000
/**
 * A mutant's tests may run HANG_FACTOR times as long as the unmutated ones did, HANG_FLOOR_MS at least: past it the
 * mutant hangs them (a loop that no longer ends: `while (n >= 0)` where it was `> 0`), and counts as killed, as a
 * test run that never ends is one a person sees fail. A loop that holds its thread is deaf to vitest's test timeout:
 * its worker is killed, and the runner started again.
 */
const HANG_FACTOR = 5
const HANG_FLOOR_MS = 60_000

type Outcome = 'passed' | 'failed' | 'hung'

/** vitest's node API with one worker (the machine is shared), and a deadline on each run. */
class TestRunner {
  private constructor(private vitest: Awaited<ReturnType<typeof createVitest>>) {}

  static async start(): Promise<TestRunner> {
    return new TestRunner(await TestRunner.vitest())
  }

  /** A reporter that says nothing: the score is what this prints. */
  private static vitest() {
    const quiet = {
      watch: false,
      reporters: [{}],
      config: false as const,
      root: repo,
      maxWorkers: 1,
      testTimeout: 30_000,
    }
    return createVitest('test', {...quiet, env: {SHIPPED_SKILLS: ''}}, {})
  }

  /** Whether TESTS pass, fail, or are still running after DEADLINE ms (then stopped, with what they started). */
  async run(tests: readonly string[], deadlineMs: number): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), deadlineMs)))
    const ran = passes(this.vitest, tests).then((ok): Outcome => (ok ? 'passed' : 'failed'))
    const outcome = await Promise.race([ran, hung])
    clearTimeout(timer)
    if (outcome === 'hung') await this.restart(ran)
    return outcome
  }

  /** FILE read again at the next run: vitest keeps what it transformed. */
  invalidate(file: string): void {
    this.vitest.invalidateFile(file)
  }

  async close(): Promise<void> {
    await this.vitest.close()
  }

  /** The workers killed with every process they started, the hung run let go, and a new vitest. */
  private async restart(ran: Promise<Outcome>): Promise<void> {
    for (const pid of descendantsOf(process.pid)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Ended meanwhile.
      }
    }
    await Promise.race([ran.catch(() => 'failed'), sleep(10_000)])
    await Promise.race([this.vitest.close().catch(() => undefined), sleep(10_000)])
    this.vitest = await TestRunner.vitest()
  }
}

async function passes(vitest: Awaited<ReturnType<typeof createVitest>>, tests: readonly string[]): Promise<boolean> {
  const files = tests.map((test) => path.join(repo, test))
  const result = await vitest.runTestFiles(files)
  // The result holds every file this vitest ran so far, each as it last ran: only this run's files say anything.
  const ran = result.testModules.filter((module) => files.includes(module.moduleId))
  return result.unhandledErrors.length === 0 && ran.length === files.length && ran.every((module) => module.ok())
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs the module's tests against the mutant, then puts the module back whatever happened, Ctrl-C included. */
async function killed(
  runner: TestRunner,
  mutant: Mutant,
  tests: readonly string[],
  deadlineMs: number,
): Promise<Outcome> {
  const file = path.join(repo, mutant.source)
  const original = fs.readFileSync(file, 'utf8')
  const interrupted = () => {
    fs.writeFileSync(file, original)
    process.exit(130)
  }
  process.once('SIGINT', interrupted)
  fs.writeFileSync(file, mutant.mutated)
  runner.invalidate(file)
  try {
    return await runner.run(tests, deadlineMs)
  } finally {
    fs.writeFileSync(file, original)
    runner.invalidate(file)
    process.off('SIGINT', interrupted)
  }
}

/** The survivors written down, each `- \`id\`: why it cannot matter`. */
function readSurvivorsFile(): Map<string, string> {
  const text = fs.existsSync(path.join(repo, SURVIVORS_FILE))
    ? fs.readFileSync(path.join(repo, SURVIVORS_FILE), 'utf8')
    : ''
  return new Map([...text.matchAll(/^- `(.+)`: (.+)$/gm)].map(([, id, why]) => [id!, why!]))
}

function report(total: number, survivors: readonly Mutant[], written: Map<string, string>, ms: number): void {
  const killedCount = total - survivors.length
  const open = survivors.filter((mutant) => written.get(mutant.id)?.startsWith('OPEN:'))
  const unexplained = survivors.filter((mutant) => !written.has(mutant.id))
  const stale = [...written.keys()].filter((id) => !survivors.some((mutant) => mutant.id === id))
  const goal = unexplained.length + open.length === 0 ? 'met' : `${unexplained.length} new, ${open.length} open`
  console.log(
    `\nmutation score: ${killedCount}/${total} killed (${((100 * killedCount) / Math.max(total, 1)).toFixed(1)}%), ` +
      `${survivors.length} survived in ${(ms / 1000).toFixed(0)} s; goal: every survivor killed or written down in ` +
      `${SURVIVORS_FILE} with why it cannot matter: ${goal}`,
  )
  for (const mutant of survivors) {
    const why = written.get(mutant.id)
    const said = why === undefined ? 'NEW survivor' : why.startsWith('OPEN:') ? 'open gap' : 'cannot matter'
    console.log(
      `  ${said}: ${mutant.id} (line ${mutant.line})${why === undefined ? '' : `: ${why.replace(/^OPEN: /, '')}`}`,
    )
  }
  for (const id of stale) console.log(`  written down but no longer survives: ${id}`)
}
