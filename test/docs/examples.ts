/**
 * What each example of the documentation needs besides what it shows: its project, and the steps its prose
 * says happened between its commands (a server stopped, a document saved). One entry an example, named as its
 * marker names it (`<!-- example: providers -->`); examples.test.ts runs them.
 */
import fs from 'node:fs'
import path from 'node:path'
import {createClient} from '@libsql/client'
import type {ModelAnswer} from '../../generated/core/fixtures.ts'
import {DocProject, exampleZone, repo, type Started} from './doc-project.ts'

type Step = (project: DocProject) => Promise<void>

export interface Example {
  /** The project before anything the example shows. */
  project(): Promise<DocProject>
  /** What the prose says happened before the Nth transcript of the example (0-based). */
  before?: Record<number, Step>
  /** Around a command, by its text as shown: what the prose says happened just before or after it. */
  around?: Record<string, {before?: Step; after?: Step}>
  /** The commands that do not end by themselves (a core, a chat), by their text as shown: what they printed. */
  commands?: Record<string, (project: DocProject) => Promise<string>>
  /** The transcripts (0-based) held to what was printed once every other step ran (lines that came later). */
  deferred?: number[]
  /** The output each excerpt (printed lines shown without their command, 0-based) is found in. */
  excerpts?: Record<number, (project: DocProject) => Promise<string>>
}

/** A document of BLOCKS, each `[header arguments, lines]`. */
const orgDocument = (title: string, blocks: [string, string[]][]) =>
  [
    `#+TITLE: ${title}`,
    ...blocks.flatMap(([header, lines]) => [`#+begin_src typescript ${header}`, ...lines, '#+end_src']),
  ]
    .join('\n')
    .concat('\n')

/** Notes of three blocks, the last two a noweb reference and the block it names, all tangled to TARGET. */
const notes = (target: string) =>
  orgDocument('Notes', [
    [`:tangle ../generated/${target} :mkdirp yes`, ['export const one = 1']],
    [`:tangle ../generated/${target} :noweb yes`, ['<<two>>']],
    [':noweb-ref two', ['export const two: number = 2']],
  ])

/** The last message of a chat completion's BODY. */
const lastMessage = (body: Record<string, unknown>) =>
  (body.messages as {role: string; content: string | null}[]).at(-1)!

/**
 * A model that calls the weather tool when asked about the weather, and says what the tool answered: the script
 * on 127.0.0.1 the prose names.
 */
const weatherModel = (body: Record<string, unknown>): ModelAnswer => {
  const last = lastMessage(body)
  if (last.role === 'tool') return `Here is what the tool said: ${last.content}`
  if (/weather/.test(last.content ?? '')) return {toolCalls: [{name: 'weather-forecast', arguments: '{"city":"Oslo"}'}]}
  return 'I only know the weather.'
}

/** The project's .env: the model of the server shown at SHOWN first, the offline backend behind it. */
const dotenvFor = (shown: string) =>
  `PASSEPARTOUT_BACKENDS=openai,offline\nOPENAI_BASE_URL=${shown}\nPASSEPARTOUT_MODEL=scripted\n`

/** PROJECT's core, started as `passepartout run`, once it says how to talk to it. */
async function runningCore(project: DocProject, args = '') {
  const core = project.start(`passepartout run ${args}`.trim())
  await core.until(/^talk to it/m)
  return core
}

/** COMMAND started on a terminal, as a person runs it (without colour): what a terminal shows is read as lines. */
const onATerminal = (project: DocProject, command: string) =>
  project.start(`script -qfec '${command}' /dev/null`, {NO_COLOR: '1'})

/** What a terminal showed, its lines ended as a file's. */
const shownBy = (terminal: Started) => terminal.output().replaceAll('\r\n', '\n')

/**
 * The schedules of PROJECT's memory as if its core had been down since a minute before the last 23:55 of the zone
 * its commands run in: one run of a schedule of `cron 55 23 * * *` (the scribe's) was due meanwhile.
 */
