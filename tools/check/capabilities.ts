/**
 * What a skill's Org document may grant its code with `#+CAPABILITIES:` lines
 * (`#+CAPABILITIES: shell fs net`), and which of Node's modules each grants.
 * The sandbox rules (sandbox.ts) hold a skill's code to this at check time;
 * the skill host (org/core/endowments.org) gives a compartment exactly this
 * at run time.
 */
import {builtinModules} from 'node:module'

export const CAPABILITIES = {
  shell: 'run programs (child_process)',
  threads: 'start threads and processes of Node (worker_threads, cluster)',
  eval: 'evaluate code (eval, new Function, import() or require() of a computed name)',
  native:
    'reach into the runtime: process, and every module of Node not listed for another capability (vm, inspector, v8, module, os, crypto, …)',
  fs: 'write, move and delete files (fs, fs/promises; reading needs nothing)',
  net: 'use the network (fetch, WebSocket, net, http, https, http2, dgram, tls, dns)',
  memory:
    "read and write memory objects in the skill's own scope, read the shared scope and the sessions' conversations (through the core)",
} as const

export type Capability = keyof typeof CAPABILITIES

/** The capabilities one `#+CAPABILITIES:` value grants (names separated by spaces or commas, any case), and the names that grant nothing. */
export function parseCapabilities(value: string): {granted: Capability[]; unknown: string[]} {
  const granted: Capability[] = []
  const unknown: string[] = []
  for (const name of value.split(/[\s,]+/)) {
    if (name === '') continue
    const capability = name.toLowerCase()
    if (Object.hasOwn(CAPABILITIES, capability)) granted.push(capability as Capability)
    else unknown.push(name)
  }
  return {granted, unknown}
}

/**
 * Node's modules a skill loads without a capability: pure helpers, and `fs`
 * for reading (without `fs`, the skill host's `fs` only reads; the rules
 * report each write).
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
