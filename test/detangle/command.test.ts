/**
 * `passepartout detangle`, run as a real process on a real project: what it prints, its exit status, and that a
 * tangle after it neither warns of the edit nor writes the file (the record was brought up to date).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

function run(args: string[], cwd: string) {
  // A deadline of its own: a command that waits on a named pipe must fail here, not hold the file's run.
  const result = spawnSync(cli, args, {cwd, encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}, timeout: 20_000})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

const counter = `* Counter
#+begin_src typescript :tangle ../generated/counter.ts
export let count = 0
#+end_src

#+begin_src typescript :tangle ../generated/counter.ts
export function increment(): number {
  count += 1
  return count
}
#+end_src
`

const shared = `* Two
#+begin_src typescript :tangle ../generated/shared.ts :noweb yes
export class A {
  <<polite>>
}
export class B {
  <<polite>>
}
#+end_src

#+name: polite
#+begin_src typescript
readonly polite = true
#+end_src
`

/** A project with org/counter.org and org/shared.org, tangled, and generated/counter.ts renamed through. */
function editedProject(): string {
  const dir = tempProject({'org/counter.org': counter, 'org/shared.org': shared, 'generated/.keep': ''})
  expect(run(['tangle'], dir).status).toBe(0)
  const file = path.join(dir, 'generated/counter.ts')
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll(/\bcount\b/g, 'counter'))
  return dir
}

