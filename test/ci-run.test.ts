/**
 * .ci/run installs the system programs the tests need when they are missing (Emacs for the Emacs client's tests,
 * Chromium for the browser's), with one apt-get update for all, then runs make test. Run here with a PATH of its own:
 * programs that write down how they were called stand for apt-get, sudo and make, and for the Emacs and Chromium
 * a row says are installed.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

const RUN = path.resolve(import.meta.dirname, '../.ci/run')

let folder: string | undefined
afterEach(() => {
  if (folder) fs.rmSync(folder, {recursive: true, force: true})
})

/** Run .ci/run with INSTALLED on its PATH, and SETTINGS in its environment: each call of apt-get, sudo or make. */
function ciRun(installed: string[], settings: Record<string, string> = {}): string[] {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-ci-'))
  const bin = path.join(folder, 'bin')
  const calls = path.join(folder, 'calls')
  fs.mkdirSync(path.join(folder, 'repo', '.ci'), {recursive: true})
  fs.copyFileSync(RUN, path.join(folder, 'repo', '.ci', 'run'))
  fs.mkdirSync(bin)
  for (const tool of ['bash', 'dirname', 'id'])
    fs.symlinkSync(execFileSync('bash', ['-c', `command -v ${tool}`], {encoding: 'utf8'}).trim(), path.join(bin, tool))
  const writeDown = (name: string, then = '') =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n${then}`, {mode: 0o755})
  for (const name of ['apt-get', 'make', ...installed]) writeDown(name)
  writeDown('sudo', 'exec "$@"\n')
  execFileSync('/usr/bin/env', ['bash', path.join(folder, 'repo', '.ci', 'run')], {env: {PATH: bin, ...settings}})
  return fs
    .readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .filter((call) => !call.startsWith('sudo '))
}

describe('.ci/run', () => {
  it.each([
    ['both', [], {}, ['apt-get update -qq', 'apt-get install -y -qq emacs-nox chromium']],
    ['Chromium', ['emacs'], {}, ['apt-get update -qq', 'apt-get install -y -qq chromium']],
    ['Emacs', ['chromium'], {}, ['apt-get update -qq', 'apt-get install -y -qq emacs-nox']],
    [
      'Emacs, Chromium being chromium-browser',
      ['chromium-browser'],
      {},
      ['apt-get update -qq', 'apt-get install -y -qq emacs-nox'],
    ],
    [
      'Emacs, Chromium being PASSEPARTOUT_CHROMIUM',
      [],
      {PASSEPARTOUT_CHROMIUM: '/opt/chrome'},
      ['apt-get update -qq', 'apt-get install -y -qq emacs-nox'],
    ],
    ['nothing', ['emacs', 'chromium'], {}, []],
  ])('installs %s when missing, then runs make test', (_name, installed, settings, apt) => {
    expect(ciRun(installed, settings)).toEqual([...apt, 'make test'])
  })
})
