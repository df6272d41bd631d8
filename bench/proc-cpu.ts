/**
 * The processor time of a tree of processes, from /proc (Linux): what the benches that run a core, a daemon or a
 * model server as processes of their own count as a turn's CPU.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'

/** The kernel's clock ticks a second (`getconf CLK_TCK`), in which /proc counts processor time. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).stdout.trim()) || 100

/**
 * The CPU (user and system, ms) PID and its descendants have taken so far, from /proc; with `self: false` its
 * descendants' alone (with `self: 'reaped'`, and what those of them that ended took: a process that measures its own
 * time more finely than /proc counts it so), with `alone` PID's alone; a descendant EXCLUDED (a model server the bench started) is left out
 * with its own; with
 * `reaped`, each counts too what its children took that it waited for (a process that ended, such as the one that
 * prepared a core's start).
 */
export function cpuOfTree(
  pid: number,
  {
    self = true,
    alone = false,
    excluded,
    reaped = false,
  }: {self?: boolean | 'reaped'; alone?: boolean; excluded?: number; reaped?: boolean} = {},
): number {
  const stats = processes()
  const tree = alone ? new Set([pid]) : treeOf(pid, stats, excluded)
  if (self !== true) tree.delete(pid)
  const ticks = stats
    .filter((stat) => tree.has(stat.pid))
    .reduce((sum, stat) => sum + stat.ticks + (reaped ? stat.reapedTicks : 0), 0)
  const reapedBySelf = self === 'reaped' ? (stats.find((stat) => stat.pid === pid)?.reapedTicks ?? 0) : 0
  return ((ticks + reapedBySelf) * 1000) / CLOCK_TICKS
}

/** The processes descended from PID (not PID itself), from /proc. */
export function descendantsOf(pid: number): number[] {
  const tree = treeOf(pid, processes())
  tree.delete(pid)
  return [...tree]
}

type Stat = {pid: number; parent: number; ticks: number; reapedTicks: number}

/** PID and every process descended from it among STATS, but EXCLUDED and its own. */
function treeOf(pid: number, stats: readonly Stat[], excluded?: number): Set<number> {
  const tree = new Set([pid])
  for (let grown = true; grown;) {
    grown = false
    for (const stat of stats)
      if (!tree.has(stat.pid) && stat.pid !== excluded && tree.has(stat.parent)) grown = tree.add(stat.pid).size > 0
  }
  return tree
}

/** Every process /proc shows: its parent, the clock ticks it has run and those of its children it waited for. */
function processes(): Stat[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        // The command may hold spaces and parentheses: the fields counted are those after its closing one.
        const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
        const ticks = Number(fields[11]) + Number(fields[12])
        return [
          {pid: Number(entry), parent: Number(fields[1]), ticks, reapedTicks: Number(fields[13]) + Number(fields[14])},
        ]
      } catch {
        // Ended since the folder was read.
        return []
      }
    })
}