async function downSinceBeforeMidnight(project: DocProject): Promise<void> {
  // The zone's time of day, read as UTC's: the zone is a whole number of hours from UTC.
  const local = new Date(Date.now() + exampleZone.aheadMs)
  const lastDueThere = new Date(local)
  lastDueThere.setUTCHours(23, 55, 0, 0)
  if (lastDueThere > local) lastDueThere.setUTCDate(lastDueThere.getUTCDate() - 1)
  const lastDue = new Date(lastDueThere.getTime() - exampleZone.aheadMs)
  const client = createClient({url: `file:${path.join(project.dir, '.passepartout/memory.db')}`})
  const armed = new Date(lastDue.getTime() - 60_000).toISOString()
  await client.execute({sql: 'UPDATE schedule_runs SET armed = ?, handled = NULL', args: [armed]})
  client.close()
}

/** A weather skill whose act runs on SCHEDULE, and proposes nothing. */
const scheduledWeather = (schedule: string) =>
  orgDocument('Weather', [
    [
      ':tangle ../../generated/skills/weather.ts :mkdirp yes',
      [
        "import {defineSkill} from 'passepartout'",
        '',
        `defineSkill({name: 'weather', trigger: () => false, schedule: ${schedule}, act: () => undefined})`,
      ],
    ],
  ])

/** A weather skill that says a forecast to the session `demo` every 5 seconds, numbered. */
const forecasts = orgDocument('Weather', [
  [
    ':tangle ../../generated/skills/weather.ts :mkdirp yes',
    [
      "import {defineSkill, notify} from 'passepartout'",
      '',
      'let forecast = 0',
      'defineSkill({',
      "  name: 'weather',",
      '  trigger: () => false,',
      "  schedule: {every: '5s'},",
      "  act: async () => void (await notify(`forecast number ${++forecast}: rainy in Oslo`, {session: 'demo'})),",
      '})',
    ],
  ],
])

const LOCAL = 'http://127.0.0.1:11434/v1'
const OTHER = 'http://127.0.0.1:11435/v1'
const HOSTED = 'http://127.0.0.1:8081/v1'

/** A model server that says who answered (NAME), with which model, and what it heard: the script the prose names. */
const sayingWho =
  (name: string) =>
  (body: Record<string, unknown>): ModelAnswer =>
    `${name} (${String(body.model)}) heard: ${lastMessage(body).content}`

/** The providers of the first example: a local model first, a hosted one when it is down. */
const localThenHosted = `{
  "providers": {
    "local": {"baseURL": "${LOCAL}", "model": "llama3.2", "contextWindow": 32768},
    "hosted": {"baseURL": "${HOSTED}", "model": "meta-llama/llama-3.1-70b-instruct", "apiKeyEnv": "HOSTED_API_KEY"},
  },
  "cascade": ["local", "hosted", "offline"],
}
`

/** A project of the shipped skills shown at ROOT, with the servers local and hosted saying who answered. */
async function withLocalAndHosted(root: string): Promise<DocProject> {
  const project = new DocProject(root)
  await project.server(LOCAL, [sayingWho('local')])
  await project.server(HOSTED, [sayingWho('hosted')])
  project.write('.env', 'HOSTED_API_KEY=sk-hosted\n')
  return project
}

/** The skill of the example, around the definition the documentation shows. */
const privateNotes = orgDocument('Private notes', [
  [
    ':tangle ../../generated/skills/private-notes.ts :mkdirp yes',
    [
      "import {defineSkill} from 'passepartout'",
      '',
      'defineSkill({',
      "  name: 'private-notes',",
      "  trigger: ({signal}) => signal.text?.startsWith('private:') === true,",
      "  prompt: ({signal}) => `Answer briefly: ${signal.text?.slice('private:'.length).trim()}`,",
      "  model: 'local',",
      '})',
    ],
  ],
])

