/**
 * `make bench`, fourth part: the pipeline (generated/core/, tangled from
 * org/core/). Prints, side by side in one run:
 *
 * - signals per second through the whole loop (Perceive → Reason → Act) with
 *   the offline backend and 10 skills, each with a gate and an augment, the
 *   first with a redact too (as the bouncer has): one `core.ask` after
 *   another, p50/p95 of each; and the skill host's part of one signal
 *   measured alone, as Reason asks it (the turn prepared in one round trip,
 *   then the gates), and the bytes sent before the model is asked;
 * - `cognitiveVerify` on one proposal with 50 gates, through the host, next to
 *   `engine.verify` alone (the round trip without the core's own rules).
 *
 * Figures only; asserts nothing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {BackendRegistry} from '../generated/core/cascade.ts'
import {Core} from '../generated/core/core.ts'
import {offlineBackend} from '../generated/core/offline-backend.ts'
import {userInput} from '../generated/core/signals.ts'

const SIGNALS = 500
const PROPOSALS = 2000

export async function main(): Promise<number> {
  console.log(`pipeline benchmark: node ${process.version}; ${os.cpus().length} CPUs\n`)
  await benchLoop()
  await benchVerify()
  return 0
}

/** Skill N: a gate that passes what it does not know and an augment, as the shipped skills have. */
function skillDocument(n: number): string {
  const name = `skill-${String(n).padStart(2, '0')}`
  return [
    `#+TITLE: ${name}`,
    `#+begin_src typescript :tangle ../../generated/skills/${name}.ts :mkdirp yes`,
    "import {defineSkill, type Proposal} from 'passepartout'",
    `defineSkill({name: '${name}', priority: ${n}, trigger: () => false, augment: () => 'Rule ${n}: be precise.', gate: (proposal: Proposal) => (proposal.action.length > ${n} + 100 ? {kind: 'block', reason: 'too long'} : {kind: 'pass'})${n === 0 ? ", redact: (text: string) => text.replace(/sk-[A-Za-z0-9]{20,}/g, '[MASKED]')" : ''}})`,
    '#+end_src',
    '',
  ].join('\n')
}

function writeProject(size: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `passepartout-pipeline-bench-${size}-`))
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (let n = 0; n < size; n++) fs.writeFileSync(path.join(root, 'org', 'skills', `skill-${String(n).padStart(2, '0')}.org`), skillDocument(n))
  return root
}

async function startCore(size: number): Promise<{core: Core; root: string}> {
  const root = writeProject(size)
  const registry = new BackendRegistry()
  registry.register(offlineBackend())
  const {core} = await Core.start({root, env: {}, engine: {mandatory: [], shippedSkills: []}, backends: {registry, cascade: ['offline'], problems: [], timeoutMs: 60_000}})
  // A running core keeps a spare host, started a second after the boot: measure once it is up.
  await new Promise((resolve) => setTimeout(resolve, 2000))
  return {core, root}
}

async function benchLoop(): Promise<void> {
  const {core, root} = await startCore(10)
  for (let k = 0; k < 20; k++) await core.ask('warm up')
  const times: number[] = []
  const started = performance.now()
  for (let k = 0; k < SIGNALS; k++) {
    const begun = performance.now()
    const result = await core.ask(`hello ${k}`)
    times.push(performance.now() - begun)
    if (result.steps[0]?.acted.kind !== 'ran') throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 300)}`)
  }
  const elapsed = performance.now() - started
  // The host's part of one signal, as Reason asks it.
  const turn: number[] = []
  const signal = userInput('hello')
  const context = {signal}
  const proposal = {target: 'cli', action: 'message', args: {text: 'hi'}, explanation: 'a greeting'}
  const pieces = await core.reasoner.systemPieces(signal)
  for (let k = 0; k < SIGNALS; k++) {
    const begun = performance.now()
    await core.engine.prepareTurn(context, pieces, 'hello')
    await core.engine.verify(proposal, context)
    turn.push(performance.now() - begun)
  }
  const bytes = (request: unknown) => Buffer.byteLength(JSON.stringify(request))
  const prepareBytes = bytes({type: 'prepare', id: 1, context, texts: pieces, fallback: 'hello'})
  console.log(`the whole loop, offline backend, 10 skills with a gate and an augment, one with a redact (${SIGNALS} signals, one after another)`)
  console.log(`  ${((SIGNALS * 1000) / elapsed).toFixed(0)} signals/s; each p50 ${ms(percentile(times, 0.5))}  p95 ${ms(percentile(times, 0.95))}`)
  console.log(`  of which the skill host's part, as Reason asks it (prepared turn + gates, 2 round trips)  p50 ${ms(percentile(turn, 0.5))}  p95 ${ms(percentile(turn, 0.95))}`)
  console.log(`  bytes sent before the model is asked: ${prepareBytes} in one request\n`)
  await core.close()
  fs.rmSync(root, {recursive: true, force: true})
}

async function benchVerify(): Promise<void> {
  const {core, root} = await startCore(50)
  const context = {signal: userInput('list the files')}
  const proposal = {target: 'cli', action: 'message', args: {text: 'the files'}, explanation: 'the user asked'}
  const verify: number[] = []
  const engine: number[] = []
  for (let k = 0; k < PROPOSALS; k++) {
    let begun = performance.now()
    const outcome = await core.reasoner.cognitiveVerify(proposal, context)
    verify.push(performance.now() - begun)
    if (outcome.kind !== 'pass' || outcome.trace.length !== 50) throw new Error(`unexpected outcome: ${JSON.stringify(outcome).slice(0, 200)}`)
    begun = performance.now()
    await core.engine.verify(proposal, context)
    engine.push(performance.now() - begun)
  }
  console.log(`cognitiveVerify of one proposal with 50 gates in the skill host (${PROPOSALS} proposals)`)
  console.log(`  cognitiveVerify (core rules + gates)  p50 ${ms(percentile(verify, 0.5))}  p95 ${ms(percentile(verify, 0.95))}  p99 ${ms(percentile(verify, 0.99))}`)
  console.log(`  engine.verify alone (the round trip)  p50 ${ms(percentile(engine, 0.5))}  p95 ${ms(percentile(engine, 0.95))}  p99 ${ms(percentile(engine, 0.99))}\n`)
  await core.close()
  fs.rmSync(root, {recursive: true, force: true})
}

function ms(value: number): string {
  return `${value.toFixed(3)} ms`
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!
}