describe('passepartout detangle', () => {
  it('brings every edited file back, says where each region went, and leaves nothing for tangle to replace', () => {
    const dir = editedProject()
    const result = run(['detangle', '--no-frames'], dir)
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe(
      'org/counter.org:3 ← generated/counter.ts:1\n' +
        'org/counter.org:8-9 ← generated/counter.ts:4-5\n' +
        'detangled 1 file into 1 document\n',
    )
    expect(result.status).toBe(0)
    expect(fs.readFileSync(path.join(dir, 'org/counter.org'), 'utf8')).toBe(counter.replaceAll(/\bcount\b/g, 'counter'))
    const tangled = run(['tangle'], dir)
    expect(tangled.stderr).toBe('')
    expect(tangled.stdout).toMatch(/into 2 files \(2 unchanged\)/)
  })

  it('takes the files named, and a folder for the edited files under it', () => {
    const dir = editedProject()
    expect(run(['detangle', 'generated/shared.ts'], dir).stdout).toBe('detangled 0 files into 0 documents\n')
    expect(run(['detangle', 'generated'], dir).stdout).toMatch(/^org\/counter.org:3 ← generated\/counter.ts:1\n/)
  })

  it('leaves a file that holds what was written alone, though its document changed since', () => {
    const dir = tempProject({'org/counter.org': counter, 'generated/.keep': ''})
    expect(run(['tangle'], dir).status).toBe(0)
    fs.writeFileSync(path.join(dir, 'org/counter.org'), counter.replace('count = 0', 'count = 1'))
    const result = run(['detangle', 'generated/counter.ts'], dir)
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('detangled 0 files into 0 documents\n')
    expect(result.status).toBe(0)
  })

  it('writes a document reached through a link where the link leads, the link kept', () => {
    const dir = tempProject({'notes/counter.org': counter, 'generated/.keep': ''})
    fs.mkdirSync(path.join(dir, 'org'))
    fs.symlinkSync('../notes/counter.org', path.join(dir, 'org/counter.org'))
    expect(run(['tangle'], dir).status).toBe(0)
    const file = path.join(dir, 'generated/counter.ts')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll(/\bcount\b/g, 'counter'))
    expect(run(['detangle'], dir).status).toBe(0)
    expect(fs.lstatSync(path.join(dir, 'org/counter.org')).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(path.join(dir, 'notes/counter.org'), 'utf8')).toBe(
      counter.replaceAll(/\bcount\b/g, 'counter'),
    )
  })

  it('says a generated file that is a named pipe cannot be read, at once, and brings the others back', () => {
    const dir = editedProject()
    const shared = path.join(dir, 'generated/shared.ts')
    fs.rmSync(shared)
    spawnSync('mkfifo', [shared])
    const result = run(['detangle', '--no-frames'], dir)
    expect([result.status, result.stderr]).toEqual([
      1,
      expect.stringMatching(/^generated\/shared\.ts: error: .*not a regular file.* \[io\/read\]\n/),
    ])
    expect(fs.readFileSync(path.join(dir, 'org/counter.org'), 'utf8')).toContain('export let counter = 0')
  })

  it('takes nothing through a generated file replaced by a link (to a file outside the project), brings the others back', () => {
    const dir = editedProject()
    // A file outside the project that reads as an edit of generated/shared.ts: its last line would go back.
    const file = path.join(dir, 'generated/shared.ts')
    const outside = tempProject({'secret.ts': `${fs.readFileSync(file, 'utf8')}export const secret = 1\n`})
    fs.rmSync(file)
    fs.symlinkSync(path.join(outside, 'secret.ts'), file)
    const result = run(['detangle', '--no-frames'], dir)
    expect([result.status, result.stderr]).toEqual([
      1,
      expect.stringMatching(/^generated\/shared\.ts:1:1: error: .*link.* \[detangle\/link\]\n/),
    ])
    expect(fs.readFileSync(path.join(dir, 'org/shared.org'), 'utf8')).toBe(shared)
    expect(fs.readFileSync(path.join(dir, 'org/counter.org'), 'utf8')).toContain('export let counter = 0')
  })

  it('refuses, at the Org line, with the rule, and exits 1 leaving the document as it was', () => {
    const dir = editedProject()
    const file = path.join(dir, 'generated/shared.ts')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('polite = true', 'polite = false'))
    fs.writeFileSync(path.join(dir, 'generated/stray.ts'), 'export {}\n')
    const result = run(['detangle', '--no-frames', 'generated/shared.ts', 'generated/stray.ts'], dir)
    expect(result.status).toBe(1)
    const firstLines = result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('  '))
    expect(firstLines.map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)).toEqual([
      'generated/stray.ts:1:1 detangle/no-record',
      'org/shared.org:13:1 detangle/shared-noweb',
    ])
    expect(result.stderr).toContain('also written at generated/shared.ts:5')
    expect(fs.readFileSync(path.join(dir, 'org/shared.org'), 'utf8')).toBe(shared)
  })

  it.each([
    ['a NUL byte', (text: string) => Buffer.from(text.replace('counter = 0', 'counter = "\0"')), 'a NUL byte'],
    [
      'bytes that are not UTF-8',
      (text: string) => Buffer.from(text.replace('counter = 0', 'counter = "caf\u00e9"'), 'latin1'),
      'bytes that are not UTF-8',
    ],
  ])('refuses an edited file holding %s at the file, saying what is wrong with its bytes', (_name, bytesOf, what) => {
    const dir = editedProject()
    const file = path.join(dir, 'generated/counter.ts')
    fs.writeFileSync(file, bytesOf(fs.readFileSync(file, 'utf8')))
    const result = run(['detangle', '--no-frames'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(`^generated/counter\\.ts:1:\\d+: error: line 1 holds ${what}: .* \\[detangle/not-text\\]$`, 'm'),
    )
    expect(result.stderr).not.toContain('no longer writes')
    expect(fs.readFileSync(path.join(dir, 'org/counter.org'), 'utf8')).toBe(counter)
  })

  it('names a generated file over 16 MiB relative to the working folder', () => {
    const dir = editedProject()
    fs.writeFileSync(path.join(dir, 'generated/counter.ts'), Buffer.alloc(16 * 1024 * 1024 + 1, 'a'))
    const result = run(['detangle', '--no-frames'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /^generated\/counter\.ts: error: cannot read generated\/counter\.ts: .* \[io\/read\]$/m,
    )
    expect(result.stderr).not.toContain(dir)
  })
})
