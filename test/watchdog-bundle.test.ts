/**
 * The skill host's watchdog thread's bundle (bin/bundle.mjs, self-contained, of generated/core/host-watchdog.ts), as
 * the core builds it for each host it starts: the slot's layout and the watchdog, without a schema library. The
 * thread is an isolate of its own, which compiles and runs all its bundle holds at each start of a host: with zod
 * and the host protocol's schemas in it (a name of a stack's URL was imported from host-protocol.ts), 777 KB and
 * 45 ms of CPU, against 4 for a thread that loads nothing.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {buildBundle} from './support/bundler.ts'

const repo = path.resolve(import.meta.dirname, '..')

let outdir: string
let modules: string[]
beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-watchdog-bundle-'))
  const metafile = await buildBundle(path.join(repo, 'generated', 'core', 'host-watchdog.ts'), outdir, {
    selfContained: true,
  })
  modules = Object.keys(metafile.inputs)
})
afterAll(() => fs.rmSync(outdir, {recursive: true, force: true}))

it("holds the watchdog and the slot's layout, and no package", () => {
  expect(modules.filter((module) => module.startsWith('generated/'))).toEqual([
    'generated/core/host-slot.ts',
    'generated/core/host-watchdog.ts',
  ])
  expect(modules.filter((module) => module.includes('node_modules/'))).toEqual([])
})
