/**
 * The type checker's processes of a project (tools/check/warm-process.ts), as /proc lists them: a project's tsconfig.json
 * is on the command line of each.
 */
import fs from 'node:fs'

/** The processes of the type checkers of the project DIR. */
export function checkersOf(dir: string): string[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      const command = commandOf(entry)
      return command.some((part) => part.includes('warm-process')) && command.some((part) => part.includes(dir))
    })
}

/** The command line of the process PID, or none when it ended since the listing. */
function commandOf(pid: string): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return []
  }
}

/** Until the checkers of DIR are gone: 10 s at most, looked at every 20 ms. */
export function checkersGone(dir: string): Promise<boolean> {
  return until(() => checkersOf(dir).length === 0)
}

/** Until a checker of DIR runs: 10 s at most, looked at every 20 ms. */
export function checkerStarted(dir: string): Promise<boolean> {
  return until(() => checkersOf(dir).length > 0)
}

/** Until HOLDS: 10 s at most, looked at every 20 ms; whether it held. */
async function until(holds: () => boolean): Promise<boolean> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20)))
    if (holds()) return true
  return false
}
