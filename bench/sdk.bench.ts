/**
 * `make bench`: a tool turn (a message, the model's call of a tool, the tool's result, the model's answer) beside the
 * agent SDKs. The same zero-latency model server (a process of this file: a chat-completions server on 127.0.0.1 that
 * calls `grep` first and answers in prose once it has a tool's result, streaming when asked to) and the same tool
 * (grep over a notes folder of two files) for everyone; the contenders take their turns in rounds, interleaved, in one
 * run, and each figure is the CPU (user and system) of a turn: this process (process.cpuUsage) and its children but the
 * model server (/proc), the median of the rounds:
 *
 * - ours in process, streamed: a Core on the shipped skills (as bench/turn.bench.ts boots it), its openai backend;
 * - ours through the daemon, streamed: a running core (`passepartout run --no-watch`) and a client on its socket,
 *   asking for the turn's events;
 * - the OpenAI Agents SDK (@openai/agents, its chat-completions model), streamed and not;
 * - the Vercel AI SDK (ai, @ai-sdk/openai's chat model), streamed and not;
 * - the floor: two raw fetch calls and the tool run between them.
 *
 * What a turn of ours does that theirs does not, and why it must: it persists the turn (the session's turn begun,
 * each step's messages and the turn's end, in SQLite: a turn a crash cuts is resumed or said, and a session's next turn
 * reads its context from there, in this process or the next), asks the skills' gates about the tool call before it
 * runs (in the skill host, a process of its own: a skill's code never runs in the core), and redacts what the model is
 * sent and what a person reads. The SDKs persist nothing and gate nothing; the goals below ask that we be as light
 * all the same. The core's own time a step (goal p95 < 2 ms) is in bench/turn.bench.ts, the daemon against an echo
 * daemon (goal within 5x) in bench/daemon.bench.ts.
 *
 * Figures only; asserts nothing.
 */
import {type ChildProcess, spawn} from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {createOpenAI} from '@ai-sdk/openai'
import {Agent, OpenAIProvider, Runner, setTracingDisabled, tool as agentTool} from '@openai/agents'
import {generateText, jsonSchema, stepCountIs, streamText, tool as aiTool} from 'ai'
import {z} from 'zod'
import {CoreClient} from '../generated/core/client.ts'
import {Core} from '../generated/core/core.ts'
import {cpuOfTree} from './proc-cpu.ts'
import {shippedProject} from './shipped-project.ts'

const repo = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..')
const ROUNDS = 7
const TURNS = 30
/** Turns of each contender run first and not counted: the code compiled, the connections open. */
const WARM_UP = 10
const PROMPT = 'which of my notes say one?'
const ANSWER = ['Two', ' of', ' your', ' notes', ' say', ' one.']
const NOTES = {'notes/a.org': '* one\n* two\n', 'notes/b.org': '* three\n* one more\n'}
const GREP = {
  name: 'grep',
  description: 'Search the notes for lines matching a pattern.',
  parameters: {
    type: 'object',
    properties: {pattern: {type: 'string', description: 'A regular expression.'}},
    required: ['pattern'],
    additionalProperties: false,
  },
} as const

export async function main(args: string[]): Promise<number> {
  if (args[0] === '--model') return modelChild()
  setTracingDisabled(true)
  console.log(`agent SDK benchmark: node ${process.version}; ${os.cpus().length} CPUs; load average ${load()}\n`)
  const model = await startModel()
  const root = shippedProject(repo, 'pp-sdk-bench-')
  for (const [file, text] of Object.entries(NOTES)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), {recursive: true})
    fs.writeFileSync(path.join(root, file), text)
  }
  const env = {
    PASSEPARTOUT_BACKENDS: 'openai',
    PASSEPARTOUT_MODEL: 'scripted',
    OPENAI_BASE_URL: model.baseURL,
    PASSEPARTOUT_NOTES: 'notes',
  }
  const {core} = await Core.start({root, env})
  const daemon = await startDaemon(root, env)
  try {
    const contenders = [
      {name: 'ours in process, streamed', turn: oursInProcess(core)},
      {name: 'ours through the daemon, streamed', turn: oursThroughDaemon(daemon.client)},
      ...agentsSdk(model.baseURL, root),
      ...aiSdk(model.baseURL, root),
      {name: 'the floor: two raw fetch calls', turn: floor(model.baseURL, root)},
    ]
    const figures = await measure(contenders, model.pid)
    report(figures)
  } finally {
    daemon.client.close()
    await stop(daemon.process)
    await core.close()
    await stop(model.process)
    fs.rmSync(root, {recursive: true, force: true})
  }
  console.log(`load average now ${load()}`)
  return 0
}

