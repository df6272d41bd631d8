/**
 * The documents of a project in load order: each `#+DEPENDS_ON:` entry
 * resolved to the document it names, dependencies before dependents, ties
 * broken by path so that every machine loads in the same order.
 *
 * Resolution: `id:X` names the document holding ID X; a bare word names an ID
 * first, then a document by its file name without `.org`. The order is Kahn's
 * with the smallest path first among the ready documents; what is left
 * afterwards sits on a cycle or behind one, and comes last, by path.
 */
import path from 'node:path'
import {type Diagnostic, diagnostic, displayPath, type Message} from '../diagnostics.ts'
import * as graphMessages from '../messages/graph.ts'
import type {DependencyEntry, DocumentMeta} from '../org/document-meta.ts'
import {dependencyGroups, shortestCycle} from './cycles.ts'
import {MinHeap} from './min-heap.ts'

export interface DocumentGraph {
  /** Every document, dependencies first; those on or behind a cycle last. */
  order: string[]
  /** The documents each one depends on directly, sorted by path. */
  dependencies: ReadonlyMap<string, readonly string[]>
  /** Documents whose dependencies cannot all be resolved or ordered: they should not load. */
  broken: ReadonlySet<string>
  diagnostics: Diagnostic[]
}

export interface GraphOptions {
  /** Paths in messages are relative to this folder. */
  base: string
  /**
   * Names of documents that exist but are not among DOCUMENTS here: the shipped skills turned off. A dependency on
   * one by name is said to be on a skill turned off, not on an unknown document.
   */
  off?: readonly string[]
}

export function buildGraph(documents: readonly DocumentMeta[], options: GraphOptions): DocumentGraph {
  const sorted = [...documents].sort((a, b) => compare(a.path, b.path))
  const diagnostics: Diagnostic[] = []
  const broken = new Set<string>()
  const resolver = new Resolver(sorted, options.base, diagnostics, options.off ?? [])
  const dependencies = new Map<string, string[]>()
  const edgeEntry = new Map<string, DependencyEntry>()
  for (const document of sorted) {
    const targets = new Set<string>()
    for (const entry of document.dependsOn) {
      const target = resolver.resolve(document.path, entry)
      if (target === undefined) broken.add(document.path)
      else if (!targets.has(target)) {
        targets.add(target)
        edgeEntry.set(`${document.path}\0${target}`, entry)
      }
    }
    dependencies.set(document.path, [...targets].sort(compare))
  }
  const order = kahn(
    sorted.map((document) => document.path),
    dependencies,
  )
  const ordered = new Set(order)
  const rest = sorted.map((document) => document.path).filter((file) => !ordered.has(file))
  for (const file of rest) broken.add(file)
  // One message per group of documents that depend on each other, at the first edge of a cycle from its smallest path.
  for (const group of dependencyGroups(rest, dependencies)) {
    const cycle = shortestCycle(group[0]!, group, dependencies)
    const [first, second] = cycle
    const entry = edgeEntry.get(`${first}\0${second}`)!
    diagnostics.push(
      diagnostic(first!, graphMessages.cycle(cycle.map((file) => displayPath(file, options.base))), entry.position),
    )
  }
  diagnostics.sort(
    (a, b) => compare(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  )
  return {order: [...order, ...rest], dependencies, broken, diagnostics}
}

/** The documents that depend on FILE, directly or not, in the graph's load order. */
export function dependentsOf(graph: DocumentGraph, file: string): string[] {
  const users = new Map<string, string[]>()
  for (const [document, targets] of graph.dependencies) {
    for (const target of targets) append(users, target, document)
  }
  const found = new Set<string>()
  const pending = [file]
  while (pending.length > 0) {
    for (const user of users.get(pending.pop()!) ?? []) {
      if (found.has(user) || user === file) continue
      found.add(user)
      pending.push(user)
    }
  }
  return graph.order.filter((document) => found.has(document))
}

/** FILES and the documents they depend on, directly or not, in the graph's load order. */
export function withDependencies(graph: DocumentGraph, files: readonly string[]): string[] {
  const found = new Set(files)
  const pending = [...files]
  while (pending.length > 0) {
    for (const target of graph.dependencies.get(pending.pop()!) ?? []) {
      if (found.has(target)) continue
      found.add(target)
      pending.push(target)
    }
  }
  return graph.order.filter((document) => found.has(document))
}

class Resolver {
  /** The first holder of each ID, by path then line. */
  private readonly idOwners = new Map<string, {path: string; line: number; column: number}>()
  private readonly byFileName = new Map<string, string[]>()

  constructor(
    documents: readonly DocumentMeta[],
    private readonly base: string,
    private readonly diagnostics: Diagnostic[],
    private readonly off: readonly string[],
  ) {
    for (const document of documents) {
      const name = path.basename(document.path, '.org')
      append(this.byFileName, name, document.path)
      for (const {id, position} of document.ids) {
        const first = this.idOwners.get(id)
        const place = {path: document.path, ...position.start}
        if (!first) this.idOwners.set(id, place)
        else diagnostics.push(diagnostic(document.path, graphMessages.duplicateId(id, this.where(first)), position))
      }
    }
  }

  /** The document ENTRY of FROM names, or undefined after reporting why there is none. */
  resolve(from: string, entry: DependencyEntry): string | undefined {
    let target = this.idOwners.get(entry.name)?.path
    if (target === undefined && entry.kind === 'word') {
      const candidates = this.byFileName.get(entry.name) ?? []
      if (candidates.length > 1) {
        return this.fail(
          from,
          entry,
          graphMessages.ambiguousDependency(
            entry.text,
            candidates.map((file) => displayPath(file, this.base)),
          ),
        )
      }
      target = candidates[0]
    }
    if (target === undefined && entry.kind === 'word' && this.off.includes(entry.name))
      return this.fail(from, entry, graphMessages.dependencyOff(entry.text))
    if (target === undefined)
      return this.fail(from, entry, graphMessages.unknownDependency(entry.text, entry.name, entry.kind === 'id'))
    if (target === from) return this.fail(from, entry, graphMessages.selfDependency(entry.text))
    return target
  }

  private fail(from: string, entry: DependencyEntry, message: Message): undefined {
    this.diagnostics.push(diagnostic(from, message, entry.position))
    return undefined
  }

  private where(place: {path: string; line: number; column: number}): string {
    return `${displayPath(place.path, this.base)}:${place.line}:${place.column}`
  }
}

/** Kahn's algorithm, smallest path first among the ready: the documents it can order. */
function kahn(files: readonly string[], dependencies: ReadonlyMap<string, readonly string[]>): string[] {
  const waiting = new Map<string, number>()
  const users = new Map<string, string[]>()
  const ready = new MinHeap<string>(compare)
  for (const file of files) {
    const targets = dependencies.get(file) ?? []
    waiting.set(file, targets.length)
    for (const target of targets) append(users, target, file)
    if (targets.length === 0) ready.push(file)
  }
  const order: string[] = []
  for (let file = ready.pop(); file !== undefined; file = ready.pop()) {
    order.push(file)
    for (const user of users.get(file) ?? []) {
      const left = waiting.get(user)! - 1
      waiting.set(user, left)
      if (left === 0) ready.push(user)
    }
  }
  return order
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
