/**
 * A project with the shipped skills that checks as a user's does: `passepartout` resolves to this installation,
 * and the packages the skills' tests import (vitest) to its own, by links in the project's node_modules.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export function shippedProject(repo: string, prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const compilerOptions = {target: 'ES2022', lib: ['ES2023'], module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true, strict: true, skipLibCheck: true, types: ['node']}
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n')
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({compilerOptions, include: ['generated']}))
  fs.mkdirSync(path.join(root, 'node_modules'))
  for (const entry of fs.readdirSync(path.join(repo, 'node_modules'))) {
    if (entry !== '.cache') fs.symlinkSync(path.join(repo, 'node_modules', entry), path.join(root, 'node_modules', entry))
  }
  fs.symlinkSync(repo, path.join(root, 'node_modules', 'passepartout'))
  fs.mkdirSync(path.join(root, 'org', 'skills'), {recursive: true})
  for (const name of ['policy', 'bouncer', 'shell-guard']) fs.copyFileSync(path.join(repo, 'org', 'skills', `${name}.org`), path.join(root, 'org', 'skills', `${name}.org`))
  return root
}
