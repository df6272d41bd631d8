/**
 * `make bench`: the agent turn (generated/core/turn.ts, loop.ts, core.ts, tangled from org/core/). A real core on
 * the shipped skills asks, through its real openai backend, a real HTTP server on 127.0.0.1 that plays the model.
 * Printed side by side in one run, each figure beside its goal:
 *
 * 1. the core's own time per step, with a model that answers at once: turns of STEPS steps (the model greps a tiny
 *    notes folder, then answers). A step's wall time runs from the step before it (or the ask) to the turn's `step`
 *    event (the last step: to the ask's answer, the turn's ending written); the core's own time is that minus the
 *    time spent inside the backend's `complete` (the HTTP round trip and the client's work on it, timed around the
 *    real backend). The round trip alone (fetch) is printed beside it, to show what `complete` adds to it. The goal
 *    is judged on the processor time of this process (`process.cpuUsage`, every thread's) taken at the same points,
 *    minus its processor time inside `complete` (the model server of this process answers inside it): under load on
 *    shared CPUs a wall time's p95 is mostly the time the system gave other processes. The skill host's share, in a
 *    process of its own, is read from /proc for all the steps together (its clock counts in 10 ms ticks).
 * 2. ten sessions whose model takes 2 s each, asked at once, against one session's turn alone: the ratio.
 * 3. the time the core adds to the first streamed token: a server of this file streams prose (SSE); from the server
 *    writing the first chunk (its headers sent before, as a model thinks) to the `events` listener's first `text`.
 * 4. context assembly at CONTEXT_TURNS turns in a session (stored by the session store's `append`): `Turn.begin` on
 *    it, which writes the new turn and reads the context; each turn begun adds one, empty, so the session grows by
 *    the rounds measured. Beside it, its two parts alone: a turn begun in another session, the context read. The
 *    goal is judged on this process's processor time, as in part 1; the wall time is printed beside it.
 *
 * Figures only; asserts nothing.
 */
import fs from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {backendSettings} from '../generated/core/backends.ts'
import type {Backend} from '../generated/core/cascade.ts'
import type {ChatMessage} from '../generated/core/conversation.ts'
import {Core} from '../generated/core/core.ts'
import {type ModelAnswer, modelServer, project} from '../generated/core/fixtures.ts'
import {CHARS_PER_TOKEN, Turn, turnLimits} from '../generated/core/turn.ts'
import {cpuOfTree} from './proc-cpu.ts'

/** Steps in a turn of part 1: STEPS - 1 greps, then the answer. */
const STEPS = 4
const STEP_TURNS = 60
/** How long the model of part 2 takes to answer. */
const SLOW_MS = 2000
const SIDE_BY_SIDE = 10
const STREAMS = 60
/** How long the streaming model thinks before its first chunk: its headers have long been read by then. */
const THINK_MS = 20
const CONTEXT_TURNS = 200
const CONTEXT_BEGINS = 200
/** Rounds run first and not counted: the code compiled, the connections open. */
const WARM_UP = 5

type Body = Record<string, unknown>
type Sent = {role: string; content?: string | null}

/** The session a request belongs to, as the system prompt names it. */
const sessionOf = (body: Body) => /turn \d+ of session (\S+)/.exec(String((body.messages as Sent[])[0]!.content))![1]!
const say = (text: string) => JSON.stringify({target: 'cli', action: 'message', args: {text}, explanation: 'answer'})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The scripted model: in a `step-` session it greps STEPS - 1 times (a different word each time), then answers. */
async function play(body: Body): Promise<ModelAnswer> {
  const session = sessionOf(body)
  if (session.startsWith('slow-')) {
    await sleep(SLOW_MS)
    return say('done')
  }
  const sent = body.messages as Sent[]
  const results = sent.length - 1 - sent.findLastIndex((message) => message.role === 'user')
  const greps = Math.floor(results / 2)
  if (greps < STEPS - 1)
    return {toolCalls: [{name: 'grep', arguments: JSON.stringify({pattern: ['one', 'two', 'three'][greps % 3]})}]}
  return say(`${STEPS - 1} greps done`)
}

