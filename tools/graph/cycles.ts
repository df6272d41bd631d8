/**
 * Cycles among documents: the groups that depend on each other (strongly
 * connected components, Tarjan's algorithm without recursion, so a chain of
 * 10,000 documents cannot overflow the stack) and one shortest cycle through
 * each group, to name in a message.
 */
import {noCycleThrough} from '../messages/graph.ts'

type Edges = ReadonlyMap<string, readonly string[]>

/** The groups of two or more of NODES that reach each other through EDGES, each sorted, in the order of their first member. */
export function dependencyGroups(nodes: readonly string[], edges: Edges): string[][] {
  const within = new Set(nodes)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  for (const root of nodes) {
    if (index.has(root)) continue
    // Each frame: a node, its edges within NODES, and how many of them have been followed.
    const frames: {node: string; targets: string[]; next: number}[] = []
    const visit = (node: string) => {
      index.set(node, index.size)
      low.set(node, index.get(node)!)
      stack.push(node)
      onStack.add(node)
      frames.push({node, targets: (edges.get(node) ?? []).filter((target) => within.has(target)), next: 0})
    }
    visit(root)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++]!
        if (!index.has(target)) visit(target)
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!))
        continue
      }
      frames.pop()
      const parent = frames[frames.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const group: string[] = []
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member)
        group.push(member)
        if (member === frame.node) break
      }
      if (group.length > 1) groups.push(group.sort())
    }
  }
  return groups.sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
}

/** A shortest cycle from START back to START through MEMBERS (a group), as the list of its documents with START at both ends. */
export function shortestCycle(start: string, members: readonly string[], edges: Edges): string[] {
  const within = new Set(members)
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let k = 0; k < queue.length; k++) {
    const node = queue[k]!
    for (const target of edges.get(node) ?? []) {
      if (!within.has(target)) continue
      if (target === start) {
        const path: string[] = []
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.unshift(at)
        return [start, ...path, start]
      }
      if (cameFrom.has(target)) continue
      cameFrom.set(target, node)
      queue.push(target)
    }
  }
  throw new Error(noCycleThrough(start))
}
