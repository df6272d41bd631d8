/**
 * `make pack` (after tangling and checking): build what the package holds (build.ts), then `npm pack` it into
 * FOLDER (`pack/` unless named), and say where the tarball is and how large.
 *
 *   node bin/launch.mjs tools/pack/main.ts [FOLDER]
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {displayPath} from '../diagnostics.ts'
import {buildPackage, ENTRY_POINTS} from './build.ts'

/** What `npm pack --json` says of a tarball it made. */
interface Packed {
  filename: string
  size: number
  unpackedSize: number
  entryCount: number
}

export async function main([folder = 'pack']: string[]): Promise<number> {
  const root = process.env.PASSEPARTOUT_HOME ?? path.resolve(import.meta.dirname, '..', '..')
  const cwd = process.cwd()
  const destination = path.resolve(cwd, folder)
  const started = performance.now()
  await buildPackage(root)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  process.stdout.write(`built dist/ (${ENTRY_POINTS.length} bundles) and types/ in ${seconds} s\n`)
  fs.mkdirSync(destination, {recursive: true})
  // npm's notices go to stderr: shown when it fails only.
  const npm = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {cwd: root, encoding: 'utf8'})
  if (npm.status !== 0) {
    process.stderr.write(npm.stderr)
    return 1
  }
  const [packed] = JSON.parse(npm.stdout) as Packed[]
  // As npm install takes it: `pack/x.tgz` would be read as a GitHub repository (pack/x.tgz), `./pack/x.tgz` is a file.
  const shown = displayPath(path.join(destination, packed!.filename), cwd)
  const tarball = path.isAbsolute(shown) ? shown : `.${path.sep}${shown}`
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  process.stdout.write(
    `packed ${tarball}: ${megabytes(packed!.size)} (${packed!.entryCount} files, ${megabytes(packed!.unpackedSize)} unpacked)\n`,
  )
  return 0
}
