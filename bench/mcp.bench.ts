/**
 * `make bench`: an MCP tool call's overhead (generated/core/mcp.ts, tangled from org/core/mcp.org). Two processes of
 * the same real MCP server (generated/core/mcp-test-server.ts, written with the SDK) on stdio, each asked the same
 * `echo` call CALLS times, alternately (each first every other call), in one run:
 *
 * 1. directly, with the SDK's client, as any program would call it: `client.callTool`;
 * 2. through the core: `belt.run('bench-echo', …)`, the path a call takes once the gates let it through (the
 *    parameters held to the server's schema, the belt's deadline, the manager's call with the server's timeout, the
 *    result made into text and bounded).
 *
 * Printed side by side: each one's p50 and p95, and the difference (the core's overhead) beside its goal, p95 under
 * 2 ms. A third line times the core's own part alone, the same path with the server's answer already in hand (the
 * belt's run of a tool that answers as the manager would), so that the difference is not all the noise of two
 * processes. Figures only; asserts nothing.
 */
import path from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {McpServers} from '../generated/core/mcp.ts'
import {defaultTools, foreignTool, ToolBelt, type ToolContext} from '../generated/core/tools.ts'

const CALLS = 2000
/** Calls made first and not counted: the code compiled, the pipes warm. */
const WARM_UP = 200
const SERVER = 'generated/core/mcp-test-server.ts'

const context: ToolContext = {
  root: '/nowhere',
  notes: '/nowhere',
  evaluate: async () => ({ok: false, error: 'no evaluation here'}),
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

const ms = (value: number) => `${value.toFixed(3)} ms`

export async function main(): Promise<number> {
  const home = process.env.PASSEPARTOUT_HOME!
  const args = [path.join(home, 'bin/launch.mjs'), SERVER, 'only=echo']

  const direct = new Client({name: 'bench', version: '1'})
  await direct.connect(new StdioClientTransport({command: process.execPath, args, cwd: home, stderr: 'ignore'}))

  const belt = new ToolBelt(defaultTools())
  const at = {file: path.join(home, 'passepartout.json'), line: 1, column: 1}
  const transport = {kind: 'stdio' as const, command: process.execPath, args, env: {}, passEnv: []}
  const servers = McpServers.start([{name: 'bench', transport, readOnly: true, at}], {
    root: home,
    env: {},
    dotenv: {},
    belt,
    log: () => {},
    version: 'bench',
  })
  const problems = await servers.ready()
  if (problems.length > 0) throw new Error(problems.map((problem) => problem.reason).join('; '))

  // The same path with the answer in hand: what the core adds, without a process on the other end.
  const echo = belt.get('bench-echo')!
  const local = new ToolBelt([])
  local.supply('local', [
    foreignTool({
      name: 'local-echo',
      description: echo.description,
      parameters: echo.parameters,
      highImpact: false,
      origin: {kind: 'mcp', server: 'local'},
      run: async (params) => ({ok: true, output: String(params.text)}),
    }),
  ])

  const times = {direct: [] as number[], core: [] as number[], alone: [] as number[]}
  for (let n = 0; n < WARM_UP + CALLS; n++) {
    const text = `call ${n}`
    const timed = async <T>(call: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now()
      const value = await call()
      return [value, performance.now() - started]
    }
    const directly = () => timed(() => direct.callTool({name: 'echo', arguments: {text}}))
    const throughCore = () => timed(() => belt.run('bench-echo', {text}, context))
    // Each goes first every other call: neither pays for what the other left (a collection, a cold pipe).
    let answered, directMs, ran, coreMs
    if (n % 2 === 0) {
      ;[answered, directMs] = await directly()
      ;[ran, coreMs] = await throughCore()
    } else {
      ;[ran, coreMs] = await throughCore()
      ;[answered, directMs] = await directly()
    }
    const started = performance.now()
    await local.run('local-echo', {text}, context)
    const aloneMs = performance.now() - started
    if (!ran.ok || ran.output !== text || JSON.stringify(answered.content) !== JSON.stringify([{type: 'text', text}]))
      throw new Error(`call ${n} answered ${JSON.stringify(ran)} and ${JSON.stringify(answered)}`)
    if (n < WARM_UP) continue
    times.direct.push(directMs)
    times.core.push(coreMs)
    times.alone.push(aloneMs)
  }
  await direct.close()
  await servers.close()

  const row = (label: string, values: number[]) =>
    `  ${label.padEnd(52)} p50 ${ms(percentile(values, 0.5))}   p95 ${ms(percentile(values, 0.95))}`
  console.log(`\nan MCP tool call (echo, stdio), ${CALLS} calls each, alternately:`)
  console.log(row('the SDK client alone (client.callTool)', times.direct))
  console.log(row('through the core (belt.run to the result)', times.core))
  const p50 = percentile(times.core, 0.5) - percentile(times.direct, 0.5)
  const p95 = percentile(times.core, 0.95) - percentile(times.direct, 0.95)
  console.log(`  the core's overhead                                  p50 ${ms(p50)}   p95 ${ms(p95)}   (goal: p95 under 2 ms)`)
  console.log(row("the core's part alone (the answer in hand)", times.alone))
  return 0
}
