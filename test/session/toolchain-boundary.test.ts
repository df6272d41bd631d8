/**
 * The core imports the toolchain through one public module, `passepartout/toolchain`
 * (tools/toolchain.ts), never its internals: every source block of every document
 * under org/ is read for imports of tools/ by a relative path.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {listOrgFiles} from '../../tools/project.ts'

const repo = path.resolve(import.meta.dirname, '../..')

/** `file:line: the import` for each import of tools/ by a relative path in TEXT. */
function deepImports(file: string, text: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, k) => {
    if (/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"`](?:\.\.?\/)+(?:[^'"`]*\/)?tools\//.test(line)) found.push(`${path.relative(repo, file)}:${k + 1}: ${line.trim()}`)
  })
  return found
}

describe('the boundary between the toolchain and the core', () => {
  it('holds: no document under org/ imports tools/ but through passepartout/toolchain', () => {
    const found = listOrgFiles(path.join(repo, 'org')).flatMap((file) => deepImports(file, fs.readFileSync(file, 'utf8')))
    expect(found).toEqual([])
  })

  it('would see a deep import, static or dynamic', () => {
    expect(deepImports('/x.org', "import {tangle} from '../../tools/tangle/tangle.ts'\nconst rules = await import('../../tools/check/sandbox.ts')\nimport {debug} from 'passepartout/toolchain'")).toHaveLength(2)
  })
})
