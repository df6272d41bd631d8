/**
 * `npm pack`'s guard (tools/pack/guard.ts): a package is packed as `make pack` built it, or not at all. The cases
 * are a table over a folder shaped as this repository is (the sources a build is made from, and the record a build
 * leaves); then `npm pack` itself, run where nothing was built.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {BuildRecord} from '../../tools/pack/build.ts'
import {packRefusal} from '../../tools/pack/guard.ts'

const repo = path.resolve(import.meta.dirname, '..', '..')
const made: string[] = []
afterAll(() => {
  for (const folder of made) fs.rmSync(folder, {recursive: true, force: true})
})

const SOURCES = [
  'bin/passepartout',
  'org/core/a.org',
  'org/skills/b.org',
  'package-lock.json',
  'package.json',
  'tools/c.ts',
]
const BUILT_AT = Date.parse('2026-01-01T00:00:00Z')

/** A folder holding SOURCES, each last changed a minute before BUILT_AT, and the record of a build then. */
function built(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-guard-'))
  made.push(root)
  for (const source of [...SOURCES, 'README.md']) {
    fs.mkdirSync(path.dirname(path.join(root, source)), {recursive: true})
    fs.writeFileSync(path.join(root, source), source)
    changedAt(root, source, BUILT_AT - 60_000)
  }
  const record: BuildRecord = {build: `0.1.0-${BUILT_AT}`, startedMs: BUILT_AT, sources: SOURCES}
  fs.mkdirSync(path.join(root, 'dist'))
  fs.writeFileSync(path.join(root, 'dist', 'build.json'), JSON.stringify(record))
  return root
}

function changedAt(root: string, file: string, ms: number): void {
  fs.utimesSync(path.join(root, file), new Date(ms), new Date(ms))
}

describe('the guard of npm pack', () => {
  it.each<[string, (root: string) => void, RegExp | undefined]>([
    ['a build as its sources are', () => {}, undefined],
    ['no build', (root) => fs.rmSync(path.join(root, 'dist'), {recursive: true}), /^the package is not built/],
    [
      'a source changed after the build',
      (root) => changedAt(root, 'org/core/a.org', BUILT_AT + 1),
      /^org\/core\/a\.org changed since the build$/,
    ],
    ['a source changed as the build began', (root) => changedAt(root, 'tools/c.ts', BUILT_AT), undefined],
    [
      'a source added',
      (root) => fs.writeFileSync(path.join(root, 'org/skills/d.org'), ''),
      /^org\/skills\/d\.org is newer than the build$/,
    ],
    [
      'a source gone',
      (root) => fs.rmSync(path.join(root, 'tools/c.ts')),
      /^tools\/c\.ts, a source of the build, is gone$/,
    ],
    ['a file that is no source changed', (root) => changedAt(root, 'README.md', BUILT_AT + 1), undefined],
  ])('%s', (_, change, refusal) => {
    const root = built()
    change(root)
    const said = packRefusal(root)
    if (refusal) expect(said).toMatch(refusal)
    else expect(said).toBeUndefined()
  })

  it('refuses npm pack where nothing was built, in one line, and packs nothing', () => {
    // This repository's package.json and bin/, its sources linked in, and no dist/.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-unbuilt-'))
    made.push(root)
    fs.copyFileSync(path.join(repo, 'package.json'), path.join(root, 'package.json'))
    fs.cpSync(path.join(repo, 'bin'), path.join(root, 'bin'), {recursive: true})
    for (const linked of ['node_modules', 'tools', 'org'])
      fs.symlinkSync(path.join(repo, linked), path.join(root, linked))
    const home = path.join(root, 'home')
    fs.mkdirSync(home)
    const kept = Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_'))
    const env = {...Object.fromEntries(kept), HOME: home, npm_config_cache: path.join(home, '.npm')}
    const result = spawnSync('npm', ['pack', '--pack-destination', home], {cwd: root, env, encoding: 'utf8'})
    expect(result.status).not.toBe(0)
    const ours = result.stderr.split('\n').filter((line) => line.startsWith('passepartout:'))
    expect(ours).toEqual(['passepartout: cannot pack: the package is not built (no dist/build.json); run `make pack`'])
    expect(fs.readdirSync(home).filter((file) => file.endsWith('.tgz'))).toEqual([])
  })
})
