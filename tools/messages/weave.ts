/**
 * The messages of the `weave/*` rules: what a woven page cannot link to. Each is said at the Org line of the
 * link, and the page is written all the same (the link's text, unlinked).
 */
import type {Message} from '../diagnostics.ts'

/** `[[id:ID]]` names an ID no woven document holds. */
export function unknownId(id: string): Message {
  return {
    ruleId: 'weave/unknown-id',
    reason: `no woven document holds the ID '${id}': the page shows the link's text, unlinked`,
  }
}