type Contender = {name: string; turn: (n: number) => Promise<void>}

/** Each contender's CPU a turn, in ms, in each round; the contenders interleaved, a round at a time. */
async function measure(contenders: Contender[], modelPid: number): Promise<Map<string, number[]>> {
  const figures = new Map(contenders.map((contender) => [contender.name, [] as number[]]))
  let n = 0
  for (const contender of contenders) for (let k = 0; k < WARM_UP; k++) await contender.turn(n++)
  for (let round = 0; round < ROUNDS; round++)
    for (const contender of contenders) {
      const before = cpuMs(modelPid)
      for (let k = 0; k < TURNS; k++) await contender.turn(n++)
      figures.get(contender.name)!.push((cpuMs(modelPid) - before) / TURNS)
    }
  return figures
}

function report(figures: Map<string, number[]>): void {
  const median = (name: string) => quantile(figures.get(name)!, 0.5)
  const floorMs = median('the floor: two raw fetch calls')
  const agents = median('the Agents SDK, streamed')
  const goals: Record<string, (ms: number) => string> = {
    'ours in process, streamed': (ms) =>
      `goal: at or under the Agents SDK streamed: ${ms <= agents ? 'met' : 'not met'}`,
    'ours through the daemon, streamed': (ms) =>
      `goal: within 1.3x the Agents SDK streamed (${(ms / agents).toFixed(2)}x): ${ms <= 1.3 * agents ? 'met' : 'not met'}`,
    'the Vercel AI SDK, streamed': (ms) =>
      `the mark to pass next: ours in process ${(median('ours in process, streamed') / ms).toFixed(2)}x it`,
  }
  console.log(
    `CPU of a tool turn (message → tool call → result → answer), median of ${ROUNDS} rounds of ${TURNS} turns`,
  )
  for (const [name, rounds] of figures) {
    const ms = median(name)
    const spread = `${quantile(rounds, 0).toFixed(2)}–${quantile(rounds, 1).toFixed(2)}`
    const goal = goals[name]?.(ms) ?? ''
    console.log(
      `  ${name.padEnd(36)} ${ms.toFixed(2).padStart(6)} ms  (${spread}; ${(ms / floorMs).toFixed(1)}x the floor)   ${goal}`,
    )
  }
  console.log('')
}

/** Our turn in process, its text heard as it streams. */
function oursInProcess(core: Core): Contender['turn'] {
  return async (n) => {
    let heard = ''
    const result = await core.ask(PROMPT, undefined, {
      session: `in-process-${n}`,
      events: (event) => {
        if (event.kind === 'text') heard += event.text
      },
    })
    // Two steps: the tool's call and run, then the answer.
    if (result.turn?.end.kind !== 'answered' || result.turn.steps.length !== 2)
      throw new Error(`ours in process: not a tool turn: ${JSON.stringify(result.turn).slice(0, 400)}`)
    expectAnswer('ours in process', heard)
  }
}

/** Our turn through the daemon: a `send` that asks for its events, the text heard as it streams. */
function oursThroughDaemon(client: CoreClient): Contender['turn'] {
  return async (n) => {
    let heard = ''
    await client.request(
      {action: 'send', text: PROMPT, events: true},
      {
        meta: {session: `daemon-${n}`},
        onEvent: (event) => {
          if (event.payload.sensor === 'text') heard += event.payload.text ?? ''
        },
      },
    )
    expectAnswer('ours through the daemon', heard)
  }
}

