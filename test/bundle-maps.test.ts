/**
 * The source maps of a bundle of this repository (bin/bundle.mjs), as the core's and the command line's are built:
 * beside each file, never inline. Node reads a file's map as it loads it once maps are on (bin/launch.mjs): an inline
 * one is a data URL three times the size of the code, which Node parsed as a URL and decoded at each start (the
 * core's bundle: 2.6 of its 3.4 MB). A stack still says the TypeScript line.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, expect, it} from 'vitest'

const repo = path.resolve(import.meta.dirname, '..')

interface Bundler {
  buildBundle(entry: string, outdir: string, options: {selfContained?: boolean; lean?: boolean}): Promise<unknown>
}

let folder: string
let outdir: string
beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-bundle-maps-'))
  outdir = path.join(folder, 'out')
  // An entry with a chunk of its own (a dynamic import), whose function throws on its fourth line.
  fs.writeFileSync(
    path.join(folder, 'entry.ts'),
    "export async function main(): Promise<void> {\n  await (await import('./thrower.ts')).fail()\n}\n",
  )
  fs.writeFileSync(
    path.join(folder, 'thrower.ts'),
    "const label: string = 'typed'\n\nexport function fail(): never {\n  throw new Error(label)\n}\n",
  )
  const bundler = (await import(pathToFileURL(path.join(repo, 'bin', 'bundle.mjs')).href)) as Bundler
  await bundler.buildBundle(path.join(folder, 'entry.ts'), outdir, {})
})
afterAll(() => fs.rmSync(folder, {recursive: true, force: true}))

it('keeps the map of each file of a bundle beside it, none inline', () => {
  const files = fs.readdirSync(outdir).filter((file) => file.endsWith('.mjs'))
  expect(files.length).toBeGreaterThan(1)
  for (const file of files) {
    const code = fs.readFileSync(path.join(outdir, file), 'utf8')
    expect(code).not.toContain('sourceMappingURL=data:')
    expect(code.trimEnd().endsWith(`//# sourceMappingURL=${file}.map`)).toBe(true)
    expect(fs.existsSync(path.join(outdir, `${file}.map`))).toBe(true)
  }
})

it('says the TypeScript line in a stack, as Node reads the map beside the file', () => {
  const run = `import('${pathToFileURL(path.join(outdir, 'main.mjs')).href}').then((bundle) => bundle.main())`
  const result = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', run], {
    encoding: 'utf8',
  })
  expect(result.stderr).toContain(`${path.join(folder, 'thrower.ts')}:4:`)
})
