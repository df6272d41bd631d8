/**
 * A project on a read-only disk (a read-only bind mount of its folder, in a mount namespace of its own): check,
 * test and run each say why in a line, with the system's true reason (Node's recursive mkdir calls a read-only
 * file system ENOENT, a folder that does not exist), and exit 1. Real processes on a real mount.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'

const cli = path.resolve(import.meta.dirname, '../../bin/passepartout')

/** This process's environment without what vitest tells its own workers: `test` runs a vitest of its own. */
const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))

/** Whether a mount namespace of its own can be made here, with a folder mounted read-only in it. */
const readOnlyDisks = spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0

/** `passepartout ARGS` in PROJECT, its folder mounted read-only for that process alone. */
function onReadOnlyDisk(project: string, args: string[]) {
  const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && cd "$1" && shift && exec "$@"'
  const command = ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', project, cli, ...args, '--no-frames']
  const result = spawnSync('unshare', command, {
    encoding: 'utf8',
    env: {...environment, NO_COLOR: '1'},
    timeout: 60_000,
  })
  return {status: result.status, stderr: String(result.stderr)}
}

describe.skipIf(!readOnlyDisks)('a project on a read-only disk', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-read-only-'))
  spawnSync(cli, ['init', 'demo'], {cwd: parent, env: environment})
  const project = path.join(parent, 'demo')

  it.each([
    ['check', [/^org\/skills\/hello\.org:\d+:\d+: error: .*EROFS: read-only file system, mkdir .*\[io\/write\]$/]],
    [
      'test',
      [
        /^org\/skills\/hello\.org:\d+:\d+: error: .*EROFS: read-only file system, mkdir .*\[io\/write\]$/,
        /^passepartout test: the project does not check: no test was run$/,
      ],
    ],
    ['run', [/^.*demo: error: .*EROFS: read-only file system, mkdir .*\.passepartout.* \[io\/write\]$/]],
  ])('%s says why in a line, and exits 1', (command, lines) => {
    const result = onReadOnlyDisk(project, command === 'run' ? ['run', '--no-watch'] : [command])
    const said = result.stderr.trimEnd().split('\n')
    expect(said).toHaveLength(lines.length)
    said.forEach((line, index) => expect(line).toMatch(lines[index]!))
    expect(result.status).toBe(1)
  })
})
