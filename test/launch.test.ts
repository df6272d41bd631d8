/**
 * bin/launch.mjs, run as a real process: an entry point bundled on its first run, then run, with nothing of the
 * build left beside it.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, expect, it} from 'vitest'

const repo = path.resolve(import.meta.dirname, '..')
const cache = path.join(repo, 'node_modules', '.cache', 'passepartout')
const made: string[] = []
afterEach(() => {
  for (const folder of made.splice(0)) fs.rmSync(folder, {recursive: true, force: true})
})

/** An entry point that says, once they have ended (5 s at most), how many processes it has started: none. */
const countsItsChildren = `import fs from 'node:fs'
const children = () => fs.readFileSync(\`/proc/\${process.pid}/task/\${process.pid}/children\`, 'utf8').split(' ').filter(Boolean)
export async function main(): Promise<number> {
  const deadline = Date.now() + 5000
  while (children().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  console.log(children().length)
  return 0
}
`

it("stops the esbuild service of the entry's build before it runs the entry: it would stay as long as the entry runs", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-launch-'))
  made.push(folder)
  const entry = path.join(folder, 'entry.ts')
  fs.writeFileSync(entry, countsItsChildren)
  // The bundle's name in the cache, as bin/bundle.mjs makes it; built on this first run, removed after it.
  const name = path.relative(repo, entry).replace(/[\\/]/g, '__').replace(/\.ts$/, '')
  made.push(path.join(cache, name), path.join(cache, `${name}.inputs.json`))
  const result = spawnSync(process.execPath, [path.join(repo, 'bin', 'launch.mjs'), entry], {encoding: 'utf8'})
  expect(result.stderr).toBe('')
  expect(result.stdout).toBe('0\n')
})
