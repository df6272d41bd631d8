/**
 * `passepartout watch [FILE|DIR ...]`: tangle, then tangle again after every
 * saved change until interrupted. Each run goes through the cache, so only the
 * documents that changed are read; a document with errors writes nothing, so
 * its last good output stays in place while its author fixes it.
 */
import {displayPath} from '../diagnostics.ts'
import {type OrgChange, watchOrgFiles} from '../watch/org-watcher.ts'
import {inputRoots} from './inputs.ts'
import {runTangle, type TangleFlags} from './tangle-command.ts'
import type {CommandContext} from './usage.ts'

export async function runWatch(args: string[], flags: TangleFlags, context: CommandContext): Promise<number> {
  const roots = inputRoots(args, context.cwd)
  // One tangle at a time: a save during a tangle is tangled after it.
  let running = Promise.resolve()
  const tangleNow = () =>
    (running = running.then(async () => {
      try {
        await runTangle(args, flags, context)
      } catch (error) {
        // A watcher outlives what one save does to it: said, and the next save is tangled.
        process.stderr.write(`passepartout: ${(error as Error).message}\n`)
      }
    }))
  await tangleNow()
  const watcher = watchOrgFiles(
    roots,
    (changes) => {
      process.stdout.write(`${changes.map((change) => describe(change, context.cwd)).join(', ')}\n`)
      void tangleNow()
    },
    {onError: (error) => process.stderr.write(`passepartout: watching: ${error.message}\n`)},
  )
  await watcher.ready
  process.stdout.write(`watching ${roots.map((root) => displayPath(root, context.cwd)).join(', ')} for changes (Ctrl-C to stop)\n`)
  // Held open by a timer of its own: while a deleted folder is awaited, no file handle keeps the process up.
  const alive = setInterval(() => {}, 1 << 30)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  clearInterval(alive)
  await watcher.close()
  return 0
}

function describe(change: OrgChange, cwd: string): string {
  return `${displayPath(change.path, cwd)} ${change.kind}`
}
