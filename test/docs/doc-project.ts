/**
 * The project an example of the documentation runs in: a temporary folder a person's project would be, its
 * commands run through a shell as a person types them (`passepartout` on the PATH is this installation's), the
 * model servers the prose describes played from a script on 127.0.0.1, and what is printed written back in the
 * words the documentation shows (its folder, its servers' addresses).
 */
import {type ChildProcess, spawn} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {modelServer, type ModelReply, type ModelServer} from '../../generated/core/fixtures.ts'

export const repo = path.resolve(import.meta.dirname, '../..')
const cli = path.join(repo, 'bin/passepartout')

/** How long a command of an example has to end, and a wait for a line to come. */
const COMMAND_MS = 90_000

/**
 * The hour of the day the examples run at, as their commands see it: the documentation's (`last 08:27:17`). What a
 * command prints may hang on the time of day where it shows a time: `status` says the scribe's next run (`cron 55 23
 * * * *`) is `23:55` until then and `2026-12-01 23:55` after it, so that at 23:58 the examples that show it failed.
 */
const SHOWN_HOUR = 8

/**
 * The time zone the examples' commands run in, whose local time is SHOWN_HOUR (its minutes the machine's) when
 * this module is read, whatever the machine's zone and time: a whole hour from UTC, as the `Etc/GMT` zones are
 * (theirs from -12 to +14, so that every hour of the day is one of them; `Etc/GMT-8` is 8 hours ahead of UTC).
 */