/** The skill documents this installation ships, by their path in a project (launch.mjs says where it is). */
function shipped(): Record<string, string> {
  const skills = path.join(process.env.PASSEPARTOUT_HOME!, 'org', 'skills')
  const documents = fs.readdirSync(skills).filter((file) => file.endsWith('.org'))
  return Object.fromEntries(
    documents.map((file) => [`org/skills/${file}`, fs.readFileSync(path.join(skills, file), 'utf8')]),
  )
}

/** The times spent inside a backend's `complete`, as they happen: wall time, and this process's processor time. */
interface Timed {
  spent: number[]
  cpu: number[]
}

/** This process's processor time, user and system, in ms: every thread's (the collector's too), the model server's. */
const processor = () => {
  const {user, system} = process.cpuUsage()
  return (user + system) / 1000
}

/** A core on the shipped skills in a fresh project, its openai backend at BASE_URL, timed around `complete`. */
async function startCore(baseURL: string): Promise<{core: Core; root: string; timed: Timed}> {
  const root = project({
    ...shipped(),
    'notes/a.org': '* one\n* two\n',
    'notes/b.org': '* three\n* one more\n',
  })
  const env = {
    PASSEPARTOUT_BACKENDS: 'openai',
    PASSEPARTOUT_MODEL: 'scripted',
    OPENAI_BASE_URL: baseURL,
    PASSEPARTOUT_NOTES: 'notes',
  }
  const backends = backendSettings(root, env)
  const real = backends.registry.get('openai')!
  const timed: Timed = {spent: [], cpu: []}
  const timedBackend: Backend = {
    name: real.name,
    probe: (signal) => real.probe(signal),
    async complete(request) {
      const started = performance.now()
      const busy = processor()
      try {
        return await real.complete(request)
      } finally {
        timed.spent.push(performance.now() - started)
        timed.cpu.push(processor() - busy)
      }
    },
  }
  backends.registry.register(timedBackend)
  const {core} = await Core.start({root, env, engine: {timeoutMs: 5000}, backends})
  return {core, root, timed}
}

export async function main(): Promise<number> {
  console.log(
    `turn benchmark: node ${process.version}; ${os.cpus().length} CPUs; load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}\n`,
  )
  const server = await modelServer([play])
  const {core, root, timed} = await startCore(server.baseURL)
  const verdicts: boolean[] = []
  try {
    verdicts.push(await benchSteps(core, timed, server.baseURL))
    verdicts.push(await benchSideBySide(core))
    verdicts.push(await benchFirstToken())
    verdicts.push(await benchContext(core))
  } finally {
    await core.close()
    await server.close()
    fs.rmSync(root, {recursive: true, force: true})
  }
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
  console.log(`goals met: ${verdicts.filter(Boolean).length} of ${verdicts.length}; load average now ${load}`)
  return 0
}

