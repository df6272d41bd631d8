/**
 * The `passepartout tangle` command line, run as a real process on real
 * folders: exit statuses, message format, summary, dry runs, JSON, unchanged
 * files, safety refusals.
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

/** The place and rule of each diagnostic on STDERR (`org/a.org:1:1 tangle/outside-root`), its note and help lines left out. */
const placesAndRules = (stderr: string) =>
  stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('  '))
    .map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)

/** A fresh folder holding FILES (relative path → text). */
function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-cli-'))
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const block = (target: string, body: string, args = '') => `#+begin_src typescript :tangle ${target}${args}\n${body}\n#+end_src\n`
const listFiles = (dir: string) => (fs.readdirSync(dir, {recursive: true}) as string[]).sort()

describe('passepartout tangle', () => {
  it('writes the targets and prints a summary line', () => {
    const dir = folder({'doc.org': `* A\n${block('a.ts', 'export const a = 1;')}${block('b.ts', 'export const b = 2;')}`})
    const result = run(['tangle', 'doc.org'], dir)
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^tangled 2 blocks from 1 document into 2 files \(0 unchanged\) in \d+ ms\n$/)
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('export const a = 1;\n')
  })

  it('keeps unchanged files untouched, mtime included', () => {
    const dir = folder({'doc.org': block('a.ts', 'x')})
    run(['tangle', 'doc.org'], dir)
    const past = new Date('2020-01-01T00:00:00Z')
    fs.utimesSync(path.join(dir, 'a.ts'), past, past)
    const result = run(['tangle', 'doc.org'], dir)
    expect(result.stdout).toMatch(/into 1 file \(1 unchanged\)/)
    expect(fs.statSync(path.join(dir, 'a.ts')).mtime.toISOString()).toBe(past.toISOString())
  })

  it('reports errors as path:line:column: error: reason [rule], exits 1 and writes nothing of that document', () => {
    const dir = folder({'bad.org': `* A\n${block('ok.ts', 'ok')}${block('missing/dir/x.ts', 'x')}`, 'good.org': block('good.ts', 'good')})
    const result = run(['tangle', 'bad.org', 'good.org', '--no-frames'], dir)
    expect(result.status).toBe(1)
    // The line problem matchers read, then Emacs's own words, then the way out.
    expect(result.stderr).toMatch(/^bad\.org:5:1: error: .* \[tangle\/missing-directory\]\n  note: Emacs: .+\n  help: add :mkdirp yes\n/m)
    expect(listFiles(dir)).toEqual(['bad.org', 'good.org', 'good.ts'])
  })

  it('prints warnings without failing', () => {
    const dir = folder({'doc.org': '#+begin_src typescript :TANGLE x.ts\nx\n#+end_src\n'})
    const result = run(['tangle', 'doc.org'], dir)
    expect(result.status).toBe(0)
    expect(result.stderr).toMatch(/^doc\.org:1:24: warning: .* \[header\/unknown-argument\]$/m)
  })

  it('shows the Org lines around a diagnostic with --frames', () => {
    const dir = folder({'doc.org': '* A\n#+begin_src sh :tangle a.sh\nnever closed\n'})
    const result = run(['tangle', 'doc.org', '--frames'], dir)
    expect(result.stderr).toContain('> 2 | #+begin_src sh :tangle a.sh\n    | ^')
  })

  it('lists what would be written with --dry-run, and writes nothing', () => {
    const dir = folder({'doc.org': block('a.ts', 'x')})
    const result = run(['tangle', 'doc.org', '--dry-run'], dir)
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^would write a\.ts \(1 blocks from doc\.org\)$/m)
    expect(listFiles(dir)).toEqual(['doc.org'])
  })

  it('prints a machine-readable report with --json', () => {
    const dir = folder({'doc.org': `${block('a.ts', 'x', ' :shebang "#!/usr/bin/env node"')}#+begin_src sh :TANGLE x\n#+end_src\n`})
    const report = JSON.parse(run(['tangle', 'doc.org', '--json'], dir).stdout)
    expect(Object.keys(report)[0]).toBe('version')
    expect(report.version).toBe(1)
    expect(report.documents[0].targets).toEqual([{path: 'a.ts', status: 'written', blocks: [1], mode: '0755', lines: 2}])
    // The one JSON form of a diagnostic: every field, in this order, null where absent.
    expect(report.diagnostics).toEqual([
      {
        file: 'doc.org',
        line: 4,
        column: 16,
        endLine: 4,
        endColumn: 23,
        severity: 'warning',
        rule: 'header/unknown-argument',
        code: null,
        reason: expect.stringContaining(':TANGLE'),
        note: null,
        expected: ['did you mean :tangle?'],
        url: 'docs/reference/rules.md#rule-header-unknown-argument',
      },
    ])
    expect(Object.keys(report.diagnostics[0])).toEqual(['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'rule', 'code', 'reason', 'note', 'expected', 'url'])
  })

  it('works from any directory, writing exactly the targets of a lone file', () => {
    const dir = folder({'notes/doc.org': block('out.ts', 'x')})
    const result = run(['tangle', path.join(dir, 'notes/doc.org')], os.tmpdir())
    expect(result.status).toBe(0)
    expect(listFiles(dir)).toEqual(['notes', 'notes/doc.org', 'notes/out.ts'])
  })

  it("refuses a target outside the Org file's folder, unless --allow-outside", () => {
    const dir = folder({'notes/doc.org': block('../escape.ts', 'x')})
    const refused = run(['tangle', 'notes/doc.org', '--no-frames'], dir)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/\[tangle\/outside-root\]/)
    expect(fs.existsSync(path.join(dir, 'escape.ts'))).toBe(false)
    expect(run(['tangle', 'notes/doc.org', '--allow-outside'], dir).status).toBe(0)
    expect(fs.existsSync(path.join(dir, 'escape.ts'))).toBe(true)
  })

  it('lets targets into the folders named by --allow-outside=DIR, and no others', () => {
    const dir = folder({'proj/package.json': '{}', 'proj/org/doc.org': block('../../shared/out.ts', 'x'), 'proj/org/other.org': block('../../elsewhere/out.ts', 'y'), 'shared/.keep': '', 'elsewhere/.keep': ''})
    const result = run(['tangle', '--no-frames', '--allow-outside=../shared'], path.join(dir, 'proj'))
    expect(result.status).toBe(1)
    expect(placesAndRules(result.stderr)).toEqual(['org/other.org:1:1 tangle/outside-root'])
    expect(fs.readFileSync(path.join(dir, 'shared/out.ts'), 'utf8')).toBe('x\n')
    expect(fs.existsSync(path.join(dir, 'elsewhere/out.ts'))).toBe(false)
  })

  it('lets targets under the home folder go where package.json allows them ("allowOutside": ["~/.config"])', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-home-'))
    const dir = folder({
      'package.json': JSON.stringify({passepartout: {allowOutside: ['~/.config']}}),
      'org/dots.org': block('~/.config/app/init.el', 'x', ' :mkdirp yes'),
      'org/stray.org': block('~/.bashrc', 'y'),
    })
    const result = spawnSync(cli, ['tangle', '--no-frames'], {cwd: dir, encoding: 'utf8', env: {...process.env, HOME: home}})
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^org\/stray\.org:1:1: error: .*\[tangle\/outside-root\]\n  help: allow its folder with --allow-outside=.*\n$/)
    expect(fs.readFileSync(path.join(home, '.config/app/init.el'), 'utf8')).toBe('x\n')
    expect(fs.existsSync(path.join(home, '.bashrc'))).toBe(false)
  })

  it('says when the allowOutside setting is not a list of folders, and allows nothing', () => {
    const dir = folder({'package.json': JSON.stringify({passepartout: {allowOutside: '~/.config'}}), 'org/doc.org': block('../../x.ts', 'x')})
    const result = run(['tangle', '--no-frames'], dir)
    expect(result.status).toBe(1)
    expect(placesAndRules(result.stderr)).toEqual(['package.json config/invalid', 'org/doc.org:1:1 tangle/outside-root'])
  })

  it('refuses both documents when two write the same target', () => {
    const dir = folder({'one.org': block('same.ts', 'one'), 'two.org': block('same.ts', 'two')})
    const result = run(['tangle', '.', '--no-frames'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr.match(/\[tangle\/target-conflict\]/g)).toHaveLength(2)
    expect(fs.existsSync(path.join(dir, 'same.ts'))).toBe(false)
  })

  it('refuses a skill document that tangles into node_modules/, and writes none of it; other documents tangle as Emacs does', () => {
    const dir = folder({
      'package.json': '{}',
      'node_modules/zod/index.js': 'original',
      'org/skills/evil.org': `* Evil\n${block('../../generated/skills/evil.ts', 'export const x = 1', ' :mkdirp yes')}${block('../../node_modules/zod/index.js', 'hijacked', ' :mkdirp yes')}`,
      'org/skills/fine.org': block('../../generated/skills/fine.ts', 'export const y = 2', ' :mkdirp yes'),
      'org/notes.org': block('../generated/core/notes.ts', 'export const z = 3', ' :mkdirp yes'),
    })
    const result = run(['tangle'], dir)
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(`org/skills/evil.org:5:1: error: a skill document may not tangle into node_modules/, where packages are loaded from: ${path.join(dir, 'node_modules/zod/index.js')} [sandbox/tangle-target]\n`)
    expect(fs.readFileSync(path.join(dir, 'node_modules/zod/index.js'), 'utf8')).toBe('original')
    expect(listFiles(path.join(dir, 'generated'))).toEqual(['core', 'core/notes.ts', 'skills', 'skills/fine.ts'])
  })

  it('refuses a target that is a directory', () => {
    const dir = folder({'doc.org': block('sub', 'x'), 'sub/keep': ''})
    expect(run(['tangle', 'doc.org'], dir).stderr).toMatch(/\[tangle\/target-is-directory\]/)
  })

  it('tangles the project org/ folder by default, targets anywhere in the project', () => {
    const dir = folder({'package.json': '{}', 'org/core/a.org': block('../../generated/core/a.ts', 'a', ' :mkdirp yes'), 'org/skills/b.org': block('b.ts', 'b')})
    const result = run(['tangle'], path.join(dir, 'org'))
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/tangled 2 blocks from 2 documents into 2 files/)
    expect(fs.readFileSync(path.join(dir, 'generated/core/a.ts'), 'utf8')).toBe('a\n')
  })

  it('sets modes as Emacs does and resets them when the header changes', () => {
    const dir = folder({'doc.org': block('run.sh', 'echo', ' :shebang "#!/bin/sh"')})
    run(['tangle', 'doc.org'], dir)
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o755)
    fs.writeFileSync(path.join(dir, 'doc.org'), block('run.sh', 'echo', ' :shebang "#!/bin/sh" :tangle-mode (identity #o700)'))
    const result = run(['tangle', 'doc.org'], dir)
    expect(result.stdout).toMatch(/\(0 unchanged\)/)
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o700)
  })

  it('exits 2 on usage errors', () => {
    const dir = folder({})
    expect(run(['frobnicate'], dir).status).toBe(2)
    expect(run(['tangle', '--nope'], dir).status).toBe(2)
    expect(run(['tangle', 'missing.org'], dir).status).toBe(2)
    expect(run([], dir).status).toBe(2)
  })

  describe('the cache of unchanged documents', () => {
    /** A project (package.json and node_modules/, where the cache lives) with one document. */
    const project = (text: string) => folder({'package.json': '{}', 'node_modules/.keep': '', 'org/doc.org': text})
    const cachedFlags = (dir: string, extra: string[] = []) => JSON.parse(run(['tangle', '--json', ...extra], dir).stdout).documents.map((d: {cached: boolean}) => d.cached)

    it('reuses an unchanged document and still reports its warnings', () => {
      const dir = project(`#+begin_src typescript :tangle a.ts :TANGLE b.ts\nx\n#+end_src\n`)
      const first = run(['tangle', '--json'], dir)
      expect(JSON.parse(first.stdout).documents[0].cached).toBe(false)
      const again = run(['tangle', '--json'], dir)
      expect(JSON.parse(again.stdout).documents[0]).toMatchObject({cached: true, blocks: 1, targets: [{path: 'org/a.ts', status: 'unchanged', blocks: [1], lines: 1}]})
      expect(again.stderr).toMatch(/^org\/doc\.org:1:37: warning: .* \[header\/unknown-argument\]$/m)
      expect(again.stderr).toBe(first.stderr)
      expect(cachedFlags(dir, ['--no-cache'])).toEqual([false])
    })

    it('tangles again when the Org file changes', () => {
      const dir = project(block('a.ts', 'one'))
      run(['tangle'], dir)
      fs.writeFileSync(path.join(dir, 'org/doc.org'), block('a.ts', 'two'))
      expect(cachedFlags(dir)).toEqual([false])
      expect(fs.readFileSync(path.join(dir, 'org/a.ts'), 'utf8')).toBe('two\n')
    })

    it('rewrites a target that was edited or deleted by hand', () => {
      const dir = project(block('a.ts', 'one'))
      run(['tangle'], dir)
      fs.writeFileSync(path.join(dir, 'org/a.ts'), 'edited by hand\n')
      expect(cachedFlags(dir)).toEqual([false])
      expect(fs.readFileSync(path.join(dir, 'org/a.ts'), 'utf8')).toBe('one\n')
      fs.rmSync(path.join(dir, 'org/a.ts'))
      expect(cachedFlags(dir)).toEqual([false])
      expect(fs.readFileSync(path.join(dir, 'org/a.ts'), 'utf8')).toBe('one\n')
    })

    it('still refuses a new document that claims the target of a cached one', () => {
      const dir = project(block('a.ts', 'one'))
      run(['tangle'], dir)
      fs.writeFileSync(path.join(dir, 'org/other.org'), block('a.ts', 'two'))
      const result = run(['tangle', '--no-frames'], dir)
      expect(result.status).toBe(1)
      expect(result.stderr.match(/\[tangle\/target-conflict\]/g)).toHaveLength(2)
      expect(fs.readFileSync(path.join(dir, 'org/a.ts'), 'utf8')).toBe('one\n')
      fs.rmSync(path.join(dir, 'org/other.org'))
      expect(cachedFlags(dir)).toEqual([false])
    })

    it('does not cache a document that failed', () => {
      const dir = project(block('missing/a.ts', 'x'))
      expect(run(['tangle'], dir).status).toBe(1)
      expect(run(['tangle'], dir).status).toBe(1)
    })
  })
})
