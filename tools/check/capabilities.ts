/**
 * What a skill's Org document may grant its code with `#+CAPABILITIES:` lines
 * (`#+CAPABILITIES: shell fs net read:notes`), and which of Node's modules each grants.
 * The sandbox rules (sandbox.ts) hold a skill's code to this at check time;
 * the skill host (org/core/endowments.org) gives a compartment exactly this
 * at run time.
 */
import {builtinModules} from 'node:module'
import {grantedFolder, neverReadable, type Places} from './reading.ts'

export const CAPABILITIES = {
  shell: 'run programs (child_process)',
  threads: 'start threads and processes of Node (worker_threads, cluster)',
  eval: 'evaluate code (eval, new Function, import() or require() of a computed name)',
  native:
    'reach into the runtime: process, and every module of Node not listed for another capability (vm, inspector, v8, module, os, crypto, …)',
  fs: 'write, move and delete files (fs, fs/promises)',
  read: "read files beyond the skill's own document and what it tangles: `read` the project, `read:FOLDER` a folder",
  net: 'use the network (fetch, WebSocket, net, http, https, http2, dgram, tls, dns)',
  memory:
    "read and write memory objects in the skill's own scope, read the shared scope and the sessions' conversations (through the core)",
} as const

export type Capability = keyof typeof CAPABILITIES

/** What `#+CAPABILITIES:` values grant. */
export interface Grants {
  granted: Capability[]
  /** The folders `read` grants, as written: `.` for a bare `read` (the project), else what follows `read:`. */
  reads: string[]
  /** Names that grant nothing. */
  unknown: string[]
  /** Words that name a capability but cannot grant as written, each with why. */
  invalid: {word: string; why: string}[]
}

/**
 * The capabilities one `#+CAPABILITIES:` value grants: names separated by spaces or commas, any case; `read` alone
 * (the project) or with a folder (`read:notes`, `read:~/recipes`, `read:/srv/data`), the one capability that names
 * what it reaches. A folder's name has no space nor comma in it.
 */
export function parseCapabilities(value: string): Grants {
  const grants: Grants = {granted: [], reads: [], unknown: [], invalid: []}
  for (const word of value.split(/[\s,]+/)) {
    if (word === '') continue
    const colon = word.indexOf(':')
    const name = (colon === -1 ? word : word.slice(0, colon)).toLowerCase()
    if (!Object.hasOwn(CAPABILITIES, name)) {
      grants.unknown.push(word)
      continue
    }
    if (colon !== -1 && name !== 'read') {
      grants.invalid.push({word, why: `only read names what it reaches: '${name}' takes no folder`})
      continue
    }
    const folder = colon === -1 ? (name === 'read' ? '.' : undefined) : word.slice(colon + 1)
    if (folder === '') {
      grants.invalid.push({word, why: 'read: names no folder (a bare read is the project)'})
      continue
    }
    if (!grants.granted.includes(name as Capability)) grants.granted.push(name as Capability)
    if (folder !== undefined && !grants.reads.includes(folder)) grants.reads.push(folder)
  }
  return grants
}

/** The `read:` folders of READS (as written) that lie where no skill reads, each as its word and why. */
export function unreadableGrants(reads: readonly string[], places: Places): {word: string; why: string}[] {
  return reads.flatMap((folder) => {
    const never = neverReadable(grantedFolder(folder, places), places)
    return never === undefined ? [] : [{word: `read:${folder}`, why: `no skill reads ${never}`}]
  })
}

/**
 * Node's modules a skill loads without a capability: pure helpers, and `fs`
 * for reading (without `fs`, the skill host's `fs` only reads, and only what
 * the skill may read: reading.ts; the rules report each write).
 */
export const FREE_MODULES: ReadonlySet<string> = new Set([
  'path',
  'path/posix',
  'path/win32',
  'url',
  'util',
  'util/types',
  'fs',
  'fs/promises',
])

/** The capability a module of Node needs when it is not free; any module not named here needs `native`. */
const MODULE_CAPABILITIES: Readonly<Record<string, Capability>> = {
  child_process: 'shell',
  worker_threads: 'threads',
  cluster: 'threads',
  ...Object.fromEntries(
    [
      'net',
      'http',
      'https',
      'http2',
      'dgram',
      'tls',
      'dns',
      'dns/promises',
      '_http_agent',
      '_http_client',
      '_http_common',
      '_http_incoming',
      '_http_outgoing',
      '_http_server',
      '_tls_common',
      '_tls_wrap',
    ].map((name) => [name, 'net']),
  ),
}

const BUILTINS = new Set(builtinModules)

/** The name of Node's module SPECIFIER loads (`node:fs/promises` → `fs/promises`), or undefined for a package. */
export function builtinName(specifier: string): string | undefined {
  // `node:test`, `node:sea`: some modules exist only with the prefix, and without it the name is a package's.
  if (specifier.startsWith('node:')) return specifier.slice('node:'.length)
  return BUILTINS.has(specifier) ? specifier : undefined
}

/** The capability loading Node's module NAME needs; undefined when it is free. */
export function moduleCapability(name: string): Capability | undefined {
  if (FREE_MODULES.has(name)) return undefined
  return MODULE_CAPABILITIES[name] ?? 'native'
}
