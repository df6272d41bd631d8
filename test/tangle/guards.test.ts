/**
 * Behaviours that breaking the code once left unguarded: each test here
 * fails when its behaviour breaks (checked by breaking it).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {olderThan} from '../support/file-age.ts'
import {tempProject} from '../support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

const folder = (files: Record<string, string>) => tempProject(files, 'passepartout-guards-')

const tangle = (dir: string, ...args: string[]) => spawnSync(cli, ['tangle', '--no-frames', ...args], {cwd: dir, encoding: 'utf8'})
/** Each diagnostic's place and rule; its note and help lines (indented) left out. */
const rules = (stderr: string) => stderr.trimEnd().split('\n').filter((line) => line !== '' && !line.startsWith('  ')).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)

describe('guards', () => {
  it('refuses a target that leaves the project through a linked folder', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-outside-'))
    const dir = folder({'org/doc.org': '#+begin_src typescript :tangle ../link/x.ts\nx\n#+end_src\n'})
    fs.symlinkSync(outside, path.join(dir, 'link'))
    const result = tangle(dir)
    expect(result.status).toBe(1)
    expect(rules(result.stderr)).toEqual(['org/doc.org:1:1 tangle/outside-root'])
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it('warns about a noweb reference that names no block, where it is', () => {
    const dir = folder({'org/doc.org': '#+begin_src typescript :tangle ../x.ts :noweb yes\nconst a = 1\n<<missing>>\n#+end_src\n'})
    const result = tangle(dir)
    expect(result.status).toBe(0)
    expect(rules(result.stderr)).toEqual(['org/doc.org:3:1 noweb/unresolved'])
    expect(fs.readFileSync(path.join(dir, 'x.ts'), 'utf8')).toBe('const a = 1\n')
  })

  it("takes a block's header arguments from its parent heading", () => {
    const dir = folder({'org/doc.org': '* Parent\n:PROPERTIES:\n:header-args: :tangle ../parent.ts\n:END:\n** Child\n#+begin_src typescript\nfrom the child\n#+end_src\n'})
    expect(tangle(dir).status).toBe(0)
    expect(fs.readFileSync(path.join(dir, 'parent.ts'), 'utf8')).toBe('from the child\n')
  })
})

describe('the tangle cache and a file saved twice in one clock tick', () => {
  it('does not trust the stamp of a file changed within the clock tick of now, and trusts it once that has passed', async () => {
    const {tangle} = await import('../../tools/tangle/tangle.ts')
    const {TangleCache} = await import('../../tools/tangle/cache.ts')
    const dir = folder({'node_modules/.keep': ''})
    const doc = path.join(dir, 'doc.org')
    const run = async () => tangle({files: [doc], cache: TangleCache.open(dir, {tool: 'test', allowOutside: []})})
    fs.writeFileSync(doc, '#+begin_src typescript :tangle out.ts\nsave 1\n#+end_src\n')
    // A time ahead of the clock stands for "changed in this very tick", whatever the machine's speed.
    const ahead = new Date(Date.now() + 60_000)
    fs.utimesSync(doc, ahead, ahead)
    await run()
    expect((await run()).documents[0]!.cached, 'a racily clean document is read again').toBe(false)
    fs.utimesSync(doc, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    await olderThan(doc, 100)
    await run()
    expect((await run()).documents[0]!.cached, 'once the tick has passed the cache answers').toBe(true)
  })
})

describe('targets that are links or special files', () => {
  it('replaces a link to a file with a file, and writes through a link that leads nowhere, as Emacs 28 does', () => {
    const dir = folder({'real/actual.ts': 'old\n', 'doc.org': '#+begin_src typescript :tangle out.ts\nx\n#+end_src\n#+begin_src typescript :tangle dangling.ts\ny\n#+end_src\n'})
    fs.symlinkSync('real/actual.ts', path.join(dir, 'out.ts'))
    fs.symlinkSync('real/new.ts', path.join(dir, 'dangling.ts'))
    expect(tangle(dir, 'doc.org').status).toBe(0)
    // What Emacs left, seen with Emacs 28.2: out.ts a file of its own, the linked file untouched; new.ts made through the link.
    expect(fs.lstatSync(path.join(dir, 'out.ts')).isFile()).toBe(true)
    expect(fs.readFileSync(path.join(dir, 'out.ts'), 'utf8')).toBe('x\n')
    expect(fs.readFileSync(path.join(dir, 'real/actual.ts'), 'utf8')).toBe('old\n')
    expect(fs.lstatSync(path.join(dir, 'dangling.ts')).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(path.join(dir, 'real/new.ts'), 'utf8')).toBe('y\n')
  })

  it('refuses a link that leads nowhere outside the project', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-outside-'))
    const dir = folder({'doc.org': '#+begin_src typescript :tangle out.ts\nx\n#+end_src\n'})
    fs.symlinkSync(path.join(outside, 'planted.ts'), path.join(dir, 'out.ts'))
    const result = tangle(dir, 'doc.org')
    expect(result.status).toBe(1)
    expect(rules(result.stderr)).toEqual(['doc.org:1:1 tangle/outside-root'])
    expect(fs.existsSync(path.join(outside, 'planted.ts'))).toBe(false)
  })

  it('never touches a device, even where targets may go anywhere', () => {
    const dir = folder({'doc.org': '#+begin_src typescript :tangle /dev/null\nx\n#+end_src\n'})
    const result = tangle(dir, 'doc.org', '--allow-outside')
    expect(result.status).toBe(1)
    expect(rules(result.stderr)).toEqual(['doc.org:1:1 io/write'])
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true)
  })
})
