/**
 * The package's tarball as `make pack` makes it (tools/pack/main.ts), made once for a state of what it is made from
 * and taken again by every later run until one of those files changes: a pack cost 7 s of CPU (nine bundles, the
 * declarations, npm pack twice), a tenth of the package's tests, and a run of them mostly packs the sources the last
 * run packed. Kept in node_modules/.cache/passepartout/package/, one folder named by the hash of those files, beside
 * what the pack printed, which a test holds as it holds a pack it ran; only the last state is kept.
 */
import {createHash} from 'node:crypto'
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {packageSources} from '../../tools/pack/build.ts'

const repo = path.resolve(import.meta.dirname, '..', '..')
const CACHE = path.join(repo, 'node_modules', '.cache', 'passepartout', 'package')

/** What a pack printed and how it ended, and the tarball it left (absolute) when it left one. */
export interface Pack {
  stdout: string
  stderr: string
  status: number | null
  /** The pack's wall time in seconds to a tenth, or undefined when it is an earlier run's. */
  seconds: string | undefined
  /** The folder the pack ran in: the tarball is where its stdout says, from there. */
  folder: string
}

/**
 * The pack of this repository's sources as they are now: an earlier run's when one packed them, else one run now
 * with ENV (its output kept only when it printed no error and exited 0, so that a failure is seen by every run).
 */
export function packOfSources(env: NodeJS.ProcessEnv): Pack {
  const folder = path.join(CACHE, sourcesHash())
  const kept = path.join(folder, 'pack.json')
  if (fs.existsSync(kept)) return {...(JSON.parse(fs.readFileSync(kept, 'utf8')) as Omit<Pack, 'folder'>), folder}
  const staging = `${folder}.${process.pid}`
  fs.rmSync(staging, {recursive: true, force: true})
  fs.mkdirSync(staging, {recursive: true})
  const started = performance.now()
  const pack = [path.join(repo, 'bin/launch.mjs'), 'tools/pack/main.ts', 'pack']
  const result = spawnSync(process.execPath, pack, {cwd: staging, encoding: 'utf8', env})
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const said = {stdout: result.stdout, stderr: result.stderr, status: result.status}
  if (result.status !== 0 || result.stderr !== '') {
    fs.rmSync(staging, {recursive: true, force: true})
    return {...said, seconds, folder: staging}
  }
  fs.writeFileSync(path.join(staging, 'pack.json'), JSON.stringify({...said, seconds: undefined}))
  keepOnly(staging, folder)
  return {...said, seconds, folder}
}

/**
 * The hash of what a pack is made from: the files its build reads (tools/pack/build.ts packageSources: the Org
 * documents, the toolchain, bin/, package.json and the lock, which fixes the bundler's and the compiler's versions),
 * those npm adds to any package (README.md), and Node's version, which runs the build.
 */
function sourcesHash(): string {
  const hash = createHash('sha256').update(process.version)
  for (const file of [...packageSources(repo), 'README.md'])
    hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(repo, file)))
  return hash.digest('hex').slice(0, 16)
}

/**
 * STAGING put in place as FOLDER, the folders of other states removed (not a pack under way beside this one); when a
 * run beside this one put its own there first, that one is kept.
 */
function keepOnly(staging: string, folder: string): void {
  for (const entry of fs.readdirSync(CACHE))
    if (/^[0-9a-f]{16}$/.test(entry) && entry !== path.basename(folder))
      fs.rmSync(path.join(CACHE, entry), {recursive: true, force: true})
  try {
    fs.renameSync(staging, folder)
  } catch {
    fs.rmSync(staging, {recursive: true, force: true})
  }
}