/** The Agents SDK's turn, on its chat-completions model, streamed and not. */
function agentsSdk(baseURL: string, root: string): Contender[] {
  const runner = new Runner({modelProvider: new OpenAIProvider({baseURL, apiKey: 'none', useResponses: false})})
  const grep = agentTool({
    name: GREP.name,
    description: GREP.description,
    parameters: z.object({pattern: z.string()}),
    execute: ({pattern}) => grepNotes(root, pattern),
  })
  const agent = new Agent({
    name: 'notes',
    instructions: 'You answer questions about the notes.',
    model: 'scripted',
    tools: [grep],
  })
  return [
    {
      name: 'the Agents SDK, streamed',
      turn: async () => {
        const result = await runner.run(agent, PROMPT, {stream: true})
        let heard = ''
        for await (const text of result.toTextStream()) heard += text
        await result.completed
        expectAnswer('the Agents SDK, streamed', heard)
      },
    },
    {
      name: 'the Agents SDK, not streamed',
      turn: async () => expectAnswer('the Agents SDK', String((await runner.run(agent, PROMPT)).finalOutput)),
    },
  ]
}

/** The Vercel AI SDK's turn, on @ai-sdk/openai's chat model, streamed and not. */
function aiSdk(baseURL: string, root: string): Contender[] {
  const model = createOpenAI({baseURL, apiKey: 'none'}).chat('scripted')
  const tools = {
    grep: aiTool({
      description: GREP.description,
      inputSchema: jsonSchema<{pattern: string}>(GREP.parameters),
      execute: async ({pattern}) => grepNotes(root, pattern),
    }),
  }
  const options = {
    model,
    tools,
    stopWhen: stepCountIs(5),
    system: 'You answer questions about the notes.',
    prompt: PROMPT,
  }
  return [
    {
      name: 'the Vercel AI SDK, streamed',
      turn: async () => {
        const result = streamText(options)
        let heard = ''
        for await (const text of result.textStream) heard += text
        expectAnswer('the Vercel AI SDK, streamed', heard)
      },
    },
    {
      name: 'the Vercel AI SDK, not streamed',
      turn: async () => expectAnswer('the Vercel AI SDK', (await generateText(options)).text),
    },
  ]
}

/** The least a tool turn can cost: the request, the tool, the request with its result, each answer parsed. */
function floor(baseURL: string, root: string): Contender['turn'] {
  const tools = [{type: 'function', function: GREP}]
  const ask = async (messages: object[]) => {
    const body = JSON.stringify({model: 'scripted', messages, tools})
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: {'content-type': 'application/json', authorization: 'Bearer none'},
      body,
    })
    return ((await response.json()) as {choices: {message: {content: string | null; tool_calls?: WireCall[]}}[]})
      .choices[0]!.message
  }
  return async () => {
    const messages: object[] = [
      {role: 'system', content: 'You answer questions about the notes.'},
      {role: 'user', content: PROMPT},
    ]
    const called = await ask(messages)
    const call = called.tool_calls![0]!
    const {pattern} = JSON.parse(call.function.arguments) as {pattern: string}
    messages.push(called, {role: 'tool', tool_call_id: call.id, content: await grepNotes(root, pattern)})
    expectAnswer('the floor', (await ask(messages)).content ?? '')
  }
}

type WireCall = {id: string; type: 'function'; function: {name: string; arguments: string}}

/** The tool the SDKs and the floor are given: the lines of the notes that match PATTERN, as `file:line: text`. */
async function grepNotes(root: string, pattern: string): Promise<string> {
  const matcher = new RegExp(pattern)
  const lines = Object.keys(NOTES).flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, n) => (matcher.test(text) ? [`${file}:${n + 1}: ${text}`] : [])),
  )
  return lines.join('\n')
}

function expectAnswer(who: string, heard: string): void {
  if (heard.trim() !== ANSWER.join(''))
    throw new Error(`${who} did not answer as the model did: ${JSON.stringify(heard)}`)
}

