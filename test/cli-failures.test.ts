/**
 * What used to end a command with a stack trace, run as a real process on real
 * folders: each is now a positioned diagnostic (or nothing, for a reader that
 * went away), and the other documents of the run are written.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {parseCommandLine} from '../tools/cli/command-line.ts'
import type {CommandName} from '../tools/cli/command-table.ts'
import {commandUsage, USAGE, UsageError} from '../tools/cli/usage.ts'
import {tempProject} from './support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../bin/passepartout')

function run(args: string[], cwd: string) {
  const result = spawnSync(cli, args, {cwd, encoding: 'utf8'})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

const folder = (files: Record<string, string>) => tempProject(files, 'passepartout-failures-')

const block = (target: string, args = '') => `* Code\n#+begin_src typescript :tangle ${target}${args}\nconst x = 1\n#+end_src\n`
const lines = (text: string) => text.trimEnd().split('\n').filter(Boolean)

describe('targets no file can be written at', () => {
  it.each([
    ['a NUL byte', 'a\0b.ts', '', /the file name holds a NUL byte/],
    ['a name over 255 bytes', `${'n'.repeat(300)}.ts`, '', /is 303 bytes long; the file system takes 255/],
    ['a path over 4095 bytes', `${'dd/'.repeat(1500)}x.ts`, ' :mkdirp yes', /the path is \d+ bytes long; the file system takes 4095/],
    ['a file where a folder should be', '../plain/x.ts', '', /plain is a file, not a folder/],
    ['a file where a folder should be, with :mkdirp', '../plain/deeper/x.ts', ' :mkdirp yes', /plain is a file, not a folder/],
  ])('%s: an io/write error at the block, and the other documents written', (_what, target, args, reason) => {
    const dir = folder({'plain': 'a file', 'org/bad.org': block(target, args), 'org/good.org': block('../good.ts')})
    for (const command of ['tangle', 'check']) {
      const result = run([command, '--no-frames'], dir)
      expect(result.status).toBe(1)
      const errors = lines(result.stderr).filter((line) => line.includes('[io/write]'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/^org\/bad\.org:2:1: error: /)
      expect(errors[0]).toMatch(reason)
      expect(result.stderr).not.toMatch(/\n +at /)
      expect(fs.existsSync(path.join(dir, 'good.ts'))).toBe(true)
    }
  })
})

describe('a damaged tangle cache', () => {
  it('is discarded with one warning, then rebuilt', () => {
    const dir = folder({'node_modules/.keep': '', 'org/a.org': block('../a.ts')})
    expect(run(['tangle'], dir).status).toBe(0)
    const cache = path.join(dir, 'node_modules/.cache/passepartout/tangle.json')
    const stored = JSON.parse(fs.readFileSync(cache, 'utf8'))
    for (const damage of [JSON.stringify({...stored, documents: null}), JSON.stringify({...stored, documents: {x: {stamp: 1}}}), fs.readFileSync(cache, 'utf8').slice(0, 40)]) {
      fs.writeFileSync(cache, damage)
      const damaged = run(['tangle'], dir)
      expect(damaged.status).toBe(0)
      expect(lines(damaged.stderr)).toEqual(['node_modules/.cache/passepartout/tangle.json: warning: the tangle cache is damaged (not the shape this build writes); it is discarded and every document is read again [cache/damaged]'])
      const again = run(['tangle'], dir)
      expect(again.stderr).toBe('')
      expect(run(['check'], dir).status).toBe(0)
    }
  })
})

describe('a reader that goes away', () => {
  it.each([['deps'], ['tangle --dry-run --no-cache']])('%s | head: no EPIPE stack', (command) => {
    const dir = folder(Object.fromEntries(Array.from({length: 300}, (_, n) => [`org/doc-${n}.org`, block(`../out/${n}.ts`, ' :mkdirp yes')])))
    const result = spawnSync('bash', ['-c', `${cli} ${command} | head -1; echo "status \${PIPESTATUS[0]}" >&2`], {cwd: dir, encoding: 'utf8'})
    expect(lines(result.stdout)).toHaveLength(1)
    expect(result.stderr).toBe('status 0\n')
  })
})

describe('targets judged by what they are', () => {
  it('takes a name that starts with two dots for a name, inside the project', () => {
    const dir = folder({'org/a.org': block('../..config.ts')})
    const result = run(['tangle'], dir)
    expect(result.stderr).toBe('')
    expect(fs.existsSync(path.join(dir, '..config.ts'))).toBe(true)
  })

  it('sees two documents writing one file through a linked folder', () => {
    const dir = folder({'out/.keep': '', 'org/a.org': block('../out/x.ts'), 'org/b.org': block('../alias/x.ts')})
    fs.symlinkSync(path.join(dir, 'out'), path.join(dir, 'alias'))
    const result = run(['tangle', '--no-frames'], dir)
    expect(result.status).toBe(1)
    expect(lines(result.stderr).map((line) => line.replace(/: error: .*\[/, ' ['))).toEqual(['org/a.org:2:1 [tangle/target-conflict]', 'org/b.org:2:1 [tangle/target-conflict]'])
    expect(fs.existsSync(path.join(dir, 'out/x.ts'))).toBe(false)
  })
})

describe('usage', () => {
  // Options of other commands, refused by the parser; two, of commands that would write a.ts, also as the program,
  // which says so with the command's help, exits 2 and writes nothing.
  const foreign = [
    ['check', '--dry-run'],
    ['check', '--dot'],
    ['tangle', '--dot'],
    ['skills', '--dry-run'],
    ['watch', '--json'],
    ['deps', '--allow-outside'],
  ]
  const RUN = ['check --dry-run', 'tangle --dot']

  it.each(foreign.filter((row) => !RUN.includes(row.join(' '))))('%s %s is a usage error naming the option, about that command', (command, option) => {
    let refused: unknown
    try {
      parseCommandLine([command!, option!])
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(UsageError)
    expect(refused).toMatchObject({message: `${option} is not an option of ${command}`, command})
  })

  it.each(foreign.filter((row) => RUN.includes(row.join(' '))))('%s %s is a usage error naming the option, with the command\'s own help', (command, option) => {
    const dir = folder({'org/a.org': block('../a.ts')})
    const result = run([command, option], dir)
    expect(result.status).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(`passepartout ${command}: ${option} is not an option of ${command}`)
    expect(result.stderr).toContain(`usage: passepartout ${command}`)
    expect(fs.existsSync(path.join(dir, 'a.ts'))).toBe(false)
  })

  // Every refusal of a command line, as the parser makes it (tools/cli/command-line.ts): the sentence and the
  // command whose help follows it. Three of them, one of each kind, also run as the program, which prints that and
  // exits 2: one process a row spent most of its time starting (two each, with the help it printed).
  const refusals: [string[], string, string][] = [
    [['logs', '-x'], 'logs', 'unknown option -x'],
    [['logs', '-fx'], 'logs', 'unknown option -x'],
    [['check', '--nope=3'], 'check', 'unknown option --nope'],
    [['run', '--tcp'], 'run', '--tcp needs a value: --tcp=PORT'],
    [['run', '--tcp', '--no-watch'], 'run', '--tcp needs a value: --tcp=PORT'],
    [['run', '--host=::1'], 'run', '--host names the interface of --tcp=PORT: give the port too'],
    [['run', '--tcp=http'], 'run', '--tcp takes a port number, not "http"'],
    [['logs', '--json=yes'], 'logs', '--json takes no value'],
    [['logs', '-n'], 'logs', '-n needs a value: -n N'],
    [['logs', '--lines=0'], 'logs', '--lines takes a number of lines from 1 to 1000, not "0"'],
    [['logs', '-n', '1001'], 'logs', '--lines takes a number of lines from 1 to 1000, not "1001"'],
    [['logs', '-n', 'all'], 'logs', '--lines takes a number of lines from 1 to 1000, not "all"'],
    [['status', '-n', '5'], 'status', '-n is not an option of status'],
    [['status', 'now'], 'status', 'unexpected argument "now": status asks the core that runs on the project of the working folder'],
    [['send'], 'send', 'the text to send is missing: passepartout send "what is on my list?"'],
    [['approve', 'a', 'b'], 'approve', 'one approval id is expected (ask and send print it), not 2'],
    [['fire', 'a', 'b'], 'fire', "one skill's name is expected (status lists those with a schedule), not 2"],
    [['fire', ' '], 'fire', "the skill's name is missing: passepartout fire scribe"],
    [['tangle', 'missing.org'], 'tangle', 'no such file or directory: missing.org'],
  ]
  const PRINTED = [['logs', '-x'], ['send'], ['tangle', 'missing.org']].map((args) => JSON.stringify(args))

  it.each(refusals.filter(([args]) => !PRINTED.includes(JSON.stringify(args))))('%j: one plain sentence, about %s', (args, command, sentence) => {
    let refused: unknown
    try {
      parseCommandLine(args)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(UsageError)
    expect(refused).toMatchObject({message: sentence, command})
  })

  it.each(refusals.filter(([args]) => PRINTED.includes(JSON.stringify(args))))('%j: one plain sentence, then the help of %s, exit status 2', (args, command, sentence) => {
    const dir = folder({'org/a.org': block('../a.ts')})
    const result = run(args, dir)
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    // The help is the table's, which `help COMMAND` prints (below): no process of its own a row to read it.
    expect(result.stderr).toBe(`passepartout ${command}: ${sentence}\n\n${commandUsage(command as CommandName)}`)
  })

  it('names an unknown command, or none, and lists the commands', () => {
    const dir = folder({})
    const usage = USAGE
    expect(run(['frobnicate', '--json'], dir)).toMatchObject({status: 2, stderr: `passepartout: unknown command 'frobnicate'\n\n${usage}`})
    expect(run(['help', 'frobnicate'], dir)).toMatchObject({status: 2, stderr: `passepartout: unknown command 'frobnicate'\n\n${usage}`})
    expect(run(['--json'], dir)).toMatchObject({status: 2, stderr: `passepartout: no command given\n\n${usage}`})
  })

  it('answers --version, help, help COMMAND and COMMAND --help', () => {
    const dir = folder({})
    // The version, and which installation answers: this repository, when it runs its own bin/passepartout.
    const repository = path.resolve(import.meta.dirname, '..')
    const {version} = JSON.parse(fs.readFileSync(path.join(repository, 'package.json'), 'utf8'))
    expect(run(['--version'], dir)).toMatchObject({status: 0, stdout: `passepartout ${version} from ${repository}\n`})
    expect(run(['help'], dir)).toMatchObject({status: 0, stdout: USAGE})
    expect(USAGE).toMatch(/^usage: passepartout <command>/)
    const checkHelp = run(['help', 'check'], dir)
    expect(checkHelp.stdout).toBe(commandUsage('check'))
    expect(checkHelp.stdout).toMatch(/^usage: passepartout check \[options\] \[FILE\|DIR \.\.\.\]\n/)
    expect(checkHelp.stdout).toContain('--no-cache')
    expect(checkHelp.stdout).not.toContain('--dry-run')
    expect(run(['check', '--help'], dir).stdout).toBe(checkHelp.stdout)
    expect(run(['help', 'nope'], dir).status).toBe(2)
  })

  it('warns about a folder with no .org file', () => {
    const dir = folder({'notes/readme.txt': 'x'})
    const result = run(['tangle', 'notes'], dir)
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('notes: warning: the folder notes holds no .org file: there is nothing to read [io/no-documents]\n')
  })
})

describe("a document's writes are one transaction", () => {
  const journalFolderOf = (dir: string) => path.join(dir, 'node_modules/.cache/passepartout/journal')
  const leftovers = (dir: string) => (fs.readdirSync(dir) as string[]).filter((name) => /\.(tmp|bak)$/.test(name))
  const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'}).stdout
  const two = `* A\n#+begin_src typescript :tangle ../a.ts\nconst a = 2\n#+end_src\n* B\n#+begin_src typescript :tangle ../b.ts\nconst b = 2\n#+end_src\n`

  it('puts back what it replaced when a rename fails midway, and says what it had to leave', () => {
    // An append-only folder takes new files (the staged one, the second name) but refuses the rename over b.ts.
    const dir = folder({'node_modules/.keep': '', 'a.ts': 'old a\n', 'locked/b.ts': 'old b\n', 'org/doc.org': two.replace('../b.ts', '../locked/b.ts'), 'org/other.org': block('../other.ts')})
    const locked = spawnSync('chattr', ['+a', path.join(dir, 'locked')])
    expect(locked.status, 'chattr +a is needed to make a rename fail').toBe(0)
    try {
      const result = run(['tangle', '--no-frames'], dir)
      expect(result.status).toBe(1)
      expect(lines(result.stderr)).toEqual([expect.stringMatching(/^org\/doc\.org:6:1: error: cannot write :tangle \.\.\/locked\/b\.ts, so none of this document's files was written: EPERM: operation not permitted, rename .*; left behind: .*locked\/\.b\.ts\.\d+\.\d+\.tmp.* \[io\/write\]$/)])
      expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('old a\n')
      expect(fs.readFileSync(path.join(dir, 'locked/b.ts'), 'utf8')).toBe('old b\n')
      expect(leftovers(dir)).toEqual([])
      // The other document of the run is written all the same.
      expect(fs.readFileSync(path.join(dir, 'other.ts'), 'utf8')).toBe('const x = 1\n')
    } finally {
      spawnSync('chattr', ['-a', path.join(dir, 'locked')])
    }
    // What was left in the locked folder is removed by the next run, once the folder takes removals again.
    const again = run(['tangle', '--no-frames'], dir)
    expect(again.status).toBe(0)
    expect(again.stderr).toMatch(/^org\/doc\.org: warning: an earlier run did not finish writing the files of this document .*\[io\/recovered\]$/m)
    expect(leftovers(path.join(dir, 'locked'))).toEqual([])
    expect(fs.readFileSync(path.join(dir, 'locked/b.ts'), 'utf8')).toBe('const b = 2\n')
  })

  it('answers for a document whose files the staging thread could not make, and writes the others', () => {
    // A run of more than 32 documents stages on a thread of its own, in batches; an immutable folder refuses new files.
    const files: Record<string, string> = {'node_modules/.keep': '', 'locked/.keep': ''}
    for (let n = 0; n < 60; n++) files[`org/doc-${String(n).padStart(2, '0')}.org`] = block(`../out/${n}.ts`, ' :mkdirp yes')
    files['org/doc-45.org'] = block('../locked/x.ts')
    const dir = folder(files)
    const locked = spawnSync('chattr', ['+i', path.join(dir, 'locked')])
    expect(locked.status, 'chattr +i is needed to make a create fail').toBe(0)
    try {
      const result = run(['tangle', '--no-frames'], dir)
      expect(result.status).toBe(1)
      expect(lines(result.stderr).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)).toEqual(['org/doc-45.org:2:1 io/write'])
      expect(fs.readdirSync(path.join(dir, 'out')).sort()).toEqual(Array.from({length: 60}, (_, n) => `${n}.ts`).filter((name) => name !== '45.ts').sort())
      expect(fs.readdirSync(path.join(dir, 'locked'))).toEqual(['.keep'])
    } finally {
      spawnSync('chattr', ['-i', path.join(dir, 'locked')])
    }
  })

  /** A journal as a run of process PID writes it: its first line, then one line a step. */
  const writeJournal = (dir: string, name: string, pid: number, steps: object[]) => {
    fs.mkdirSync(journalFolderOf(dir), {recursive: true})
    fs.writeFileSync(path.join(journalFolderOf(dir), name), [{pid}, ...steps].map((step) => JSON.stringify(step)).join('\n') + '\n')
  }
  const ruleLines = (stderr: string) => lines(stderr).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)

  it('completes the renames a killed run had begun, says so, and leaves a document it had finished alone', () => {
    const dir = folder({'node_modules/.keep': '', 'a.ts': 'new a\n', 'b.ts': 'old b\n', '.b.ts.1.1.tmp': 'new b\n', 'done.ts': 'done\n', 'org/doc.org': two, 'org/other.org': block('../other.ts')})
    fs.linkSync(path.join(dir, 'b.ts'), path.join(dir, '.b.ts.1.1.bak'))
    const entries = [
      {target: path.join(dir, 'a.ts'), temporary: path.join(dir, '.a.ts.1.0.tmp'), backup: null},
      {target: path.join(dir, 'b.ts'), temporary: path.join(dir, '.b.ts.1.1.tmp'), backup: path.join(dir, '.b.ts.1.1.bak')},
    ]
    const done = {document: path.join(dir, 'org/done.org'), entries: [{target: path.join(dir, 'done.ts'), temporary: path.join(dir, '.done.ts.1.2.tmp'), backup: null}]}
    writeJournal(dir, 'killed.jsonl', Number(deadPid()), [{stage: done}, {stage: {document: path.join(dir, 'org/doc.org'), entries}}, {renaming: true}, {settled: done.document}])
    const result = run(['tangle', 'org/other.org'], dir)
    expect(result.status).toBe(0)
    expect(ruleLines(result.stderr)).toEqual(['org/doc.org io/recovered'])
    expect(fs.readFileSync(path.join(dir, 'b.ts'), 'utf8')).toBe('new b\n')
    expect(fs.readFileSync(path.join(dir, 'done.ts'), 'utf8')).toBe('done\n')
    expect(leftovers(dir)).toEqual([])
    expect(fs.readdirSync(journalFolderOf(dir))).toEqual([])
  })

  it('removes what a run killed while staging left, touching no target; reads no line cut short; leaves a live run alone', () => {
    const dir = folder({'node_modules/.keep': '', 'a.ts': 'old a\n', '.a.ts.1.0.tmp': 'half', 'org/other.org': block('../other.ts')})
    const entries = [{target: path.join(dir, 'a.ts'), temporary: path.join(dir, '.a.ts.1.0.tmp'), backup: null}]
    writeJournal(dir, 'killed.jsonl', Number(deadPid()), [{stage: {document: path.join(dir, 'org/doc.org'), entries}}])
    fs.appendFileSync(path.join(journalFolderOf(dir), 'killed.jsonl'), '{"stage": {"document": "/cut')
    writeJournal(dir, 'live.jsonl', process.pid, [{stage: {document: path.join(dir, 'org/live.org'), entries}}, {renaming: true}])
    const result = run(['tangle', 'org/other.org'], dir)
    expect(ruleLines(result.stderr)).toEqual(['org/doc.org io/recovered'])
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('old a\n')
    expect(leftovers(dir)).toEqual([])
    expect(fs.readdirSync(journalFolderOf(dir))).toEqual(['live.jsonl'])
  })

  it('undoes a document whose undo a failed run could not finish, even once renaming had begun', () => {
    const dir = folder({'node_modules/.keep': '', 'a.ts': 'new a\n', '.a.ts.1.0.bak': 'old a\n', '.b.ts.1.1.tmp': 'new b\n', 'org/other.org': block('../other.ts')})
    const entries = [
      {target: path.join(dir, 'a.ts'), temporary: path.join(dir, '.a.ts.1.0.tmp'), backup: path.join(dir, '.a.ts.1.0.bak')},
      {target: path.join(dir, 'b.ts'), temporary: path.join(dir, '.b.ts.1.1.tmp'), backup: null},
    ]
    writeJournal(dir, 'failed.jsonl', Number(deadPid()), [{stage: {document: path.join(dir, 'org/doc.org'), entries}}, {renaming: true}, {undo: path.join(dir, 'org/doc.org')}])
    const result = run(['tangle', 'org/other.org'], dir)
    expect(ruleLines(result.stderr)).toEqual(['org/doc.org io/recovered'])
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('old a\n')
    expect(fs.existsSync(path.join(dir, 'b.ts'))).toBe(false)
    expect(leftovers(dir)).toEqual([])
  })
})

