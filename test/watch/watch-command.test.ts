/**
 * `passepartout watch` as a real process on a real project: it checks at
 * start, again after each save (type errors included), keeps the last good
 * output when a document breaks, and stops cleanly on SIGTERM.
 */
import {spawn} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')
const block = (target: string, body: string) => `#+begin_src typescript :tangle ${target}\n${body}\n#+end_src\n`

it('tangles and checks each saved change, and keeps the last good output of a broken document', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watch-cli-'))
  fs.mkdirSync(path.join(dir, 'org'))
  fs.writeFileSync(path.join(dir, 'package.json'), '{}')
  fs.writeFileSync(path.join(dir, 'org/doc.org'), block('doc.ts', 'one'))
  const child = spawn(cli, ['watch', '--no-frames'], {cwd: dir})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stderr += data))
  const until = async (condition: () => boolean) => {
    for (let waited = 0; !condition(); waited += 20) {
      if (waited > 15_000) throw new Error(`timed out; stdout:\n${stdout}\nstderr:\n${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const read = (file: string) => fs.readFileSync(path.join(dir, 'org', file), 'utf8')
  try {
    await until(() => stdout.includes('watching org for changes'))
    expect(stdout).toMatch(/^tangled 1 block from 1 document into 1 file/m)
    expect(read('doc.ts')).toBe('one\n')

    fs.writeFileSync(path.join(dir, 'org/doc.org'), block('doc.ts', 'two'))
    await until(() => fs.readFileSync(path.join(dir, 'org/doc.ts'), 'utf8') === 'two\n')
    await until(() => stdout.includes('org/doc.org changed'))

    fs.writeFileSync(path.join(dir, 'org/doc.org'), block('missing/doc.ts', 'three'))
    await until(() => stderr.includes('[tangle/missing-directory]'))
    expect(stderr).toMatch(/^org\/doc\.org:1:1: error: /m)
    expect(read('doc.ts')).toBe('two\n')

    fs.writeFileSync(path.join(dir, 'org/new.org'), block('new.ts', 'new'))
    await until(() => fs.existsSync(path.join(dir, 'org/new.ts')))
    expect(read('new.ts')).toBe('new\n')

    // A file's name is said as the terminal would not act on it.
    fs.writeFileSync(path.join(dir, 'org/e\u001b[2Jvil.org'), block('evil.ts', 'evil'))
    await until(() => stdout.includes('org/e\\x1b[2Jvil.org'))
    expect(stdout).not.toContain('\u001b')

    // What check prints, type errors included, at the Org line.
    fs.writeFileSync(path.join(dir, 'org/typed.org'), block('typed.ts', "export const n: number = 'not a number'"))
    await until(() => stderr.includes('org/typed.org'))
    expect(stderr).toMatch(/^org\/typed\.org:2:14: error TS2322: Type 'string' is not assignable to type 'number'\. \[ts\]$/m)
    expect(stdout).toMatch(/^checked \d+ TypeScript files?: \d+ errors?, \d+ warnings? in \d+ ms$/m)
  } finally {
    child.kill('SIGTERM')
  }
  const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  expect(status).toBe(0)
}, 30_000)

it('survives a save it cannot write, waits for its folder when the folder is deleted, and tangles it again when it comes back', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watch-cli-'))
  fs.mkdirSync(path.join(dir, 'org'))
  fs.writeFileSync(path.join(dir, 'package.json'), '{}')
  fs.writeFileSync(path.join(dir, 'org/doc.org'), block('doc.ts', 'one'))
  const child = spawn(cli, ['watch', '--no-frames'], {cwd: dir})
  let stdout = ''
  let stderr = ''
  let exited = false
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stderr += data))
  child.on('exit', () => (exited = true))
  const until = async (condition: () => boolean) => {
    for (let waited = 0; !condition(); waited += 20) {
      if (waited > 15_000) throw new Error(`timed out; stdout:\n${stdout}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  try {
    await until(() => stdout.includes('watching org for changes'))
    // A save no file can be written for is an error at its block, not the end of the watcher.
    fs.writeFileSync(path.join(dir, 'org/long.org'), block(`${'n'.repeat(300)}.ts`, 'x'))
    await until(() => stderr.includes('[io/write]'))
    expect(stderr).toMatch(/^org\/long\.org:1:1: error: /m)
    fs.rmSync(path.join(dir, 'org'), {recursive: true})
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(exited).toBe(false)
    fs.mkdirSync(path.join(dir, 'org'))
    fs.writeFileSync(path.join(dir, 'org/back.org'), block('back.ts', 'back'))
    await until(() => fs.existsSync(path.join(dir, 'org/back.ts')))
    fs.writeFileSync(path.join(dir, 'org/back.org'), block('back.ts', 'again'))
    await until(() => fs.readFileSync(path.join(dir, 'org/back.ts'), 'utf8') === 'again\n')
  } finally {
    child.kill('SIGTERM')
  }
  const status = await new Promise((resolve) => (exited ? resolve(0) : child.on('exit', (code) => resolve(code))))
  expect(status).toBe(0)
}, 30_000)
