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

/**
 * A skill document's `#+PASSEPARTOUT:` line asks for version NEEDED (as written: it may be past what a number holds)
 * of the skill API; the installation gives INSTALLED.
 */
export function newerSkillApi(needed: string, installed: number): Message {
  return {
    ruleId: 'skill/api-version',
    reason: `the document needs version ${needed} of the skill API; this installation's is ${installed}: it is not loaded`,
    expected: [
      `install a passepartout whose skill API is ${needed} or later, or write the document for version ${installed}`,
    ],
  }
}

/** A skill document's `#+PASSEPARTOUT:` line says VALUE, which is no version of the skill API. */
export function unreadableSkillApi(value: string): Message {
  return {
    ruleId: 'skill/api-version',
    reason: `#+PASSEPARTOUT: takes the version of the skill API the document needs, a whole number, not ${JSON.stringify(value)}`,
  }
}

/** A skill document has a second `#+PASSEPARTOUT:` line; the first is at line FIRST (1-based). */
export function skillApiTwice(first: number): Message {
  return {
    ruleId: 'skill/api-version',
    reason: `#+PASSEPARTOUT: is said a second time (first at line ${first}): a document says once which skill API it needs`,
    expected: ['remove one of the lines'],
  }
}