describe('the tangle cache works for every user', () => {
  it("is the project's when the project is named from a parent folder", () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-parent-'))
    const dir = path.join(parent, 'proj')
    fs.mkdirSync(path.join(dir, 'node_modules'), {recursive: true})
    fs.writeFileSync(path.join(dir, 'package.json'), '{}')
    fs.mkdirSync(path.join(dir, 'org'))
    fs.writeFileSync(path.join(dir, 'org/a.org'), block('../a.ts'))
    expect(run(['tangle', 'proj/org'], parent).status).toBe(0)
    expect(fs.existsSync(path.join(dir, 'node_modules/.cache/passepartout/tangle.json'))).toBe(true)
  })

  it("lives in the user's cache folder outside an npm project, one file per folder", () => {
    const loose = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-loose-'))
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-xdg-'))
    fs.writeFileSync(path.join(loose, 'a.org'), block('a.ts'))
    const tangleLoose = () => spawnSync(cli, ['tangle', '--json', '.'], {cwd: loose, encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: xdg}})
    expect(tangleLoose().status).toBe(0)
    const files = fs.readdirSync(path.join(xdg, 'passepartout')).sort()
    // The journals' folder too, empty once the run is over.
    expect(files).toEqual(['journal', expect.stringMatching(/^tangle-[0-9a-f]{24}\.json$/), expect.stringMatching(/^written-[0-9a-f]{24}\.json$/)])
    expect(fs.readdirSync(path.join(xdg, 'passepartout', 'journal'))).toEqual([])
    const cached = JSON.parse(fs.readFileSync(path.join(xdg, 'passepartout', files[1]!), 'utf8'))
    expect(Object.keys(cached.documents)).toEqual([fs.realpathSync(path.join(loose, 'a.org'))])
    expect(tangleLoose().status).toBe(0)
  })
})

