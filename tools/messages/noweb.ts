/**
 * The messages of the `noweb/*` rules: references Org replaces with nothing.
 * Both are warnings; the noweb failures Org signals are `tangle/*` rules
 * (`messages/tangle.ts`).
 */
import type {Message} from '../diagnostics.ts'

/** `<<NAME>>` matches no block. */
export function unresolved(name: string): Message {
  return {
    ruleId: 'noweb/unresolved',
    reason: `<<${name}>> matches no block (no #+NAME: ${name}, no :noweb-ref ${name}); Org replaces it with nothing`,
  }
}

/** `<<NAME>>` matches no block, and reads like a shift or a generic of TypeScript. */
export function looksLikeCode(name: string): Message {
  return {
    ruleId: 'noweb/looks-like-code',
    reason: `<<${name}>> reads as a noweb reference (":noweb" is on) and matches no block, so Org replaces it with nothing`,
    expected: ['if it is a shift or a generic, add spaces (a << b >> c)', 'or turn :noweb off for this block'],
  }
}
