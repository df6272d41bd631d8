/**
 * Behaviours that breaking the code once left unguarded: each test here
 * fails when its behaviour breaks (checked by breaking it).
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-guards-'))
  for (const [file, text] of Object.entries({'package.json': '{}', ...files})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const tangle = (dir: string, ...args: string[]) => spawnSync(cli, ['tangle', '--no-frames', ...args], {cwd: dir, encoding: 'utf8'})
const rules = (stderr: string) => stderr.trimEnd().split('\n').filter(Boolean).map((line) => `${line.split(': ')[0]} ${/\[([^\]]+)\]$/.exec(line)?.[1]}`)

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