describe('an installation whose packages are elsewhere, or missing', () => {
  const home = path.resolve(import.meta.dirname, '..')

  /** A copy of this installation (its documents, tools and bin/) whose node_modules MODULES makes. */
  function installation(modules: (copy: string) => void): string {
    const copy = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'passepartout-home-'))
    for (const entry of ['org', 'bin', 'tools', 'package.json', 'tsconfig.json']) {
      fs.cpSync(path.join(home, entry), path.join(copy, entry), {recursive: true})
    }
    modules(copy)
    return copy
  }

  /** The packages of this installation in FOLDER, as files of their own there (hard links: no copy of 156 MB). */
  function packagesIn(folder: string, skip: string[] = []): void {
    const linked = (source: string, target: string) => {
      const stats = fs.lstatSync(source)
      if (stats.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target)
      else if (!stats.isDirectory()) fs.linkSync(source, target)
      else {
        fs.mkdirSync(target)
        for (const entry of fs.readdirSync(source)) linked(path.join(source, entry), path.join(target, entry))
      }
    }
    const modules = path.join(home, 'node_modules')
    fs.mkdirSync(folder, {recursive: true})
    for (const entry of fs.readdirSync(modules)) {
      if (entry !== '.cache' && !skip.includes(entry)) linked(path.join(modules, entry), path.join(folder, entry))
    }
  }

  it('runs when node_modules is a link to a folder of another name: packages are found from the link', () => {
    const copy = installation((copy) => {
      const elsewhere = path.join(fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'passepartout-odd-')), 'deps')
      packagesIn(elsewhere)
      fs.symlinkSync(elsewhere, path.join(copy, 'node_modules'))
    })
    const dir = folder({'package.json': '{}'})
    const env = {...process.env, MANDATORY_SKILLS: '', PASSEPARTOUT_HOME: undefined}
    const options = {cwd: dir, encoding: 'utf8', env, timeout: 120_000} as const
    const once = spawnSync(path.join(copy, 'bin/passepartout'), ['run', '--once'], options)
    expect(once.stderr).not.toMatch(/Cannot find|^\s+at /m)
    expect(once.status, once.stderr).toBe(0)
    expect(once.stdout).toMatch(/^ask "hello from passepartout run" \(offline backend\):\n/m)
    expect(once.stdout).toMatch(/^ {2}gates: /m)
  }, 180_000)

  it('says in one line what to run when a package is missing, or cannot be loaded', () => {
    const without = installation((copy) => packagesIn(path.join(copy, 'node_modules'), ['vfile-message']))
    const dir = folder({'org/a.org': block('../a.ts')})
    const missing = spawnSync(path.join(without, 'bin/passepartout'), ['tangle'], {cwd: dir, encoding: 'utf8'})
    const setup = `run \`make setup\` (npm ci) in ${without}`
    const absent = 'the dependencies are not installed (there is no node_modules/vfile-message)'
    expect(missing.stderr).toBe(`passepartout: ${absent}; ${setup}\n`)
    expect(missing.status).toBe(2)
    // Its package.json is there, its code is not.
    fs.mkdirSync(path.join(without, 'node_modules/vfile-message'))
    const manifest = {name: 'vfile-message', type: 'module', exports: './lib/index.js'}
    fs.writeFileSync(path.join(without, 'node_modules/vfile-message/package.json'), JSON.stringify(manifest))
    const broken = spawnSync(path.join(without, 'bin/passepartout'), ['tangle'], {cwd: dir, encoding: 'utf8'})
    const unfound = /^passepartout: a dependency cannot be found: Cannot find module '.*vfile-message.*'.*; run `make/
    expect(broken.stderr).toMatch(unfound)
    expect(broken.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(broken.status).toBe(2)
  })
})