/** A project as `passepartout init` writes it, shown at SHOWN: its example skill, hello, beside the shipped ones. */
async function initialized(shown: string): Promise<DocProject> {
  const project = new DocProject(shown, {folder: true})
  await project.run('passepartout init')
  return project
}

/** The example skill of a project init wrote, HELLO, with LINE put in as its first line of code (line 21). */
const helloWith = (hello: string, line: string) =>
  hello.replace('#+begin_src typescript', `#+begin_src typescript\n${line}`)

export const EXAMPLES: Record<string, Example> = {
  usage: {
    project: async () => new DocProject('/work/main'),
  },

  tangle: {
    project: async () => new DocProject('/work/main'),
    before: {
      1: async (project) =>
        project.write(
          'org/broken.org',
          '* Broken\n#+begin_src typescript :tangle ../missing/broken.ts\nexport const broken = true\n#+end_src\n',
        ),
      // Notes tangled to one file, then to another: the first is no longer written.
      2: async (project) => {
        fs.rmSync(`${project.dir}/org/broken.org`)
        project.write('org/notes.org', notes('old-name.ts'))
        await project.run('passepartout tangle')
        project.write('org/notes.org', notes('new-name.ts'))
      },
    },
  },

  detangle: {
    project: async () => new DocProject('/work/main'),
    before: {
      // An editor's rename over the generated file.
      1: async (project) =>
        project.write('generated/counter.ts', project.read('generated/counter.ts').replaceAll(/\bcount\b/g, 'counter')),
      // Both sides edited: the document's first block, and the file's function.
      2: async (project) => {
        project.write('org/counter.org', project.read('org/counter.org').replace('counter = 0', 'counter = 1'))
        project.write('generated/counter.ts', project.read('generated/counter.ts').replace('+= 1', '+= 2'))
      },
      // The document as it was first, tangled again (over the file's edit).
      3: async (project) => {
        const first = project.read('org/counter.org').replaceAll(/\bcounter\b(?!\.ts)/g, 'count').replace('count = 1', 'count = 0')
        project.write('org/counter.org', first)
        await project.run('passepartout tangle')
      },
    },
    commands: {
      // Watched, the file renamed over and saved, then its document's tangle seen, and the watch stopped.
      'passepartout watch --detangle': async (project) => {
        const watch = project.start('passepartout watch --detangle', {PASSEPARTOUT_WARM_UP: '0'})
        await watch.until(/^watching /m)
        project.write('generated/counter.ts', project.read('generated/counter.ts').replaceAll(/\bcount\b/g, 'counter'))
        await watch.until(/^detangled [\s\S]*\(1 unchanged\) in \d+ ms\nchecked .*\n/m)
        await watch.stop()
        return watch.output()
      },
    },
  },

  skills: {
    project: async () => new DocProject('/work/main'),
  },

  weave: {
    project: async () => new DocProject('/work/main'),
    commands: {
      // Served; the notes saved with one more line; woven again; then Ctrl-C.
      'passepartout weave --serve': async (project) => {
        const serving = project.start('passepartout weave --serve')
        await serving.until(/^serving /m)
        project.write('org/notes.org', `${project.read('org/notes.org')}And one more line.\n`)
        await serving.until(/^serving [^]*^wove /m)
        await serving.stop()
        return serving.output()
      },
    },
  },

  pipeline: {
    // What `ls -la org` lists: the skills' folder and three documents.
    project: async () => {
      const project = new DocProject('/work/main')
      for (const name of ['hello', 'notes', 'todo']) project.write(`org/${name}.org`, `#+TITLE: ${name}\n`)
      return project
    },
  },

  sessions: {
    project: async () => new DocProject('/work/main'),
    before: {
      0: async (project) => {
        await runningCore(project, '--no-watch')
        await project.run('passepartout send hello')
        for (const text of ['hello', 'and again']) await project.run(`passepartout send --session demo '${text}'`)
      },
    },
  },

  'weather-tool': (() => {
    let core: Started
    return {
      project: async () => {
        const project = new DocProject('/work/main')
        await project.server('http://127.0.0.1:11434/v1', [weatherModel])
        project.write('.env', dotenvFor('http://127.0.0.1:11434/v1'))
        core = await runningCore(project)
        return project
      },
      // Saved while the core runs: it is loaded.
      before: {0: async () => core.until(/^loaded weather/m)},
    }
  })(),

  schedules: (() => {
    let core: Started
    return {
      project: async () => {
        const project = new DocProject('/work/main')
        core = await runningCore(project)
        return project
      },
      before: {
        // The scribe ran once, on a session of notes.
        0: async (project) => {
          await project.run("passepartout send --session notes 'what is on the list for today?'")
          await project.run('passepartout fire scribe')
        },
        1: async (project) =>
          void (await project.run("passepartout send --session demo 'what did I decide about the voyage?'")),
      },
      excerpts: {
        // The core stopped, and started again after the scribe's time.
        0: async (project) => {
          await core.stop()
          await downSinceBeforeMidnight(project)
          core = await runningCore(project)
          return core.output()
        },
        // A schedule croner does not read, saved over one that works.
        1: async (project) => {
          project.write('org/skills/weather.org', scheduledWeather("{every: '1h'}"))
          await core.until(/^loaded weather/m)
          project.write('org/skills/weather.org', scheduledWeather("{cron: '61 * * * *'}"))
          await core.until(/^kept weather/m)
          return core.output()
        },
      },
    }
  })(),

  notify: {
    project: async () => {
      const project = new DocProject('/tmp/fresh')
      project.write('org/skills/weather.org', forecasts)
      await runningCore(project, '--no-watch')
      await project.run("passepartout send --session demo 'hello'")
      return project
    },
    commands: {
      // Ctrl-D once the forecast came.
      'passepartout chat --session demo': async (project) => {
        const chat = project.start('passepartout chat --session demo')
        await chat.until(/forecast number 1/)
        chat.child.stdin!.end()
        await chat.closed
        return chat.output()
      },
    },
  },

  providers: {
    project: async () => withLocalAndHosted('/tmp/demo'),
    before: {1: async (project) => project.stopServer(LOCAL)},
  },

  'provider-mistakes': {
    project: async () => {
      const project = new DocProject('/work/providers')
      await project.server(LOCAL, [sayingWho('local')])
      // A typo of cascade (line 6), a provider without its URL (line 4).
      const providers = [`    "local": {"baseURL": "${LOCAL}", "model": "llama3.2"},`, '    "hosted": {"model": "x"},']
      project.write(
        'passepartout.json',
        ['{', '  "providers": {', ...providers, '  },', '  "casacde": ["local"],', '}', ''].join('\n'),
      )
      return project
    },
    commands: {
      'passepartout run --no-watch': async (project) => (await runningCore(project, '--no-watch')).output(),
    },
  },

  'model-choice': {
    project: async () => {
      const project = await withLocalAndHosted('/tmp/demo')
      project.write('passepartout.json', localThenHosted)
      return project
    },
  },

  'private-notes': {
    project: async () => {
      const project = await withLocalAndHosted('/tmp/demo')
      project.write('passepartout.json', localThenHosted)
      project.write('org/skills/private-notes.org', privateNotes)
      return project
    },
  },

  consensus: {
    project: async () => {
      const project = new DocProject('/tmp/demo')
      // The two servers of llama3.2 say they are llama: their words are the same proposal.
      await project.server(LOCAL, [sayingWho('llama')])
      await project.server(OTHER, [sayingWho('llama')])
      await project.server(HOSTED, [sayingWho('hosted')])
      return project
    },
  },

  reload: {
    project: async () => initialized('/home/me/my-agent'),
    commands: {
      // On a terminal: hello saved three times (a change, a type error, the change mended), then Ctrl-C.
      'passepartout run': async (project) => {
        const core = onATerminal(project, 'passepartout run')
        await core.until(/^talk to it/m)
        const hello = project.read('org/skills/hello.org')
        project.write('org/skills/hello.org', helloWith(hello, 'const changed = 1'))
        await core.until(/^reloaded hello/m)
        project.write('org/skills/hello.org', helloWith(hello, "const broken: number = 'one'"))
        await core.until(/^kept hello/m)
        project.write('org/skills/hello.org', helloWith(hello, 'const changed = 2'))
        await core.until(/^reloaded hello[^]*^reloaded hello/m)
        core.child.stdin!.write('\x03')
        await core.closed
        return shownBy(core)
      },
    },
  },

  talking: {
    project: async () => {
      const project = await initialized('/home/me/my-agent')
      await runningCore(project, '--no-watch')
      return project
    },
    before: {
      1: async (project) => void (await project.run("passepartout send --session demo 'hello'")),
      // The core stopped.
      2: async (project) => void (await project.stopCores()),
    },
  },

  mcp: (() => {
    let core: Started
    /** While this file is there, the test server's program waits before it starts: the example's send comes first. */
    let hold: string
    return {
      project: async () => {
        const project = new DocProject('/work/mcp')
        hold = path.join(project.dir, '.hold')
        // The test server's program, where this installation has it, started through a launcher that waits while
        // the hold is there (the core starts a killed server again after 0.5 s: a loaded machine sends later).
        const launcher = path.join(project.dir, '.launch.mjs')
        const launch = path.join(repo, 'bin/launch.mjs')
        fs.writeFileSync(
          launcher,
          [
            "import fs from 'node:fs'",
            `while (fs.existsSync(${JSON.stringify(hold)})) await new Promise((resolve) => setTimeout(resolve, 20))`,
            `process.argv[1] = ${JSON.stringify(launch)}`,
            `await import(${JSON.stringify(launch)})`,
            '',
          ].join('\n'),
        )
        project.standFor(launcher, 'bin/launch.mjs')
        project.standFor(path.join(repo, 'generated/core/mcp-test-server.ts'), 'generated/core/mcp-test-server.ts')
        return project
      },
      before: {
        0: async (project) => {
          core = await runningCore(project, '--no-watch')
        },
      },
      commands: {'passepartout run --no-watch': async () => core.output()},
      around: {
        'kill -9 20552': {
          before: async () => fs.writeFileSync(hold, ''),
          after: async () => core.until(/the MCP server 'demo' is not running: it exited/),
        },
        'passepartout send --session mcp-demo \'demo-echo {"text": "back?"}\'': {
          before: async () => {
            fs.rmSync(hold)
            await core.until(/the MCP server 'demo' runs again/)
          },
        },
      },
      deferred: [0],
    }
  })(),

  'project-init': {
    project: async () => {
      const project = new DocProject('/home/me/notes', {folder: true})
      project.write('org/notes.org', '#+TITLE: Notes\n')
      return project
    },
  },

  'project-skills': {
    project: async () => {
      const project = await initialized('/home/me/my-agent')
      // The project's copy of the shipped policy.
      project.write('org/skills/policy.org', fs.readFileSync(path.join(repo, 'org/skills/policy.org'), 'utf8'))
      return project
    },
  },

  'project-api': {
    project: async () => {
      const project = await initialized('/home/me/my-agent')
      project.write(
        'org/skills/hello.org',
        project.read('org/skills/hello.org').replace('#+PASSEPARTOUT: 1', '#+PASSEPARTOUT: 2'),
      )
      return project
    },
  },

  // The README's start: a project init makes, a model on 127.0.0.1 that calls the tool when asked.
  start: {
    project: async () => {
      const project = new DocProject('/home/me', {folder: true})
      await project.server(LOCAL, [weatherModel])
      return project
    },
    commands: {
      // On a terminal, as a person runs it; it goes on running while the others talk to it.
      'passepartout run': async (project) => {
        const core = onATerminal(project, 'passepartout run')
        await core.until(/^talk to it/m)
        return shownBy(core)
      },
    },
  },
}
