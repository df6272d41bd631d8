/**
 * The memory of a tree of processes, from /proc (Linux): what the footprint and boot benches print of `passepartout
 * run`. Three figures a process, since a Node process's resident memory is mostly pages it shares:
 *
 * - resident (VmRSS): every page it has in memory, Node's binary and libraries (35-43 MB) included, which every Node
 *   process of the tree maps as well: a sum of residents counts them once a process;
 * - proportional (Pss, /proc/PID/smaps_rollup): a page N processes share counts 1/N in each, so a tree's sum counts
 *   Node's binary once (less when Node processes outside the tree share it too: on a machine that runs others, the
 *   tree's share is that much lower);
 * - own (Private_Clean + Private_Dirty): the pages no other process maps, what the process alone costs.
 */
import fs from 'node:fs'

export interface ProcessMemory {
  pid: number
  command: string
  rssKb: number
  pssKb: number
  ownKb: number
}

/** What the benches' figures of a tree are, said once before them, in one line. */
export const MEMORY_LEGEND =
  'memory of a tree: resident = the sum of each process\'s VmRSS (Node\'s binary counted once a process); ' +
  'proportional = the sum of Pss (a page shared by N processes counts 1/N: Node\'s binary once, less while ' +
  'other Node processes of the machine share it); ' +
  'own = private pages; the goal, beside both, is the issue\'s, of the resident sum'

/** PID and its descendants, PID first, each with its memory; none of a process that ended (or is a zombie). */
export function memoryOfTree(pid: number): ProcessMemory[] {
  const all = processes()
  const members = new Set(all.some((each) => each.pid === pid) ? [pid] : [])
  for (let grown = members.size > 0; grown; ) {
    grown = false
    for (const each of all) if (!members.has(each.pid) && members.has(each.parent)) grown = members.add(each.pid).size > 0
  }
  return all
    .filter((each) => members.has(each.pid))
    .sort((a, b) => (a.pid === pid ? -1 : b.pid === pid ? 1 : 0))
    .map(({pid, command, rssKb}) => ({pid, command, rssKb, ...sharesOf(pid)}))
}

/** The sum of KEY over PROCESSES, in kB. */
export function sumOf(processes: readonly ProcessMemory[], key: 'rssKb' | 'pssKb' | 'ownKb'): number {
  return processes.reduce((sum, each) => sum + each[key], 0)
}

/** Every process /proc shows that holds memory: its parent, its command line and its resident memory. */
function processes(): {pid: number; parent: number; command: string; rssKb: number}[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    const status = read(`/proc/${entry}/status`)
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1]
    // A process that ended and is not reaped yet (a zombie) holds no memory: it has no VmRSS.
    const rss = field('VmRSS')
    if (rss === undefined) return []
    const command = read(`/proc/${entry}/cmdline`).split('\0').filter(Boolean).join(' ')
    return [{pid: Number(entry), parent: Number(field('PPid')), command, rssKb: Number(rss)}]
  })
}

/** The proportional share and the own pages of the process PID (kB), from its smaps_rollup; none once it ended. */
function sharesOf(pid: number): {pssKb: number; ownKb: number} {
  const rollup = read(`/proc/${pid}/smaps_rollup`)
  const field = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(rollup)?.[1] ?? 0)
  return {pssKb: field('Pss'), ownKb: field('Private_Clean') + field('Private_Dirty')}
}

/** FILE's text; empty once its process ended. */
function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
