/**
 * How an example of the documentation is read and held to what a command printed, as data: the markers, the
 * steps of a transcript, what is compared as a kind rather than a value, and the lines `…` stands for.
 */
import {describe, expect, it} from 'vitest'
import {blocksOf, match, normalize, parseMarker, stepsOf, taken} from './transcripts.ts'

describe('a marker', () => {
  it.each([
    ['example: providers', {example: 'providers'}],
    ['example: weather, file: org/skills/weather.org', {example: 'weather', file: 'org/skills/weather.org'}],
    ['a comment of the prose', undefined],
    ['example: a, colour: red', undefined],
  ])('<!-- %s --> is %j', (comment, marker) => {
    expect(parseMarker(comment)).toEqual(marker)
  })
})

describe('the blocks of a document', () => {
  const text = [
    '# A page', // 1
    '<!-- example: demo -->', // 2
    '', // 3
    '```', // 4
    '$ passepartout status', // 5
    'the core runs', // 6
    '```', // 7
    '- a list item:', // 8
    '  <!-- example: demo, file: org/a.org -->', // 9
    '  ```org', // 10
    '  #+TITLE: A', // 11
    '  ```', // 12
    '```', // 13
    'no marker', // 14
    '```', // 15
  ].join('\n')

  it('each with its first line, its lines out of the list item, and the marker above it', () => {
    expect(blocksOf('docs/a.md', text)).toEqual([
      {file: 'docs/a.md', line: 4, lines: ['$ passepartout status', 'the core runs'], marker: {example: 'demo'}},
      {file: 'docs/a.md', line: 10, lines: ['#+TITLE: A'], marker: {example: 'demo', file: 'org/a.org'}},
      {file: 'docs/a.md', line: 13, lines: ['no marker'], marker: undefined},
    ])
  })

  it('a transcript in steps: each command with the lines shown under it', () => {
    const [block] = blocksOf('a.md', '```\n$ one\nout 1\n\nout 2\n\n$ two\n$ three\nout 3\n```')
    expect(stepsOf(block!)).toEqual([
      {command: 'one', output: ['out 1', '', 'out 2']},
      {command: 'two', output: []},
      {command: 'three', output: ['out 3']},
    ])
  })
})

describe('what changes from run to run', () => {
  it.each([
    ['the core of /work/main runs (pid 4106)', 'the core of /work/main runs (pid <pid>)'],
    ['session 20261127-204934-e56e, turn 1', 'session <session>, turn 1'],
    ['(expires 2026-11-27T21:49:34.180Z)', '(expires <time>)'],
    ['scribe-2026-11-29-0827 on 2026-11-29', 'scribe-<day> on <day>'],
    ['scribe    cron 55 23 * * *, catch up  23:55  08:27:17', 'scribe cron 55 23 * * *, catch up <clock> <clock>'],
    ['waits for approval a3f4bbc95315', 'waits for approval <id>'],
    ['reachable in 142 ms; up 50 s, 277 MB', 'reachable in <duration>; up <duration>, <size>'],
    ['scribe ran in 0.1 s', 'scribe ran in <duration>'],
    ['passepartout:loop +524ms', 'passepartout:loop +<duration>'],
    ['bouncer      ready       1.2', 'bouncer ready <n>'],
    ['started again in 1.1 s (attempt 4)', 'started again in <duration> (attempt <n>)'],
    // What a reader compares stays: a version, a count, a place in a document.
    ['passepartout 0.1.0: skills: 4 ready', 'passepartout 0.1.0: skills: 4 ready'],
    ['org/skills/bouncer.org:54:7: error TS2322', 'org/skills/bouncer.org:54:7: error TS2322'],
  ])('%s', (line, normal) => {
    expect(normalize(line)).toBe(normal)
  })
})

describe('a shown output held to a printed one', () => {
  it.each([
    ['the same lines', ['a', 'b'], ['a', 'b'], true],
    ['a line more', ['a'], ['a', 'b'], false],
    ['a line less', ['a', 'b'], ['a'], false],
    ['… for lines', ['a', '…', 'd'], ['a', 'b', 'c', 'd'], true],
    ['… for none', ['a', '…', 'b'], ['a', 'b'], true],
    ['… at the end', ['a', '  …'], ['a', 'b', 'c'], true],
    ['… inside a line is a character', ['a…'], ['abc'], false],
    ['times and pids as what they are', ['ran in 10 ms (pid 1)'], ['ran in 7 ms (pid 22)'], true],
    ['a count as its value', ['skills: 4 ready'], ['skills: 3 ready'], false],
  ])('%s', (_, shown, printed, matches) => {
    expect(match(shown, printed) !== undefined).toBe(matches)
  })

  it('says which id, pid and session the printed lines gave in place of the shown ones', () => {
    const pairs = match(
      ['waits for approval a3f4bbc95315 (session 20261127-204934-e56e)', '…', 'demo running, pid 20552'],
      ['waits for approval 0123456789ab (session 20300101-010101-abcd)', 'x', 'demo running, pid 77'],
    )!
    expect(taken(pairs)).toEqual(
      new Map([
        ['a3f4bbc95315', '0123456789ab'],
        ['20261127-204934-e56e', '20300101-010101-abcd'],
        ['20552', '77'],
      ]),
    )
  })
})
