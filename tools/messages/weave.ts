/**
 * The messages of the `weave/*` rules: what a woven page cannot link to or include. Each is said at its Org
 * line, and the page is written all the same (a link's text unlinked, an include left out).
 */
import type {Message} from '../diagnostics.ts'

/** `[[id:ID]]` names an ID no woven document holds. */
export function unknownId(id: string): Message {
  return {
    ruleId: 'weave/unknown-id',
    reason: `no woven document holds the ID '${id}': the page shows the link's text, unlinked`,
  }
}

/** `#+INCLUDE:` names FILE, which cannot be read (WHY). */
export function includeUnreadable(file: string, why: string): Message {
  return {ruleId: 'weave/include-unreadable', reason: `cannot include ${file}: ${why}; the page goes on without it`}
}

/** A link to URL, whose scheme (SCHEME) runs script in the reader's browser. */
export function unsafeLink(url: string, scheme: string): Message {
  return {
    ruleId: 'weave/unsafe-link',
    reason: `the link ${url} would run script (${scheme}:) in the reader's browser: the page shows its text, unlinked`,
  }
}

/** The page PAGE of a document is the file of HOLDER's page already (null: a file of the site itself). */
export function pageConflict(page: string, holder: string | null): Message {
  const whose = holder === null ? "a file of the site's own" : `the page of ${holder}, the same file`
  return {
    ruleId: 'weave/page-conflict',
    reason: `its page ${page} would be ${whose} (names compared without case, as a case-insensitive disk does): it gets no page; rename the document`,
  }
}

/** `#+INCLUDE:` names FILE, outside ROOT (the project) and the folders allowed outside it. */
export function includeOutside(file: string, root: string): Message {
  return {
    ruleId: 'weave/include-outside',
    reason: `${file} is outside ${root} and the folders allowOutside names: a published page would show it, so the page goes on without it`,
  }
}
