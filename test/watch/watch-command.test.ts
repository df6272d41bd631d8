/**
 * `passepartout watch` as a real process on a real project: it checks at
 * start, again after each save (type errors included), keeps the last good
 * output when a document breaks, and stops cleanly on SIGTERM.
 */
import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
const block = (target: string, body: string) => `#+begin_src typescript :tangle ${target}\n${body}\n#+end_src\n`

/**
 * `passepartout watch` started in DIR: its output, a wait for a condition (given up once it exits), its exit. It
 * leaves out the warm-up of its checker (seconds of CPU): a first save builds the program as it comes.
 */
function watching(dir: string, options: string[] = []) {
  const child = spawn(cli, ['watch', '--no-frames', ...options], {cwd: dir, env: {...process.env, PASSEPARTOUT_WARM_UP: '0'}})
  const output = {stdout: '', stderr: ''}
  let code: number | null | undefined
  child.stdout.on('data', (data) => (output.stdout += data))
  child.stderr.on('data', (data) => (output.stderr += data))
  const exit = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve((code = status))))
  const said = () => `stdout:\n${output.stdout}\nstderr:\n${output.stderr}`
  const until = async (condition: () => boolean, what: string) => {
    for (let waited = 0; !condition(); waited += 20) {
      if (code !== undefined) throw new Error(`the watcher exited (${code}) before ${what}; ${said()}`)
      // A deadline for a machine loaded by other work; only a test that fails waits it out.
      if (waited > 60_000) throw new Error(`${what}: nothing within 60 s; ${said()}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  /** Stop it with SIGTERM; its exit status. */
  const stop = async () => {
    child.kill('SIGTERM')
    let late: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      late = setTimeout(() => reject(new Error(`its exit on SIGTERM: nothing within 10 s; ${said()}`)), 10_000)
    })
    return Promise.race([exit, deadline]).finally(() => clearTimeout(late))
  }
  return {output, until, stop}
}

/** A new project whose org/doc.org tangles `one` into doc.ts. */
function projectWithOneDocument(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watch-cli-'))
  fs.mkdirSync(path.join(dir, 'org'))
  fs.writeFileSync(path.join(dir, 'package.json'), '{}')
  fs.writeFileSync(path.join(dir, 'org/doc.org'), block('doc.ts', 'one'))
  return dir
}

it('tangles and checks each saved change, and keeps the last good output of a broken document', async () => {
  const dir = projectWithOneDocument()
  const {output, until, stop} = watching(dir)
  const read = (file: string) => fs.readFileSync(path.join(dir, 'org', file), 'utf8')
  let status: number | null
  try {
    await until(() => output.stdout.includes('watching org for changes'), 'its first check')
    expect(output.stdout).toMatch(/^tangled 1 block from 1 document into 1 file/m)
    expect(read('doc.ts')).toBe('one\n')

    fs.writeFileSync(path.join(dir, 'org/doc.org'), block('doc.ts', 'two'))
    await until(() => read('doc.ts') === 'two\n', 'org/doc.ts tangled again')
    await until(() => output.stdout.includes('org/doc.org changed'), 'the save reported')

    fs.writeFileSync(path.join(dir, 'org/doc.org'), block('missing/doc.ts', 'three'))
    await until(() => output.stderr.includes('[tangle/missing-directory]'), 'the error of the broken save')
    expect(output.stderr).toMatch(/^org\/doc\.org:1:1: error: /m)
    expect(read('doc.ts')).toBe('two\n')

    fs.writeFileSync(path.join(dir, 'org/new.org'), block('new.ts', 'new'))
    await until(() => fs.existsSync(path.join(dir, 'org/new.ts')), 'the new document tangled')
    expect(read('new.ts')).toBe('new\n')

    // A file's name is said as the terminal would not act on it.
    fs.writeFileSync(path.join(dir, 'org/e\u001b[2Jvil.org'), block('evil.ts', 'evil'))
    await until(() => output.stdout.includes('org/e\\x1b[2Jvil.org'), 'the name with an escape reported')
    expect(output.stdout).not.toContain('\u001b')

    // What check prints, type errors included, at the Org line.
    fs.writeFileSync(path.join(dir, 'org/typed.org'), block('typed.ts', "export const n: number = 'not a number'"))
    await until(() => output.stderr.includes('org/typed.org'), 'the type error')
    const typeError = "org/typed.org:2:14: error TS2322: Type 'string' is not assignable to type 'number'. [ts]"
    expect(output.stderr.split('\n')).toContain(typeError)
    expect(output.stdout).toMatch(/^checked \d+ TypeScript files?: \d+ errors?, \d+ warnings? in \d+ ms$/m)
  } finally {
    status = await stop()
  }
  expect(status).toBe(0)
})

it('survives a save it cannot write, waits for its folder when the folder is deleted, and tangles it again when it comes back', async () => {
  const dir = projectWithOneDocument()
  const {output, until, stop} = watching(dir)
  /** Whether FILE under org/ holds TEXT (it may not be there yet). */
  const tangled = (file: string, text: string) => () =>
    fs.existsSync(path.join(dir, 'org', file)) && fs.readFileSync(path.join(dir, 'org', file), 'utf8') === text
  let status: number | null
  try {
    await until(() => output.stdout.includes('watching org for changes'), 'its first check')
    // A save no file can be written for is an error at its block, not the end of the watcher.
    fs.writeFileSync(path.join(dir, 'org/long.org'), block(`${'n'.repeat(300)}.ts`, 'x'))
    await until(() => output.stderr.includes('[io/write]'), 'the error of the save it cannot write')
    expect(output.stderr).toMatch(/^org\/long\.org:1:1: error: /m)
    // The folder goes: its documents' removal is reported, and the watcher waits for it (a wait that ends when
    // the watcher exits).
    fs.rmSync(path.join(dir, 'org'), {recursive: true})
    await until(() => output.stdout.includes('org/doc.org removed'), 'the removal of the folder reported')
    fs.mkdirSync(path.join(dir, 'org'))
    // Code that checks: a save that does not would leave the last good output in place (the next test).
    fs.writeFileSync(path.join(dir, 'org/back.org'), block('back.ts', 'export const back = 1'))
    await until(tangled('back.ts', 'export const back = 1\n'), 'the document of the folder made again tangled')
    fs.writeFileSync(path.join(dir, 'org/back.org'), block('back.ts', 'export const back = 2'))
    await until(tangled('back.ts', 'export const back = 2\n'), 'its next save tangled')
  } finally {
    status = await stop()
  }
  expect(status).toBe(0)
})

it('leaves the files a save writes as they were when the save does not check, and says so', async () => {
  const dir = projectWithOneDocument()
  const good = block('typed.ts', 'export const n: number = 1')
  fs.writeFileSync(path.join(dir, 'org/typed.org'), good)
  const {output, until, stop} = watching(dir)
  const read = (file: string) => fs.readFileSync(path.join(dir, 'org', file), 'utf8')
  let status: number | null
  try {
    await until(() => output.stdout.includes('watching org for changes'), 'its first check')
    expect(read('typed.ts')).toBe('export const n: number = 1\n')
    // A type error, and a file the save would add: neither reaches the disk.
    const broken = `${block('typed.ts', "export const n: number = 'one'")}${block('extra.ts', 'export const e = 1')}`
    fs.writeFileSync(path.join(dir, 'org/typed.org'), broken)
    await until(() => /^org\/typed\.org:2:14: error TS2322: /m.test(output.stderr), 'the type error')
    expect(read('typed.ts')).toBe('export const n: number = 1\n')
    await until(() => output.stdout.includes('org/typed.org: its last good output stays'), 'the save kept out')
    expect(fs.existsSync(path.join(dir, 'org/extra.ts'))).toBe(false)
    // The document is not taken for tangled: a tangle would write it (the cache is not fooled).
    const dry = spawnSync(cli, ['tangle', '--dry-run', 'org/typed.org'], {cwd: dir, encoding: 'utf8'})
    expect(dry.stdout).toMatch(/^would write org\/typed\.ts /m)
    // Mended, it is written, and nothing calls the file put back a hand edit.
    fs.writeFileSync(path.join(dir, 'org/typed.org'), block('typed.ts', 'export const n: number = 3'))
    await until(() => read('typed.ts') === 'export const n: number = 3\n', 'the mended save written')
    expect(output.stderr).not.toContain('tangle/overwrites-edit')
  } finally {
    status = await stop()
  }
  expect(status).toBe(0)
})

it('with --detangle, brings a saved generated file back into its document, once per save, and never its own tangle', async () => {
  const dir = projectWithOneDocument()
  const source = (value: string) => block('../generated/doc.ts :mkdirp yes', `export const value = ${value}`)
  fs.writeFileSync(path.join(dir, 'org/doc.org'), source('1'))
  const {output, until, stop} = watching(dir, ['--detangle'])
  const generated = path.join(dir, 'generated/doc.ts')
  const org = () => fs.readFileSync(path.join(dir, 'org/doc.org'), 'utf8')
  const count = (text: string) => output.stdout.split('\n').filter((line) => line === text).length
  let status: number | null
  try {
    await until(() => output.stdout.includes('watching org'), 'its first check')
    expect(fs.readFileSync(generated, 'utf8')).toBe('export const value = 1\n')

    // An editor's save: a temporary file renamed over the file. One detangle, said as the command says it; the
    // document's save that follows is tangled and writes nothing.
    fs.writeFileSync(path.join(dir, 'generated/.doc.ts.tmp'), 'export const value = 2\n')
    fs.renameSync(path.join(dir, 'generated/.doc.ts.tmp'), generated)
    await until(() => org() === source('2'), 'the edit in the document')
    await until(() => count('detangled 1 file into 1 document') === 1, 'the detangle said')
    expect(output.stdout).toContain('org/doc.org:2 ← generated/doc.ts:1')
    await until(() => /^tangled 1 block from 1 document into 1 file \(1 unchanged\)/m.test(output.stdout), 'its tangle')

    // The watcher's own tangle of a saved document is no edit of the file: nothing goes back, nothing is refused.
    fs.writeFileSync(path.join(dir, 'org/doc.org'), source('3'))
    await until(() => fs.readFileSync(generated, 'utf8') === 'export const value = 3\n', 'the save tangled')

    // A save in two writes: one detangle.
    fs.writeFileSync(generated, 'export const value')
    fs.appendFileSync(generated, ' = 4\n')
    await until(() => org() === source('4'), 'the second edit in the document')
    await until(() => count('detangled 1 file into 1 document') === 2, 'the second detangle said')
    const unchanged = /^tangled 1 block from 1 document into 1 file \(1 unchanged\)/gm
    await until(() => output.stdout.match(unchanged)?.length === 2, 'the tangle of the document it rewrote')

    // A refusal is said at its place, and the file left as it is.
    fs.writeFileSync(generated, 'export const value = 5\r\n')
    await until(() => output.stderr.includes('[detangle/round-trip]'), 'the refusal')
    expect(output.stderr).toMatch(/^org\/doc\.org:1:1: error: .*\[detangle\/round-trip\]$/m)
    expect(fs.readFileSync(generated, 'utf8')).toBe('export const value = 5\r\n')
    expect(org()).toBe(source('4'))
    expect(output.stdout).toContain('detangled 0 files into 0 documents; 1 edit refused')
    expect(count('detangled 1 file into 1 document')).toBe(2)
    expect(output.stderr).not.toMatch(/detangle\/(both-edited|spans-blocks|computed-line)|tangle\/overwrites-edit/)
  } finally {
    status = await stop()
  }
  expect(status).toBe(0)
})
