/**
 * A line diff: the shortest edit script (Myers, "An O(ND) difference algorithm", 1986) between the lines a tangle
 * wrote and the lines of the edited file, as the regions that changed.
 *
 * Written here rather than taken from jsdiff (`diff`): detangle needs only the regions, on arrays of lines, and
 * jsdiff's `diffArrays` is the same algorithm with a change object per run and options we would not use. The
 * common head and tail are cut first (an edit is usually a few lines of a long file), and past `MAX_EDITS` edits
 * the middle is one region: the search's memory grows as the square of the edits, and a file rewritten that much
 * has no line-by-line story to tell anyway.
 */

/** One region that changed: old lines `[oldStart, oldEnd)` became new lines `[newStart, newEnd)`; 0-based. */
export interface ChangedRegion {
  oldStart: number
  oldEnd: number
  newStart: number
  newEnd: number
}

/** The most edits (lines removed plus lines added) searched for one by one. */
const MAX_EDITS = 2000

/** The regions where NEW differs from OLD, in order; none when they are equal. */
export function changedRegions(old: readonly string[], now: readonly string[]): ChangedRegion[] {
  let head = 0
  while (head < old.length && head < now.length && old[head] === now[head]) head++
  let tail = 0
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail++
  const a = old.slice(head, old.length - tail)
  const b = now.slice(head, now.length - tail)
  if (a.length === 0 && b.length === 0) return []
  const script = editScript(a, b)
  if (!script) return [{oldStart: head, oldEnd: head + a.length, newStart: head, newEnd: head + b.length}]
  return regionsOf(script, head)
}

/** 'k': a line kept, '-': removed from OLD, '+': added from NEW; undefined past MAX_EDITS. */
type Step = 'k' | '-' | '+'

/** Myers's forward search, keeping each round's furthest points to walk the path back. */
function editScript(a: readonly string[], b: readonly string[]): Step[] | undefined {
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, MAX_EDITS)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      // Down (a line added) when on the lower edge, or when the diagonal above reached further.
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, offset, n, m, d)
    }
  }
  return undefined
}

/** The steps of the path that reached (N, M) in D edits, first to last. */
function backtrack(trace: Int32Array[], offset: number, n: number, m: number, d: number): Step[] {
  const steps: Step[] = []
  let x = n
  let y = m
  for (let round = d; round > 0; round--) {
    const v = trace[round]!
    const k = x - y
    const down = k === -round || (k !== round && v[offset + k - 1]! < v[offset + k + 1]!)
    const previousK = down ? k + 1 : k - 1
    const previousX = v[offset + previousK]!
    const previousY = previousX - previousK
    while (x > previousX && y > previousY) {
      steps.push('k')
      x--
      y--
    }
    steps.push(down ? '+' : '-')
    x = previousX
    y = previousY
  }
  while (x > 0 && y > 0) {
    steps.push('k')
    x--
    y--
  }
  return steps.reverse()
}

/** The regions of SCRIPT, each a run of removals and additions between kept lines, shifted by HEAD. */
function regionsOf(script: readonly Step[], head: number): ChangedRegion[] {
  const regions: ChangedRegion[] = []
  let x = head
  let y = head
  let open: ChangedRegion | undefined
  for (const step of script) {
    if (step === 'k') {
      if (open) regions.push(open)
      open = undefined
      x++
      y++
      continue
    }
    open ??= {oldStart: x, oldEnd: x, newStart: y, newEnd: y}
    if (step === '-') open.oldEnd = ++x
    else open.newEnd = ++y
  }
  if (open) regions.push(open)
  return regions
}
