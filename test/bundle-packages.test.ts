/**
 * The packages a bundle of this repository holds (bin/bundle.mjs), as the core's and the command line's are built:
 * zod inside it, the other packages loaded by Node from node_modules. zod is some forty modules as a package: Node
 * resolved, read and compiled each of them at every boot of a core (55-70 ms of CPU, against 28-30 bundled in one
 * file). A package kept outside stays outside: a native one (libsql), one that is large and mostly unused at a boot.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {buildBundle} from './support/bundler.ts'

const repo = path.resolve(import.meta.dirname, '..')

let folder: string
let outdir: string
let inputs: string[]
let code: string
beforeAll(async () => {
  // An entry beside this repository's packages, as the core's modules are: it imports zod and croner.
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-bundle-packages-'))
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(folder, 'node_modules'))
  fs.writeFileSync(
    path.join(folder, 'entry.ts'),
    [
      "import {z} from 'zod'",
      "import {Cron} from 'croner'",
      'export function main(): void {',
      "  console.log(z.object({name: z.string()}).parse({name: 'zod'}).name, typeof Cron)",
      '}',
      '',
    ].join('\n'),
  )
  outdir = path.join(folder, 'out')
  const metafile = await buildBundle(path.join(folder, 'entry.ts'), outdir)
  inputs = Object.keys(metafile.inputs)
  code = fs
    .readdirSync(outdir)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => fs.readFileSync(path.join(outdir, file), 'utf8'))
    .join('\n')
})
afterAll(() => fs.rmSync(folder, {recursive: true, force: true}))

it('holds zod: the bundle imports no module of it', () => {
  expect(inputs.some((input) => input.includes('node_modules/zod/'))).toBe(true)
  expect(code).not.toMatch(/from "zod(\/[^"]*)?"/)
})

it('leaves the other packages to Node', () => {
  expect(inputs.some((input) => input.includes('node_modules/croner/'))).toBe(false)
  expect(code).toContain('from "croner"')
})

it('runs, zod and the package outside alike', () => {
  const run = `import('${pathToFileURL(path.join(outdir, 'main.mjs')).href}').then((bundle) => bundle.main())`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', run], {cwd: folder, encoding: 'utf8'})
  expect(result.stderr).toBe('')
  expect(result.stdout).toBe('zod function\n')
})
