/**
 * `make pack` (after tangling and checking): build what the package holds (build.ts), then `npm pack` it into
 * FOLDER (`pack/` unless named), and say where the tarball is and how large. npm packs a folder as it is, its
 * package.json too, and the package's manifest is not the repository's (manifest.ts): the files npm would pack
 * here (its guard, tools/pack/guard.ts, holding them to the build) are copied into a folder of their own beside
 * the package's manifest, and packed from there.
 *
 *   node bin/launch.mjs tools/pack/main.ts [FOLDER]
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {displayPath} from '../diagnostics.ts'
import {readToolchainSettings} from '../settings.ts'
import {buildPackage, ENTRY_POINTS} from './build.ts'
import {type Manifest, packageManifest} from './manifest.ts'

/** What `npm pack --json` says of a tarball it made (or, with --dry-run, would make). */
interface Packed {
  filename: string
  size: number
  unpackedSize: number
  entryCount: number
  files: {path: string}[]
}

export async function main([folder = 'pack']: string[]): Promise<number> {
  const root = readToolchainSettings().home ?? path.resolve(import.meta.dirname, '..', '..')
  const cwd = process.cwd()
  const destination = path.resolve(cwd, folder)
  const started = performance.now()
  await buildPackage(root)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  process.stdout.write(`built dist/ (${ENTRY_POINTS.length} bundles) and types/ in ${seconds} s\n`)
  fs.mkdirSync(destination, {recursive: true})
  const listed = npmPack(root, ['--dry-run'])
  if (!listed) return 1
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-pack-'))
  let packed: Packed | undefined
  try {
    stage(
      root,
      staging,
      listed.files.map((file) => file.path),
    )
    packed = npmPack(staging, ['--pack-destination', destination])
  } finally {
    fs.rmSync(staging, {recursive: true, force: true})
  }
  if (!packed) return 1
  // As npm install takes it: `pack/x.tgz` would be read as a GitHub repository (pack/x.tgz), `./pack/x.tgz` is a file.
  const shown = displayPath(path.join(destination, packed.filename), cwd)
  const tarball = path.isAbsolute(shown) ? shown : `.${path.sep}${shown}`
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  process.stdout.write(
    `packed ${tarball}: ${megabytes(packed.size)} (${packed.entryCount} files, ${megabytes(packed.unpackedSize)} unpacked)\n`,
  )
  return 0
}

/** What `npm pack --json ARGS` run in FOLDER says it packed; undefined, npm's notices printed, when it failed. */
function npmPack(folder: string, args: string[]): Packed | undefined {
  // npm's notices go to stderr: shown when it fails only.
  const npm = spawnSync('npm', ['pack', '--json', ...args], {cwd: folder, encoding: 'utf8'})
  if (npm.status === 0) return (JSON.parse(npm.stdout) as Packed[])[0]
  process.stderr.write(npm.stderr)
  return undefined
}

/** FILES of ROOT copied into STAGING, beside the package's manifest in place of ROOT's package.json. */
function stage(root: string, staging: string, files: readonly string[]): void {
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(staging, file)), {recursive: true})
    fs.copyFileSync(path.join(root, file), path.join(staging, file))
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(packageManifest(manifest, files), null, 2)}\n`)
}
