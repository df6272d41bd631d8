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

const cli = path.resolve(import.meta.dirname, '../bin/passepartout')

function run(args: string[], cwd: string) {
  const result = spawnSync(cli, args, {cwd, encoding: 'utf8'})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-failures-'))
  for (const [file, text] of Object.entries({'package.json': '{}', ...files})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

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
