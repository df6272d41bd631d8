/**
 * What a skill's Org document may grant its code with `#+CAPABILITIES:` lines
 * (`#+CAPABILITIES: shell fs net`). Without a grant, the sandbox rules
 * (sandbox.ts) refuse the code that needs it.
 */

export const CAPABILITIES = {
  shell: 'run programs (child_process)',
  threads: 'start threads and processes of Node (worker_threads, cluster)',
  eval: 'evaluate code (eval, new Function, vm, import() or require() of a computed name)',
  native: 'reach into the runtime (process.binding, process.dlopen, inspector)',
  fs: 'write, move and delete files (fs, fs/promises)',
  net: 'use the network (fetch, WebSocket, net, http, https, http2, dgram, tls, dns)',
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
