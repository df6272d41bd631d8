/**
 * A throwaway npm project for a test: a temporary folder with a package.json
 * and FILES (relative path → text), folders made as needed.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export function tempProject(files: Record<string, string>, prefix = 'passepartout-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  for (const [file, text] of Object.entries({'package.json': '{}', ...files})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}