async function benchSteps(core: Core, timed: Timed, baseURL: string): Promise<boolean> {
  const turn = async (session: string) => {
    const ends: number[] = []
    const busy: number[] = []
    timed.spent.length = 0
    timed.cpu.length = 0
    const started = performance.now()
    const began = processor()
    const result = await core.ask('grep my notes', undefined, {
      session,
      events: (event) => {
        if (event.kind !== 'step') return
        ends.push(performance.now())
        busy.push(processor())
      },
    })
    ends[ends.length - 1] = performance.now()
    busy[busy.length - 1] = processor()
    const steps = result.turn?.steps ?? []
    if (result.turn?.end.kind !== 'answered' || steps.length !== STEPS || timed.spent.length !== STEPS)
      throw new Error(`unexpected turn: ${JSON.stringify(result.turn).slice(0, 400)}`)
    return {
      wall: ends.map((end, n) => end - (n === 0 ? started : ends[n - 1]!) - timed.spent[n]!),
      cpu: busy.map((end, n) => end - (n === 0 ? began : busy[n - 1]!) - timed.cpu[n]!),
    }
  }
  // The first turns load the client and open the connection; the first request learns the server does not stream.
  for (let k = 0; k < WARM_UP; k++) await turn(`step-warm-${k}`)
  const own: number[] = []
  const ownCpu: number[] = []
  const model: number[] = []
  const children = cpuOfTree(process.pid, {self: false})
  for (let k = 0; k < STEP_TURNS; k++) {
    const {wall, cpu} = await turn(`step-${k}`)
    own.push(...wall)
    ownCpu.push(...cpu)
    model.push(...timed.spent)
  }
  const childrenPerStep = (cpuOfTree(process.pid, {self: false}) - children) / own.length
  // The HTTP round trip alone, to the same server: what `complete` costs beyond it is the client's work.
  const trip: number[] = []
  const body = JSON.stringify({
    model: 'scripted',
    messages: [
      {role: 'system', content: 'turn 1 of session step-trip'},
      {role: 'user', content: 'hi'},
    ],
  })
  for (let k = 0; k < STEP_TURNS * STEPS; k++) {
    const started = performance.now()
    await (await fetch(`${baseURL}/chat/completions`, {method: 'POST', body})).json()
    trip.push(performance.now() - started)
  }
  console.log(
    `1. the core's own time per step, model answering at once (${STEP_TURNS} turns of ${STEPS} steps: ${STEPS - 1} greps, then the answer)`,
  )
  const met = percentile(ownCpu, 0.95) < 2
  console.log(`  the core's own time a step, processor  ${spread(ownCpu)}   goal: p95 < 2 ms: ${met ? 'met' : 'not met'}`)
  console.log(`  the same, wall time                    ${spread(own)}   (${loadNow()})`)
  console.log(`  the skill host and the tools' processes beside it: ${ms(childrenPerStep)} a step on average (/proc)`)
  console.log(`  inside the backend's complete      ${spread(model)}   (not counted above)`)
  console.log(`  the HTTP round trip alone (fetch)  ${spread(trip)}\n`)
  return met
}

async function benchSideBySide(core: Core): Promise<boolean> {
  const ask = async (session: string) => {
    const result = await core.ask('take your time', undefined, {session})
    if (result.turn?.end.kind !== 'answered') throw new Error(`unexpected turn: ${JSON.stringify(result.turn)}`)
  }
  let started = performance.now()
  await ask('slow-one')
  const one = performance.now() - started
  started = performance.now()
  await Promise.all(Array.from({length: SIDE_BY_SIDE}, (_, n) => ask(`slow-${n}`)))
  const ten = performance.now() - started
  const met = ten / one < 1.3
  console.log(`2. ${SIDE_BY_SIDE} sessions at once, their model taking ${SLOW_MS / 1000} s to answer each`)
  console.log(`  one session's turn ${ms(one)}; ${SIDE_BY_SIDE} sessions' turns at once ${ms(ten)}`)
  console.log(`  ratio ${(ten / one).toFixed(3)}   goal: < 1.3: ${met ? 'met' : 'not met'}\n`)
  return met
}

