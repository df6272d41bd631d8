/**
 * The messages of the `fmt/*` rules: what `passepartout fmt` leaves as it is,
 * and why. Both are warnings: the block or file is kept byte for byte.
 */
import type {Message} from '../diagnostics.ts'

/** What a block may be short of a whole program. */
const FRAGMENTS =
  'a block that is a fragment parses as a whole program, as the members of a class, or as its start or its end'

/** The formatter could not parse the code, for REASON (the parser's own sentence). */
export function unparsable(what: 'block' | 'file', reason: string): Message {
  const reasonText = `the ${what} does not parse (${reason}): it is left as it is`
  return what === 'block'
    ? {ruleId: 'fmt/parse', reason: reasonText, expected: [FRAGMENTS]}
    : {ruleId: 'fmt/parse', reason: reasonText}
}

/** The noweb reference <<NAME>> would not come back as it was written once the block was formatted. */
export function nowebMoved(name: string): Message {
  return {
    ruleId: 'fmt/noweb',
    reason: `formatting would move or split the noweb reference <<${name}>>: the block is left as it is`,
  }
}

/** The formatted file could not be written over the file, for WHY: the file holds what it held. */
export function formattedUnwritten(why: string): Message {
  return {ruleId: 'io/write', reason: `cannot write the formatted file: ${why}; it is left as it was`}
}
