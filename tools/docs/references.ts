/**
 * The references of docs/reference/, written from the code that defines what they list, so that they cannot
 * drift from it: `make docs` (`node bin/launch.mjs tools/docs/references.ts`) writes them, and
 * test/docs/references.test.ts fails while a committed one differs from what the code gives.
 */
import fs from 'node:fs'
import path from 'node:path'
import {readToolchainSettings} from '../settings.ts'
import {commandsReference} from './commands-reference.ts'
import {environmentReference, variablesRead} from './environment-reference.ts'
import {rulesReference} from './rules-reference.ts'
import {settingsReference} from './settings-reference.ts'

/** Each reference of the installation at REPO, by its path in it. */
export function references(repo: string): Record<string, string> {
  return {
    'docs/reference/commands.md': commandsReference(),
    'docs/reference/environment.md': environmentReference(variablesRead(repo)),
    'docs/reference/rules.md': rulesReference(),
    'docs/reference/settings.md': settingsReference(),
  }
}

/** Write every reference that is not what the code gives; say which. */
export function main(): number {
  const repo = readToolchainSettings().home ?? path.resolve(import.meta.dirname, '../..')
  for (const [file, text] of Object.entries(references(repo))) {
    const target = path.join(repo, file)
    if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text) continue
    fs.mkdirSync(path.dirname(target), {recursive: true})
    fs.writeFileSync(target, text)
    console.log(`wrote ${file}`)
  }
  return 0
}