async function benchContext(core: Core): Promise<boolean> {
  const store = core.sessions
  const session = 'long'
  const words = 'the notes say that the plan holds, with three steps to go and one to check. '
  let started = performance.now()
  for (let n = 1; n <= CONTEXT_TURNS; n++) {
    const turn = await store.begin(session)
    const messages: ChatMessage[] = [
      {role: 'user', content: `question ${n}: ${words}`},
      {role: 'assistant', content: say(`answer ${n}: ${words.repeat(2)}`)},
    ]
    await store.append(session, turn, messages)
    await store.end(session, turn, 'answered')
  }
  const stored = performance.now() - started
  const limits = turnLimits({})
  // Half the window, as a turn gives the earlier turns of its session.
  const room = limits.contextWindow * CHARS_PER_TOKEN * 0.5
  const begin: number[] = []
  const beginCpu: number[] = []
  const write: number[] = []
  const read: number[] = []
  let shown = 0
  // Each turn begun adds one (empty) to the session: only it, so that the session holds CONTEXT_TURNS and a few.
  for (let k = 0; k < CONTEXT_BEGINS + WARM_UP; k++) {
    started = performance.now()
    const busy = processor()
    const turn = await Turn.begin(store, session, limits)
    const took = performance.now() - started
    const tookCpu = processor() - busy
    shown = turn.messages().length
    await turn.finish({kind: 'cancelled', reason: 'measured'})
    started = performance.now()
    const number = await store.begin('scratch')
    const wrote = performance.now() - started
    await store.end('scratch', number, 'cancelled', 'measured')
    started = performance.now()
    await store.context(session, room)
    const readIn = performance.now() - started
    if (k < WARM_UP) continue
    begin.push(took)
    beginCpu.push(tookCpu)
    write.push(wrote)
    read.push(readIn)
  }
  const met = percentile(beginCpu, 0.95) < 2
  console.log(
    `4. context assembly in a session of ${CONTEXT_TURNS} to ${CONTEXT_TURNS + CONTEXT_BEGINS + WARM_UP} turns (${CONTEXT_BEGINS} turns begun; ${shown} messages fit the context window; ${CONTEXT_TURNS} turns stored in ${ms(stored)})`,
  )
  console.log(`  Turn.begin (context read), processor  ${spread(beginCpu)}   goal: p95 < 2 ms: ${met ? 'met' : 'not met'}`)
  console.log(`  the same, wall time                   ${spread(begin)}   (${loadNow()})`)
  console.log(`    its new turn written alone       ${spread(write)}`)
  console.log(`    its context read alone           ${spread(read)}\n`)
  return met
}

/** A chat-completions server that streams prose; `firstChunk` holds when it wrote each reply's first chunk. */
async function streamingServer() {
  const written: number[] = []
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`
  const words = [' notes', ' hold', ' three', ' lines', ' of', ' PLUMBUS.']
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', async () => {
      response.writeHead(200, {'content-type': 'text/event-stream'})
      response.flushHeaders()
      await sleep(THINK_MS)
      written.push(performance.now())
      response.write(chunk({role: 'assistant', content: 'Your'}))
      await sleep(2)
      response.write(words.map((word) => chunk({content: word})).join(''))
      response.write(chunk({}, 'stop'))
      response.end(
        `data: ${JSON.stringify({choices: [], usage: {prompt_tokens: 10, completion_tokens: 7}})}\n\ndata: [DONE]\n\n`,
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function benchFirstToken(): Promise<boolean> {
  const server = await streamingServer()
  const {core, root} = await startCore(server.baseURL)
  const added: number[] = []
  try {
    for (let k = 0; k < STREAMS + WARM_UP; k++) {
      let heard: number | undefined
      const result = await core.ask('what do my notes hold?', undefined, {
        session: `stream-${k}`,
        events: (event) => {
          if (event.kind === 'text') heard ??= performance.now()
        },
      })
      if (heard === undefined || result.turn?.end.kind === 'failed')
        throw new Error(`no text heard: ${JSON.stringify(result.turn).slice(0, 400)}`)
      if (k >= WARM_UP) added.push(heard - server.written.at(-1)!)
    }
  } finally {
    await core.close()
    await server.close()
    fs.rmSync(root, {recursive: true, force: true})
  }
  const met = percentile(added, 0.95) < 5
  console.log(`3. the time the core adds to the first streamed token (${STREAMS} streamed replies)`)
  console.log(
    `  first chunk written → first text event  ${spread(added)}   goal: p95 < 5 ms: ${met ? 'met' : 'not met'}\n`,
  )
  return met
}

/**
 * The load the wall times were taken under: on a machine shared with other work, a wall time's p95 is mostly the time
 * the system gave other processes (a 0.1 ms step preempted for a time slice), which the processor time does not count.
 */
function loadNow(): string {
  return `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; the goal is judged on the processor time`
}

function spread(values: number[]): string {
  return `p50 ${ms(percentile(values, 0.5))}  p95 ${ms(percentile(values, 0.95))}`
}

function ms(value: number): string {
  return `${value.toFixed(3)} ms`
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!
}
