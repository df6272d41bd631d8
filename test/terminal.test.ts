/**
 * What reaches a terminal: text from outside made printable, and colour only where a terminal reads it. The
 * command line is run as a real process, on a pipe and on a real terminal (util-linux's `script` gives it one).
 */
import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {colourOn, printable} from '../tools/terminal.ts'
import {tempProject} from './support/temp-project.ts'

const cli = path.resolve(import.meta.dirname, '../bin/passepartout')

describe('printable', () => {
  it('writes out C0 and C1 controls and DEL, and keeps tabs and line feeds', () => {
    expect(printable('\u001b]0;pwned\u0007\u001b[2J\r\u0000\u007f\u0085\u009b end')).toBe(
      '\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x00\\x7f\\x85\\x9b end',
    )
    expect(printable('a\tb\nc')).toBe('a\tb\nc')
  })

  it('writes out the characters that change the direction of text', () => {
    const bidi = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ]
    expect(bidi.map(printable)).toEqual([
      '\\u202a',
      '\\u202b',
      '\\u202c',
      '\\u202d',
      '\\u202e',
      '\\u2066',
      '\\u2067',
      '\\u2068',
      '\\u2069',
      '\\u200e',
      '\\u200f',
      '\\u061c',
    ])
    // Letters of any script, and the joiner of emoji sequences, are text.
    expect(printable('é ש 👩‍👩‍👧 \u00a0')).toBe('é ש 👩‍👩‍👧 \u00a0')
  })

  it('gives the same text when written twice', () => {
    const text = 'x\u001b[31m\u202ey\u0085'
    expect(printable(printable(text))).toBe(printable(text))
  })
})

describe('the command line', () => {
  it("writes out what a document or an argument holds: a diagnostic's reason, the Org lines of its frame, a usage error", () => {
    const dir = tempProject(
      {'org/a.org': '#+begin_src typescript :TAN\u202eGLE a.ts\nx\n#+end_src\n'},
      'passepartout-printable-',
    )
    const result = spawnSync(cli, ['tangle', '--frames'], {cwd: dir, encoding: 'utf8'})
    expect(result.stderr).toMatch(
      /^org\/a\.org:1:24: warning: Org does not know the header argument :TAN\\u202eGLE .*\n> 1 \| #\+begin_src typescript :TAN\\u202eGLE a\.ts\n/,
    )
    const named = spawnSync(cli, ['tangle', 'x\u001b[2J\u202e.org'], {cwd: dir, encoding: 'utf8'})
    expect(named.stderr.split('\n')[0]).toBe('passepartout tangle: no such file or directory: x\\x1b[2J\\u202e.org')
  })
})

describe('colour', () => {
  it('is on a terminal, unless NO_COLOR is set to something, TERM is dumb, or FORCE_COLOR turns it off', () => {
    const terminal = {isTTY: true}
    const pipe = {isTTY: false}
    expect(colourOn(terminal, {})).toBe(true)
    expect(colourOn(pipe, {})).toBe(false)
    expect(colourOn(terminal, {NO_COLOR: '1'})).toBe(false)
    expect(colourOn(terminal, {NO_COLOR: ''})).toBe(true)
    expect(colourOn(terminal, {TERM: 'dumb'})).toBe(false)
    expect(colourOn(pipe, {FORCE_COLOR: '1'})).toBe(true)
    expect(colourOn(pipe, {FORCE_COLOR: ''})).toBe(true)
    expect(colourOn(terminal, {FORCE_COLOR: '0'})).toBe(false)
    expect(colourOn(terminal, {FORCE_COLOR: 'false', NO_COLOR: '1'})).toBe(false)
    expect(colourOn(pipe, {FORCE_COLOR: '3', NO_COLOR: '1'})).toBe(true)
  })

  it("is off in Emacs's compilation buffers, which run on a terminal and read lines, and on in its shells", () => {
    const terminal = {isTTY: true}
    expect(colourOn(terminal, {INSIDE_EMACS: '28.2,compile'})).toBe(false)
    expect(colourOn(terminal, {INSIDE_EMACS: '28.2,comint'})).toBe(true)
    expect(colourOn(terminal, {INSIDE_EMACS: '28.2,compile', FORCE_COLOR: '1'})).toBe(true)
  })

  const project = () =>
    tempProject(
      {
        'org/a.org':
          '* A\n#+begin_src typescript :TANGLE a.ts\nconst a = 1\n#+end_src\n#+begin_src typescript :tangle missing/b.ts\nconst b = 1\n#+end_src\n',
      },
      'passepartout-colour-',
    )
  const env = (extra: NodeJS.ProcessEnv) => {
    const {NO_COLOR, FORCE_COLOR, TERM, ...rest} = process.env
    return {...rest, TERM: 'xterm', ...extra}
  }
  /** `tangle --no-frames` in DIR on a real terminal: what it wrote there (stdout and stderr together, as a terminal shows them). */
  const onTerminal = (dir: string, extra: NodeJS.ProcessEnv = {}) => {
    const result = spawnSync('script', ['-qec', `${cli} tangle --no-frames`, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      env: env(extra),
      timeout: 60_000,
    })
    expect(result.stdout, `script(1) runs the command on a terminal: ${result.error ?? result.stderr}`).toMatch(
      /passepartout|org\/a\.org/,
    )
    return result.stdout
  }
  const RED_ERROR = '\u001b[31merror\u001b[39m'
  const YELLOW_WARNING = '\u001b[33mwarning\u001b[39m'

  it('marks errors red and warnings yellow on a terminal, the place in bold', () => {
    const shown = onTerminal(project())
    expect(shown).toContain(`\u001b[1morg/a.org:2:24\u001b[22m: ${YELLOW_WARNING}: `)
    expect(shown).toContain(`\u001b[1morg/a.org:5:1\u001b[22m: ${RED_ERROR}: `)
  })

  it('is off on a terminal with NO_COLOR, in a pipe, and on in a pipe with FORCE_COLOR', () => {
    const dir = project()
    expect(onTerminal(dir, {NO_COLOR: '1'})).not.toContain('\u001b')
    const piped = spawnSync(cli, ['tangle', '--no-frames'], {cwd: dir, encoding: 'utf8', env: env({})})
    expect(piped.stderr).toMatch(/^org\/a\.org:5:1: error: /m)
    expect(piped.stderr).not.toContain('\u001b')
    const forced = spawnSync(cli, ['tangle', '--no-frames'], {cwd: dir, encoding: 'utf8', env: env({FORCE_COLOR: '1'})})
    expect(forced.stderr).toContain(RED_ERROR)
  })

  it('marks a usage error red on a terminal', () => {
    const result = spawnSync('script', ['-qec', `${cli} logs -x`, '/dev/null'], {
      encoding: 'utf8',
      env: env({}),
      timeout: 60_000,
    })
    expect(result.stdout).toContain('passepartout logs: \u001b[31munknown option -x\u001b[39m')
  })
})
