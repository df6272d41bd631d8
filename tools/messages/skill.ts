/**
 * The messages of the `skill/*` rules the toolchain raises when it reads a
 * skill document for the core (session/skill-documents.ts). The core raises
 * the others (a throw while loading, a timeout) and builds them where it does.
 */
import type {Message} from '../diagnostics.ts'

/**
 * A skill document whose `#+begin_src` has no `#+end_src`, as the tangler said it (ORG_REASON): Org reads the
 * block as text, so the skill would load without that block's code (its gate, its trigger), as if they had
 * been deleted. The core does not load such a version.
 */
export function unterminatedSkillBlock(orgReason: string): Message {
  return {
    ruleId: 'skill/unterminated-block',
    reason: `${orgReason}; the core does not load a skill document with an unterminated block`,
    expected: ['add a #+end_src line'],
  }
}