export const exampleZone = (() => {
  const ahead = (((SHOWN_HOUR - new Date().getUTCHours()) % 24) + 24) % 24
  const hours = ahead > 14 ? ahead - 24 : ahead
  const name = hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`
  return {name, aheadMs: hours * 3_600_000}
})()

/** A process an example started and left running (a core, a chat), read as it prints. */
export class Started {
  private text = ''
  private ended = false
  /** Once it ended and all it printed was read. */
  readonly closed: Promise<void>

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.text += chunk))
    this.closed = new Promise((resolve) =>
      child.on('close', () => {
        this.ended = true
        resolve()
      }),
    )
  }

  /** What it printed so far, both streams as they came. */
  output(): string {
    return this.text
  }

  /** Once it printed a line that PATTERN finds; fails, saying what came, when it ends or MS pass first. */
  async until(pattern: RegExp, ms = COMMAND_MS): Promise<void> {
    const deadline = Date.now() + ms
    while (!pattern.test(this.text) && !this.ended && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50))
    if (!pattern.test(this.text))
      throw new Error(`no ${pattern} (${this.ended ? 'it ended' : `${ms} ms`}): ${this.text}`)
  }

  /** Stop it as Ctrl-C does, and wait for it to end (killed, when it does not within the deadline). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    this.child.kill('SIGINT')
    const killed = setTimeout(() => this.child.kill('SIGKILL'), 30_000)
    await this.closed
    clearTimeout(killed)
  }
}

export class DocProject {
  readonly dir: string
  /** What is printed in the project's place, and the addresses of its servers: replaced by what is shown. */
  private readonly shown = new Map<string, string>()
  /** Ids, pids and session names shown, and the ones printed in their place: a later command takes these. */
  readonly taken = new Map<string, string>()
  private readonly started: Started[] = []
  private readonly servers = new Map<string, ModelServer>()
  private readonly bin: string
  /** The folder the commands run in: the project's, until a `cd`. */
  private cwd: string

  constructor(
    /** The folder the documentation shows for the project (`/work/main`). */
    readonly shownRoot: string,
    /** A folder that is no project yet (where `passepartout init` makes one). */
    options: {folder?: boolean} = {},
  ) {
    this.dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-docs-')))
    this.bin = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-docs-bin-'))
    fs.symlinkSync(cli, path.join(this.bin, 'passepartout'))
    this.cwd = this.dir
    this.shown.set(this.dir, shownRoot)
    // A project as a person has one: a package.json marks its root; what it imports, the shipped skills among
    // them, comes from this installation.
    if (!options.folder) fs.writeFileSync(path.join(this.dir, 'package.json'), '{}\n')
  }

  /** Write TEXT as FILE of the folder the commands run in, with the addresses it shows made the ones that answer here. */
  write(file: string, text: string): void {
    const target = path.join(this.cwd, file)
    fs.mkdirSync(path.dirname(target), {recursive: true})
    fs.writeFileSync(target, this.actual(text))
  }

  read(file: string): string {
    return fs.readFileSync(path.join(this.cwd, file), 'utf8')
  }

  /** The environment of a command: this one's, without what would change what is printed; the examples' zone. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {...process.env}
    for (const name of Object.keys(env))
      if (
        /^(PASSEPARTOUT_|OPENAI_|DEBUG$|FORCE_COLOR$|NO_COLOR$|MANDATORY_SKILLS$|SHIPPED_SKILLS$|INSIDE_EMACS$)/.test(
          name,
        )
      )
        delete env[name]
    return {...env, PATH: `${this.bin}:${env.PATH}`, TZ: exampleZone.name, ...extra}
  }

  /** TEXT as the documentation shows it: the project's folder, the servers' addresses. */
  asShown(text: string): string {
    let shown = text
    for (const [actual, words] of this.shown) shown = shown.replaceAll(actual, words)
    return shown
  }

  /** TEXT shown by the documentation as it is here: the servers' addresses, and what earlier outputs gave. */
  actual(text: string): string {
    let actual = text
    for (const [printed, words] of this.shown) if (printed !== this.dir) actual = actual.replaceAll(words, printed)
    for (const [words, printed] of this.taken) actual = actual.replaceAll(words, printed)
    return actual
  }

  /** A process COMMAND (a line of the shell) started in the project, both its streams read as one. */
  start(command: string, env: NodeJS.ProcessEnv = {}): Started {
    // The shell gives its place to the command (a signal reaches it), through env when it sets variables first.
    // --norc: bash takes a socket on its input (Node's pipes are) for a remote shell's and runs the user's ~/.bashrc
    // when it is the first shell (SHLVL unset or 0, as in a run a program started): a pyenv's there started 20
    // processes, 0.1 s of CPU, before each command, and could change the PATH the commands run with.
    const line = this.actual(command)
    const child = spawn('bash', ['--norc', '-c', `exec 2>&1; exec ${/^\w+=/.test(line) ? 'env ' : ''}${line}`], {
      cwd: this.cwd,
      env: this.env(env),
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    const started = new Started(child)
    this.started.push(started)
    return started
  }

  /** Run the later commands in FOLDER, relative to where they run now (`cd my-agent`). */
  cd(folder: string): void {
    this.cwd = path.resolve(this.cwd, folder)
  }

  /** COMMAND run to its end, with no input: what it printed on both streams, as they came. */
  async run(command: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
    const started = this.start(command, env)
    started.child.stdin!.end()
    const killed = setTimeout(() => started.child.kill('SIGKILL'), COMMAND_MS)
    await started.closed
    clearTimeout(killed)
    return started.output()
  }

  /** A model server on 127.0.0.1 that answers from REPLIES, at the address the documentation shows as SHOWN. */
  async server(shown: string, replies: readonly ModelReply[]): Promise<ModelServer> {
    const server = await modelServer(replies)
    this.shown.set(server.baseURL, shown)
    this.servers.set(shown, server)
    return server
  }

  /** Say ACTUAL as SHOWN in what is printed, and write SHOWN as ACTUAL in what the project holds. */
  standFor(actual: string, shown: string): void {
    this.shown.set(actual, shown)
  }

  /** Stop the model server shown at SHOWN. */
  async stopServer(shown: string): Promise<void> {
    await this.servers.get(shown)?.close()
  }

  /** Stop the processes the example started (its cores, as Ctrl-C stops them). */
  async stopCores(): Promise<void> {
    await Promise.all(this.started.map((started) => started.stop()))
  }

  /** Stop what the example started, and remove the project. */
  async close(): Promise<void> {
    await this.stopCores()
    await Promise.all([...this.servers.values()].map((server) => server.close()))
    fs.rmSync(this.dir, {recursive: true, force: true})
    fs.rmSync(this.bin, {recursive: true, force: true})
  }
}
