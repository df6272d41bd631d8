/**
 * The bundle a client of the running core loads (bin/bundle.mjs, `lean`, of the clients' entry,
 * generated/core/clients.ts): the client of the socket, its protocol and its printing, and nothing of the core (its
 * engine, memory on SQLite, the model's client, the type checker, zod, the bundler). Read from esbuild's metafile of
 * the bundle built as the command line builds it: the modules whose code is in it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {buildBundle} from './support/bundler.ts'

const repo = path.resolve(import.meta.dirname, '..')

/** What a module's path says it is, for those that must not load with a client. */
const HEAVY = [
  /^node_modules\/zod\//,
  /^generated\/core\/(engine|core|memory|server|one-shot|loader|host-supervisor|backends)\.ts$/,
  /^node_modules\/@libsql\//,
  /^node_modules\/openai\//,
  /^node_modules\/(typescript|ts-morph|@ts-morph)\//,
  /^node_modules\/esbuild\//,
  /^tools\/(tangle|check|session)\//,
]

describe("the clients' bundle", () => {
  let outdir: string
  let modules: string[]
  let files: string[]
  beforeAll(async () => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-client-bundle-'))
    const metafile = await buildBundle(path.join(repo, 'generated', 'core', 'clients.ts'), outdir, {lean: true})
    modules = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs))
    files = fs.readdirSync(outdir).filter((file) => file.endsWith('.mjs'))
  })
  afterAll(() => fs.rmSync(outdir, {recursive: true, force: true}))

  it('holds the client, its protocol and its printing', () => {
    for (const module of ['clients', 'client', 'client-commands', 'printing', 'chat'])
      expect(modules).toContain(`generated/core/${module}.ts`)
  })

  it('holds nothing of the core, zod, SQLite, the model client, the type checker or the bundler', () => {
    expect(modules.filter((module) => HEAVY.some((heavy) => heavy.test(module)))).toEqual([])
  })

  it('is one file: Node reads nothing else of it to run a client', () => {
    expect(files).toEqual(['main.mjs'])
  })
})
