/**
 * The line diff: its regions, applied to the old lines, give the new ones; and it finds no more edits than it must.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {changedRegions} from '../../tools/detangle/line-diff.ts'

/** OLD with each region replaced by its new lines. */
function applyRegions(old: string[], now: string[]): string[] {
  const out: string[] = []
  let at = 0
  for (const region of changedRegions(old, now)) {
    out.push(...old.slice(at, region.oldStart), ...now.slice(region.newStart, region.newEnd))
    at = region.oldEnd
  }
  return [...out, ...old.slice(at)]
}

const lines = fc.array(fc.constantFrom('a', 'b', 'c', ''), {maxLength: 12})

describe('changedRegions', () => {
  it('gives back the new lines when applied to the old', () => {
    fc.assert(
      fc.property(lines, lines, (old, now) => {
        expect(applyRegions(old, now)).toEqual(now)
      }),
    )
  })

  it.each([
    {old: ['a', 'b', 'c'], now: ['a', 'b', 'c'], regions: []},
    {old: ['a', 'b', 'c'], now: ['a', 'x', 'c'], regions: [{oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 2}]},
    {old: ['a', 'b', 'c'], now: ['a', 'c'], regions: [{oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 1}]},
    {old: ['a', 'c'], now: ['a', 'b', 'c'], regions: [{oldStart: 1, oldEnd: 1, newStart: 1, newEnd: 2}]},
    {
      old: ['x', 'a', 'b', 'y'],
      now: ['z', 'a', 'b', 'w'],
      regions: [
        {oldStart: 0, oldEnd: 1, newStart: 0, newEnd: 1},
        {oldStart: 3, oldEnd: 4, newStart: 3, newEnd: 4},
      ],
    },
  ])('$old → $now', ({old, now, regions}) => {
    expect(changedRegions(old, now)).toEqual(regions)
  })
})
