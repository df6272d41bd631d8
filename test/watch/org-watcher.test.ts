/**
 * The Org watcher on a real folder with a real chokidar watcher: settled
 * batches, only Org files, removals, a folder deleted and made again.
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

/** How long a test waits for a batch. */
const WAIT_MS = 5000

interface WatchedOptions {
  settleMs?: number
  pollMs?: number
  /** Sees each batch as it is delivered, in the watcher's own turn. */
  onBatch?: (batch: OrgChange[]) => void
  /** The folder watched, in the fresh one, not made: a project whose org/ is not there yet. */
  under?: string
}

/** Watch a fresh folder holding FILES; batches arrive on the returned queue. */
async function watched(files: Record<string, string>, options: WatchedOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watch-'))
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  const batches: OrgChange[][] = []
  let arrived = () => {}
  const onChanges = (batch: OrgChange[]) => {
    options.onBatch?.(batch)
    batches.push(batch)
    arrived()
  }
  const root = options.under === undefined ? dir : path.join(dir, options.under)
  watcher = watchOrgFiles([root], onChanges, {settleMs: options.settleMs ?? 100, pollMs: options.pollMs})
  await watcher.ready
  /** The next batch, once it comes; WHAT names it when it does not. */
  const next = (what = 'a batch') =>
    new Promise<OrgChange[]>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms`)), WAIT_MS)
      arrived = () => {
        if (batches.length === 0) return
        clearTimeout(late)
        arrived = () => {}
        resolve(batches.shift()!)
      }
      arrived()
    })
  return {dir, next}
}

const changed = (file: string) => ({kind: 'changed', path: file, at: expect.any(Number)})

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
    const {dir, next} = await watched({'a.org': 'a'}, {settleMs: 5})
    fs.writeFileSync(path.join(dir, 'a.org'), 'a1')
    expect(await next()).toEqual([changed(path.join(dir, 'a.org'))])
    fs.writeFileSync(path.join(dir, 'a.org'), 'a2')
    expect(await next('the save within 50 ms')).toEqual([changed(path.join(dir, 'a.org'))])
    // Each save once, though both chokidar and the file system's own events report it: a later save of another
    // document comes alone, after whatever reported the first again.
    fs.writeFileSync(path.join(dir, 'b.org'), 'b')
    expect(await next('the save of b.org')).toEqual([changed(path.join(dir, 'b.org'))])
  })

  it('reports new files, new folders and removals', async () => {
    const {dir, next} = await watched({'a.org': 'a'})
    fs.rmSync(path.join(dir, 'a.org'))
    expect(await next()).toEqual([{kind: 'removed', path: path.join(dir, 'a.org'), at: expect.any(Number)}])
    fs.mkdirSync(path.join(dir, 'skills'))
    fs.writeFileSync(path.join(dir, 'skills/new.org'), 'new')
    expect(await next('the new file in the new folder')).toEqual([changed(path.join(dir, 'skills/new.org'))])
  })

  it('watches its folder again when it is deleted and made again, at once or later: no save is missed', async () => {
    // A save made in the folder in the turn its first document back is reported.
    let first = ''
    let saving = ''
    const onBatch = (batch: OrgChange[]) => {
      if (batch.some((change) => change.kind === 'changed' && change.path === first)) fs.writeFileSync(saving, 'saved')
    }
    const {dir, next} = await watched({'a.org': 'a'}, {settleMs: 0, pollMs: 10, onBatch})
    first = path.join(dir, 'first.org')
    for (const round of ['at once', 'once its removal was reported']) {
      saving = path.join(dir, `saved ${round}.org`)
      fs.rmSync(dir, {recursive: true})
      if (round !== 'at once') {
        expect(await next(`the removal (${round})`)).toContainEqual(expect.objectContaining({kind: 'removed'}))
      }
      fs.mkdirSync(dir)
      fs.writeFileSync(first, round)
      const back: OrgChange[] = []
      while (!back.some((change) => change.path === saving)) back.push(...(await next(`the save in it (${round})`)))
      const changes = back.filter((change) => change.kind === 'changed').map((change) => path.basename(change.path))
      expect(changes.sort()).toEqual(['first.org', `saved ${round}.org`])
    }
  })

  it('watches a folder that is not there yet once it is made, the documents it came with included', async () => {
    const {dir, next} = await watched({}, {under: 'org', pollMs: 10})
    const org = path.join(dir, 'org')
    // Made elsewhere with its first document, then moved into place in one step, as a checkout or an unpacking does.
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-made-'))
    fs.writeFileSync(path.join(made, 'first.org'), 'first')
    fs.renameSync(made, org)
    expect(await next('the document the folder came with')).toEqual([changed(path.join(org, 'first.org'))])
    // Made as an editor saves a first skill: its folders, then the document, at once.
    fs.mkdirSync(path.join(org, 'skills'))
    fs.writeFileSync(path.join(org, 'skills/weather.org'), 'weather')
    expect(await next('the first skill')).toEqual([changed(path.join(org, 'skills/weather.org'))])
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
