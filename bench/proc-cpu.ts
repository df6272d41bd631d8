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
 * descendants' alone; a descendant EXCLUDED (a model server the bench started) is left out with its own.
 */
export function cpuOfTree(pid: number, {self = true, excluded}: {self?: boolean; excluded?: number} = {}): number {
  const stats = processes()
  const tree = new Set([pid])
  for (let grown = true; grown;) {
    grown = false
    for (const stat of stats)
      if (!tree.has(stat.pid) && stat.pid !== excluded && tree.has(stat.parent)) grown = tree.add(stat.pid).size > 0
  }
  if (!self) tree.delete(pid)
  const ticks = stats.filter((stat) => tree.has(stat.pid)).reduce((sum, stat) => sum + stat.ticks, 0)
  return (ticks * 1000) / CLOCK_TICKS
}

/** Every process /proc shows: its parent and the clock ticks it has run, user and system. */
function processes(): {pid: number; parent: number; ticks: number}[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        // The command may hold spaces and parentheses: the fields counted are those after its closing one.
        const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
        return [{pid: Number(entry), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12])}]
      } catch {
        // Ended since the folder was read.
        return []
      }
    })
}
