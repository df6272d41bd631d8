/**
 * `make bench`: reading a model's stream (generated/core/openai-backend.ts, tangled from org/core/openai-backend.org).
 * A server on 127.0.0.1 streams a reply of CHUNKS pieces of prose as fast as it can; printed side by side,
 * interleaved, in one run:
 *
 * - the body read and thrown away (fetch alone: what any reader pays for the transport);
 * - the openai backend's `complete`, its prose given to a listener (our reader: events, chunks checked, the reply
 *   assembled);
 * - the official client's own `Stream` over the same body, the content put together.
 *
 * Each as microseconds per chunk (the whole read divided by CHUNKS), p50 of ROUNDS rounds. Figures only; asserts
 * nothing.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import os from 'node:os'
import OpenAI from 'openai'
import {openaiBackend} from '../generated/core/openai-backend.ts'

const CHUNKS = 20_000
const ROUNDS = 7

/** The whole stream, written once: CHUNKS chunks of four characters, the end, the usage, [DONE]. */
function body(): string {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`
  const pieces = [chunk({role: 'assistant', content: ''})]
  for (let n = 0; n < CHUNKS; n++) pieces.push(chunk({content: ' abc'}))
  pieces.push(chunk({}, 'stop'))
  pieces.push(
    `data: ${JSON.stringify({choices: [], usage: {prompt_tokens: 10, completion_tokens: CHUNKS}})}\n\n`,
    'data: [DONE]\n\n',
  )
  return pieces.join('')
}

export async function main(): Promise<number> {
  console.log(
    `stream benchmark: node ${process.version}; ${os.cpus().length} CPUs; ${CHUNKS} chunks a reply, ${ROUNDS} rounds\n`,
  )
  const text = body()
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, {'content-type': 'text/event-stream'})
      response.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  const request = {system: 's', messages: [{role: 'user' as const, content: 'hi'}], hints: {gates: []}}
  const backend = openaiBackend({baseURL, model: 'm', maxRetries: 0})
  const client = new OpenAI({baseURL, apiKey: 'none', maxRetries: 0})
  const ways: Record<string, () => Promise<number>> = {
    'fetch, body thrown away': async () => {
      const response = await fetch(`${baseURL}/chat/completions`, {method: 'POST', body: '{}'})
      return (await response.arrayBuffer()).byteLength
    },
    'openai backend (ours)': async () => {
      let heard = 0
      const reply = await backend.complete({
        ...request,
        onText: (delta) => (heard += delta.length),
        signal: new AbortController().signal,
      })
      return reply.kind === 'text' ? reply.text.length + heard : 0
    },
    "the client's Stream": async () => {
      let said = ''
      const chunks = await client.chat.completions.create({
        model: 'm',
        messages: [{role: 'user', content: 'hi'}],
        stream: true,
      })
      for await (const chunk of chunks) said += chunk.choices[0]?.delta.content ?? ''
      return said.length
    },
  }
  const times = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]))
  for (const way of Object.values(ways)) await way() // warm up: the client loaded, the connections open
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, way] of Object.entries(ways)) {
      const started = performance.now()
      if ((await way()) === 0) throw new Error(`${name} read nothing`)
      times.get(name)!.push(((performance.now() - started) * 1000) / CHUNKS)
    }
  for (const [name, values] of times) {
    values.sort((a, b) => a - b)
    console.log(
      `  ${name.padEnd(26)} p50 ${values[Math.floor(values.length / 2)]!.toFixed(2)} µs a chunk  (min ${values[0]!.toFixed(2)}, max ${values.at(-1)!.toFixed(2)})`,
    )
  }
  server.close()
  return 0
}
