/**
 * The Org watcher on a real folder with a real chokidar watcher: settled
 * batches, only Org files, removals.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {type OrgChange, type OrgWatcher, watchOrgFiles} from '../../tools/watch/org-watcher.ts'

let watcher: OrgWatcher | undefined
afterEach(async () => {
  await watcher?.close()
  watcher = undefined
})

/** Watch a fresh folder holding FILES; batches arrive on the returned queue. */
async function watched(files: Record<string, string>, settleMs = 100) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watch-'))
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  const batches: OrgChange[][] = []
  const waiters: (() => void)[] = []
  watcher = watchOrgFiles([dir], (batch) => {
    batches.push(batch)
    waiters.shift()?.()
  }, {settleMs})
  await watcher.ready
  const next = () => (batches.length > 0 ? Promise.resolve(batches.shift()!) : new Promise<OrgChange[]>((resolve) => waiters.push(() => resolve(batches.shift()!))))
  return {dir, next, pending: () => batches.length}
}

describe('watchOrgFiles', () => {
  it('delivers one batch for several writes in quick succession, Org files only', async () => {
    const {dir, next} = await watched({'a.org': 'a', 'sub/b.org': 'b'})
    fs.writeFileSync(path.join(dir, 'a.org'), 'a1')
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not org')
    fs.writeFileSync(path.join(dir, '.#a.org'), 'an Emacs lock file')
    fs.writeFileSync(path.join(dir, 'sub/b.org'), 'b1')
    fs.writeFileSync(path.join(dir, 'a.org'), 'a2')
    expect(await next()).toEqual([
      {kind: 'changed', path: path.join(dir, 'a.org'), at: expect.any(Number)},
      {kind: 'changed', path: path.join(dir, 'sub/b.org'), at: expect.any(Number)},
    ])
  })

  it('reports a change that comes within 50 ms of the last one reported (chokidar\'s own events drop it)', async () => {
    const {dir, next, pending} = await watched({'a.org': 'a'}, 5)
    fs.writeFileSync(path.join(dir, 'a.org'), 'a1')
    expect(await next()).toEqual([{kind: 'changed', path: path.join(dir, 'a.org'), at: expect.any(Number)}])
    fs.writeFileSync(path.join(dir, 'a.org'), 'a2')
    const second = await Promise.race([next(), new Promise((resolve) => setTimeout(() => resolve('not reported'), 2000))])
    expect(second).toEqual([{kind: 'changed', path: path.join(dir, 'a.org'), at: expect.any(Number)}])
    // Each save once, though both chokidar and the file system's own events report it.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(pending()).toBe(0)
  })

  it('reports new files, new folders and removals', async () => {
    const {dir, next} = await watched({'a.org': 'a'})
    fs.rmSync(path.join(dir, 'a.org'))
    expect(await next()).toEqual([{kind: 'removed', path: path.join(dir, 'a.org'), at: expect.any(Number)}])
    fs.mkdirSync(path.join(dir, 'skills'))
    await new Promise((resolve) => setTimeout(resolve, 200))
    fs.writeFileSync(path.join(dir, 'skills/new.org'), 'new')
    expect(await next()).toEqual([{kind: 'changed', path: path.join(dir, 'skills/new.org'), at: expect.any(Number)}])
  })

  it('does not look into node_modules, generated/ or .passepartout/, nor at editors\' own files', async () => {
    const {dir, next} = await watched({'node_modules/x/a.org': '', 'generated/b.org': '', '.passepartout/d.org': '', 'c.org': ''})
    fs.writeFileSync(path.join(dir, 'node_modules/x/a.org'), 'changed')
    fs.writeFileSync(path.join(dir, 'generated/b.org'), 'changed')
    fs.writeFileSync(path.join(dir, '.passepartout/d.org'), 'changed')
    // Emacs's lock link, backup and auto-save files; vim's swap file and its probe of the folder.
    fs.symlinkSync('user@host.1234:1700000000', path.join(dir, '.#c.org'))
    fs.writeFileSync(path.join(dir, 'c.org~'), 'backup')
    fs.writeFileSync(path.join(dir, '#c.org#'), 'auto-save')
    fs.writeFileSync(path.join(dir, '.c.org.swp'), 'swap')
    fs.writeFileSync(path.join(dir, '4913'), '')
    fs.writeFileSync(path.join(dir, 'c.org'), 'changed')
    expect(await next()).toEqual([{kind: 'changed', path: path.join(dir, 'c.org'), at: expect.any(Number)}])
  })
})
