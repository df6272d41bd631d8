/**
 * `make bench` (or `node bin/launch.mjs bench/host-trips.bench.ts` alone): what a turn costs the skill host (generated/core/engine.ts,
 * reason.ts, host-runtime.ts, tangled from org/core/). A real core on the shipped skills and one skill that defines a
 * tool, in a fresh project, asks a real HTTP server on 127.0.0.1 that plays the model (fixtures.ts), through its real
 * openai backend. For three kinds of turn (a plain answer; a tool of the core's, grep; a tool of the skill's), it
 * prints the requests one turn sends to the skill host with the characters of each (the request as JSON, and its
 * result), then the CPU a turn takes, in the core's process and in the host's, over TURNS turns (200 unless the
 * environment says otherwise). NOTES objects in memory (none unless the environment says) fill the CONTEXT section
 * of every prompt. Figures only; asserts nothing. Run it on two builds one after the other, several times, to compare
 * them: the machine's load moves the CPU figures, not the counts.
 */
import fs from 'node:fs'
import path from 'node:path'
import {backendSettings} from '../generated/core/backends.ts'
import {Core} from '../generated/core/core.ts'
import {type ModelAnswer, modelServer, project} from '../generated/core/fixtures.ts'
import {SkillHost} from '../generated/core/skill-host.ts'

/** The requests sent to the host, as they were answered: their type, and the characters of each way. */
const trips: {type: string; out: number; back: number}[] = []

/** Every request the core sends to the host, measured as it goes and as its result comes back. */
function measureRequests(): void {
  const request = SkillHost.prototype.request
  SkillHost.prototype.request = async function (this: SkillHost, sent) {
    const out = JSON.stringify(sent).length
    const value = await request.call(this, sent)
    trips.push({type: sent.type, out, back: JSON.stringify(value ?? null).length})
    return value
  } as typeof request
}

const say = (text: string) => JSON.stringify({target: 'cli', action: 'message', args: {text}, explanation: 'answer'})
const TOOLS: Record<string, string> = {tool: 'grep', skill: 'trips-visit'}

/** The scripted model: in a session `KIND-N`, a plain answer, or one call of KIND's tool and then the answer. */
function play(body: Record<string, unknown>): ModelAnswer {
  const messages = body.messages as {role: string; content: string}[]
  const kind = /turn \d+ of session ([a-z]+)-/.exec(String(messages[0]!.content))![1]!
  if (kind === 'plain' || messages.at(-1)!.role === 'tool') return say('done')
  return {
    toolCalls: [{name: TOOLS[kind]!, arguments: JSON.stringify(kind === 'tool' ? {pattern: 'one'} : {city: 'Oslo'})}],
  }
}

/** The skill documents this installation ships, by their path in a project (launch.mjs says where it is). */
function shipped(): Record<string, string> {
  const skills = path.join(process.env.PASSEPARTOUT_HOME!, 'org', 'skills')
  const documents = fs.readdirSync(skills).filter((file) => file.endsWith('.org'))
  return Object.fromEntries(
    documents.map((file) => [`org/skills/${file}`, fs.readFileSync(path.join(skills, file), 'utf8')]),
  )
}

const trippy = [
  '#+TITLE: trips',
  '',
  '#+begin_src typescript :tangle ../../generated/skills/trips.ts :mkdirp yes',
  "import {defineSkill, defineTool} from 'passepartout'",
  "import {z} from 'zod'",
  "defineSkill({name: 'trips', trigger: () => false})",
  "defineTool({name: 'trips-visit', description: 'Visits a city.', params: z.object({city: z.string()}),",
  '  run: ({city}) => `visited ${city}`})',
  '#+end_src',
  '',
].join('\n')

/** CPU time (ms) the process PID used so far, as /proc says: user and system, in clock ticks of 10 ms. */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

export async function main(): Promise<number> {
  measureRequests()
  const server = await modelServer([play])
  const root = project({...shipped(), 'org/skills/trips.org': trippy, 'notes/a.org': '* one\n* two\n'})
  fs.symlinkSync(path.join(process.env.PASSEPARTOUT_HOME!, 'node_modules'), path.join(root, 'node_modules'))
  const env = {
    PASSEPARTOUT_BACKENDS: 'openai',
    PASSEPARTOUT_MODEL: 'scripted',
    OPENAI_BASE_URL: server.baseURL,
    PASSEPARTOUT_NOTES: 'notes',
  }
  const {core} = await Core.start({root, env, engine: {timeoutMs: 5000}, backends: backendSettings(root, env)})
  const turns = Number(process.env.TURNS ?? 200)
  // What memory keeps, which every turn's CONTEXT shows: none unless the environment asks for NOTES objects.
  const notes = Array.from({length: Number(process.env.NOTES ?? 0)}, (_, n) => ({
    id: `note-${n}`,
    type: 'note',
    content: `the person likes item ${n} of the list, kept for a while`,
  }))
  await core.memory.putMany(notes)
  try {
    for (const kind of ['plain', 'tool', 'skill']) {
      for (let k = 0; k < 5; k++) await core.ask('go', undefined, {session: `${kind}-warm${k}`})
      trips.length = 0
      const result = await core.ask('go', undefined, {session: `${kind}-0`})
      if (result.turn?.end.kind !== 'answered') throw new Error(JSON.stringify(result.turn).slice(0, 300))
      const bytes = trips.reduce((sum, trip) => sum + trip.out + trip.back, 0)
      console.log(`${kind}: ${result.turn.steps.length} steps, ${trips.length} round trips, ${bytes} characters`)
      for (const trip of trips) console.log(`  ${trip.type.padEnd(8)} out ${trip.out}, back ${trip.back}`)
      const host = core.engine.hostPid!
      const [ownBefore, hostBefore] = [process.cpuUsage(), cpuOf(host)]
      for (let k = 1; k <= turns; k++) await core.ask('go', undefined, {session: `${kind}-${k}`})
      const own = process.cpuUsage(ownBefore)
      const [core_, host_] = [(own.user + own.system) / 1000 / turns, (cpuOf(host) - hostBefore) / turns]
      console.log(`  CPU a turn over ${turns}: core ${core_.toFixed(2)} ms, host ${host_.toFixed(2)} ms`)
    }
  } finally {
    await core.close()
    await server.close()
    fs.rmSync(root, {recursive: true, force: true})
  }
  return 0
}
