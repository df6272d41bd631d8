/**
 * Code frames (tools/code-frame.ts): the caret stays under the character the
 * column names whatever the line holds (a tab, a character outside the BMP, a
 * CR of a CRLF file), a long line is cut around it, and a place the text does
 * not have gives no frame instead of an exception.
 */
import {describe, expect, it} from 'vitest'
import {codeFrame, FRAME_WIDTH} from '../tools/code-frame.ts'

/** The frame's line of LINE (`> N | …`) and the caret line under it, each without the gutter. */
function shown(frame: string): {line: string; caret: number} {
  const lines = frame.split('\n')
  const at = lines.findIndex((line) => line.startsWith('>'))
  const gutter = lines[at]!.indexOf('| ') + 2
  return {line: lines[at]!.slice(gutter), caret: lines[at + 1]!.slice(gutter).indexOf('^')}
}

describe('code frames', () => {
  it('shows the line with the one before and after, and a caret under the column', () => {
    expect(codeFrame('* A\n#+begin_src sh\nnever closed\n', 2, 3)).toBe(['  1 | * A', '> 2 | #+begin_src sh', '    |   ^', '  3 | never closed'].join('\n'))
  })

  it('cuts a 10,000-character line to a window around the column, … at both ends, the caret under its character', () => {
    const long = `${'a'.repeat(4999)}X${'b'.repeat(5000)}`
    const frame = codeFrame(`before\n${long}\nafter ${'c'.repeat(9000)}\n`, 2, 5000)
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual('> 2 | '.length + FRAME_WIDTH + 2)
    const {line, caret} = shown(frame)
    expect(line.startsWith('…a')).toBe(true)
    expect(line.endsWith('b…')).toBe(true)
    expect(line[caret]).toBe('X')
    // The neighbours are cut to the same window: the next line's columns stay under this one's.
    expect(frame.split('\n')[3]).toBe(`  3 | …${'c'.repeat(FRAME_WIDTH)}…`)
    expect(frame.split('\n')[0]).toBe('  1 | ')
  })

  it('keeps the caret in the window at the start and at the end of a long line', () => {
    const long = `X${'a'.repeat(300)}Y`
    const start = shown(codeFrame(long, 1, 1))
    expect(start.line[start.caret]).toBe('X')
    expect(start.line.endsWith('…')).toBe(true)
    const end = shown(codeFrame(long, 1, 302))
    expect(end.line[end.caret]).toBe('Y')
    expect(end.line.startsWith('…')).toBe(true)
  })

  it('clamps a column past the end of the line to its end', () => {
    const {line, caret} = shown(codeFrame('short\nline', 1, 99))
    expect(line).toBe('short')
    expect(caret).toBe('short'.length)
    expect(shown(codeFrame('short', 1, -4)).caret).toBe(0)
  })

  it('expands tabs alike in the line and under it, a tab before the column included', () => {
    const leading = shown(codeFrame('\tx = 1', 1, 2))
    expect(leading.line).toBe('    x = 1')
    expect(leading.line[leading.caret]).toBe('x')
    const inner = shown(codeFrame('ab\tc\td', 1, 6))
    expect(inner.line).toBe('ab  c   d')
    expect(inner.line[inner.caret]).toBe('d')
  })

  it('counts a character outside the BMP as one column, as it is shown', () => {
    const {line, caret} = shown(codeFrame('😀 x', 1, 4))
    expect(line).toBe('😀 x')
    expect([...line][caret]).toBe('x')
  })

  it('shows the lines of CRLF text without their CRs', () => {
    const frame = codeFrame('one\r\ntwo\r\nthree\r\n', 2, 2)
    expect(frame).not.toContain('\r')
    const {line, caret} = shown(frame)
    expect(line).toBe('two')
    expect(line[caret]).toBe('w')
  })

  it('gives no frame, and does not throw, for line 0, a line past the last, or an empty file past its one line', () => {
    expect(codeFrame('a\nb\n', 0, 1)).toBe('')
    expect(codeFrame('a\nb', 3, 1)).toBe('')
    expect(codeFrame('a\nb\n', 4, 1)).toBe('')
    expect(codeFrame('', 2, 1)).toBe('')
    expect(codeFrame('', 1, 1)).toBe('> 1 | \n    | ^')
  })
})
