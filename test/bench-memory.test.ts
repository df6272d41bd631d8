/**
 * bench/proc-memory.ts: the memory of a real process tree, read from /proc as the footprint and boot benches read it.
 * Two bare Node processes share Node's binary: each one's resident figure counts its pages, their proportional shares
 * (Pss) split them, so the tree's share is below the sum of its residents and above its own pages.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {afterAll, expect, it} from 'vitest'
import {memoryOfTree, sumOf} from '../bench/proc-memory.ts'

const started: ChildProcess[] = []
afterAll(() => {
  // The whole group: the second process too.
  for (const child of started) process.kill(-child.pid!)
})

/** A Node process that starts a second one and waits: a tree of two, both ready once it says so. */
async function treeOfTwo(): Promise<ChildProcess> {
  const inner = `require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log(1)'], {stdio: 'inherit'}); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['-e', inner], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  })
  started.push(child)
  await once(child.stdout!, 'data')
  return child
}

it('reads each process of a tree with its resident memory, its own pages and its proportional share', async () => {
  const child = await treeOfTwo()
  const processes = memoryOfTree(child.pid!)
  expect(processes.map((each) => each.pid)[0]).toBe(child.pid)
  expect(processes).toHaveLength(2)
  for (const each of processes) {
    expect(each.ownKb).toBeGreaterThan(0)
    expect(each.pssKb).toBeGreaterThan(each.ownKb)
    expect(each.pssKb).toBeLessThan(each.rssKb)
  }
  expect(sumOf(processes, 'pssKb')).toBeLessThan(sumOf(processes, 'rssKb'))
})

it('reads nothing of a process that has ended', async () => {
  const child = spawn(process.execPath, ['-e', '0'])
  await once(child, 'exit')
  expect(memoryOfTree(child.pid!)).toEqual([])
})
