/**
 * `npm pack`'s `prepack`: the package is what `make pack` built, or nothing. npm packs the files package.json
 * names as they are, and dist/ and types/ are built: missing, or older than a source they are built from, they
 * would make a package that does not run or runs other code than its documents say. Refused in one line, exit
 * status 1; npm then packs nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import {type BuildRecord, packageSources} from './build.ts'

/** Why the package in ROOT cannot be packed as it is built, or undefined when it can. */
export function packRefusal(root: string): string | undefined {
  let record: BuildRecord
  try {
    record = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'build.json'), 'utf8')) as BuildRecord
  } catch {
    return 'the package is not built (no dist/build.json)'
  }
  const now = packageSources(root)
  const built = new Set(record.sources)
  const added = now.find((source) => !built.has(source))
  if (added) return `${added} is newer than the build`
  const gone = record.sources.find((source) => !now.includes(source))
  if (gone) return `${gone}, a source of the build, is gone`
  const changed = now.find((source) => fs.statSync(path.join(root, source)).mtimeMs > record.startedMs)
  return changed && `${changed} changed since the build`
}

export function main(): number {
  const refusal = packRefusal(process.cwd())
  if (!refusal) return 0
  process.stderr.write(`passepartout: cannot pack: ${refusal}; run \`make pack\`\n`)
  return 1
}
