/** A binary min-heap: the ready documents of the topological sort, smallest path first. */
export class MinHeap<T> {
  private readonly items: T[] = []

  constructor(private readonly compare: (a: T, b: T) => number) {}

  push(item: T): void {
    const items = this.items
    items.push(item)
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1
      if (this.compare(items[i]!, items[parent]!) >= 0) break
      ;[items[i], items[parent]] = [items[parent]!, items[i]!]
      i = parent
    }
  }

  /** The smallest item, removed; undefined when empty. */
  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    items[0] = last
    for (let i = 0; ;) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < items.length && this.compare(items[left]!, items[smallest]!) < 0) smallest = left
      if (right < items.length && this.compare(items[right]!, items[smallest]!) < 0) smallest = right
      if (smallest === i) break
      ;[items[i], items[smallest]] = [items[smallest]!, items[i]!]
      i = smallest
    }
    return top
  }
}
