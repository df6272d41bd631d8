/**
 * `passepartout fmt`, run as a real process on real folders: what it formats
 * by default, `--check`, the lines it prints, and its exit statuses.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {block, project} from './support.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

function run(args: string[], cwd: string) {
  const result = spawnSync(cli, args, {cwd, encoding: 'utf8', timeout: 60_000})
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

const files = {
  'org/doc.org': `* A\n${block(':tangle ../generated/a.ts', 'export const a = {b:1}', 'export const c = 2')}\n`,
  'org/bad.org': `${block(':tangle ../generated/b.ts', 'export const = 2')}\n`,
  'tools/tool.ts': 'export const tool = [1,2];\n',
  'tools/done.ts': 'export const done = 1\n',
  'test/kept.ts': 'export const kept = [1,2];\n',
}

describe('passepartout fmt', () => {
  it("checks the project's org/ and tools/: lists what would change, writes nothing, exits 1", () => {
    const dir = project(files)
    const result = run(['fmt', '--check'], dir)
    expect(result.stdout.split('\n').slice(0, -2)).toEqual([
      'would reformat org/doc.org (1 of 1 block)',
      'would reformat tools/tool.ts',
    ])
    expect(result.stdout).toMatch(/\nwould reformat 2 of 4 files \(1 of 2 blocks\) in \d+ ms\n$/)
    expect(result.stderr).toBe(
      'org/bad.org:2:14: warning: the block does not parse (Variable declaration expected.): it is left as it is ' +
        '[fmt/parse]\n  help: a block that is a fragment parses as a whole program, as the members of a class, or as ' +
        'its start or its end\n',
    )
    expect(result.status).toBe(1)
    expect(fs.readFileSync(path.join(dir, 'tools/tool.ts'), 'utf8')).toBe(files['tools/tool.ts'])
  })

  it('formats them in place, then finds nothing to do', () => {
    const dir = project(files)
    const result = run(['fmt'], dir)
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(
      /^reformatted org\/doc.org \(1 of 1 block\)\nreformatted tools\/tool.ts\nreformatted 2 of 4/,
    )
    expect(fs.readFileSync(path.join(dir, 'tools/tool.ts'), 'utf8')).toBe('export const tool = [1, 2]\n')
    expect(fs.readFileSync(path.join(dir, 'org/doc.org'), 'utf8')).toContain('export const a = {b: 1}\n')
    expect(fs.readFileSync(path.join(dir, 'test/kept.ts'), 'utf8')).toBe(files['test/kept.ts'])
    const again = run(['fmt', '--check'], dir)
    expect(again.stdout).toMatch(/^would reformat 0 of 4 files \(0 of 2 blocks\) in \d+ ms\n$/)
    expect(again.status).toBe(0)
  })

  it('formats the files and folders it is given', () => {
    const dir = project(files)
    const result = run(['fmt', 'test', 'tools/done.ts'], dir)
    expect(result.stdout).toMatch(/^reformatted test\/kept.ts\nreformatted 1 of 2 files in \d+ ms\n$/)
    expect(result.status).toBe(0)
  })

  it('refuses a file it cannot format and one that is not there (exit 2)', () => {
    const dir = project({...files, 'notes.txt': 'x'})
    const text = run(['fmt', 'notes.txt'], dir)
    expect(text.stderr).toMatch(
      /^passepartout fmt: fmt formats \.org, \.ts and \.js files \(and \.mts, \.cts, \.mjs, \.cjs\), not notes.txt\n/,
    )
    expect(text.status).toBe(2)
    const missing = run(['fmt', 'missing.org'], dir)
    expect(missing.stderr).toMatch(/^passepartout fmt: no such file or directory: missing.org\n/)
    expect(missing.status).toBe(2)
  })
})