/** A running core on ROOT with ENV, and a client on its socket. */
async function startDaemon(
  root: string,
  env: Record<string, string>,
): Promise<{process: ChildProcess; client: CoreClient}> {
  const child = spawn(path.join(repo, 'bin/passepartout'), ['run', '--no-watch'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {...process.env, ...env},
  })
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const deadline = Date.now() + 120_000
  while (!out.includes('talk to it') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  if (!out.includes('talk to it')) throw new Error(`the core did not start: ${out}`)
  return {process: child, client: await CoreClient.connect(root)}
}

/** The model server, in a process of its own: its CPU is no contender's. */
async function startModel(): Promise<{process: ChildProcess; pid: number; baseURL: string}> {
  const child = spawn(process.execPath, [path.join(repo, 'bin/launch.mjs'), 'bench/sdk.bench.ts', '--model'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolve(out.split('\n')[0]!)
    })
    child.once('exit', (code) => reject(new Error(`the model server exited (${code}): ${out}`)))
  })
  return {process: child, pid: child.pid!, baseURL: (JSON.parse(line) as {baseURL: string}).baseURL}
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

type Sent = {role: string; content?: string | null; tool_calls?: unknown[]}

/**
 * The scripted model: a conversation with no tool's result yet gets a call of grep; one with a result gets the answer
 * in prose. Asked to stream, it streams both as OpenAI does (the call's id and name, then its arguments in pieces; the
 * prose a word a chunk; the usage last when asked for); else a whole completion.
 */
async function modelChild(): Promise<number> {
  const server = http.createServer((request, response) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (text += chunk))
    request.on('end', () => {
      if (request.url?.endsWith('/models')) return whole(response, {object: 'list', data: [{id: 'scripted'}]})
      const body = JSON.parse(text) as {messages: Sent[]; stream?: boolean}
      const answered = body.messages.some((message) => message.role === 'tool')
      const call = {id: `call-${body.messages.length}`, name: 'grep', arguments: '{"pattern":"one"}'}
      if (body.stream) return streamed(response, answered ? undefined : call)
      const message = answered
        ? {role: 'assistant', content: ANSWER.join('')}
        : {
            role: 'assistant',
            content: null,
            tool_calls: [{id: call.id, type: 'function', function: {name: call.name, arguments: call.arguments}}],
          }
      whole(response, {
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'scripted',
        choices: [{index: 0, finish_reason: answered ? 'stop' : 'tool_calls', message}],
        usage: USAGE,
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  process.stdout.write(
    `${JSON.stringify({baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`})}\n`,
  )
  await new Promise((resolve) => process.once('SIGTERM', resolve))
  server.closeAllConnections()
  server.close()
  return 0
}

const USAGE = {prompt_tokens: 120, completion_tokens: 8, total_tokens: 128}

function whole(response: http.ServerResponse, body: unknown): void {
  response.writeHead(200, {'content-type': 'application/json'})
  response.end(JSON.stringify(body))
}

function streamed(
  response: http.ServerResponse,
  call: {id: string; name: string; arguments: string} | undefined,
): void {
  const chunk = (delta: object | undefined, finish: string | null = null, usage?: object) =>
    `data: ${JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: delta ? [{index: 0, delta, finish_reason: finish}] : [], ...(usage ? {usage} : {})})}\n\n`
  const events = call
    ? [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{index: 0, id: call.id, type: 'function', function: {name: call.name, arguments: ''}}],
        }),
        chunk({tool_calls: [{index: 0, function: {arguments: call.arguments.slice(0, 8)}}]}),
        chunk({tool_calls: [{index: 0, function: {arguments: call.arguments.slice(8)}}]}),
        chunk({}, 'tool_calls'),
      ]
    : [chunk({role: 'assistant', content: ''}), ...ANSWER.map((word) => chunk({content: word})), chunk({}, 'stop')]
  response.writeHead(200, {'content-type': 'text/event-stream'})
  response.end([...events, chunk(undefined, null, USAGE), 'data: [DONE]\n\n'].join(''))
}

/**
 * The CPU (user and system, µs → ms) of this process and its descendants but EXCLUDED's, so far, those that ended
 * included: a type checker's process that leaves while the contenders take their turns (5 s after it judged the
 * skills) took its time out of the tree, and a round's figure went below zero.
 */
function cpuMs(excluded: number): number {
  const children = cpuOfTree(process.pid, {self: 'reaped', excluded, reaped: true})
  const own = process.cpuUsage()
  return (own.user + own.system) / 1000 + children
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
