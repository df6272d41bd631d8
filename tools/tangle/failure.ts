/**
 * What stops the tangling of one document. Org signals an error at these
 * points (or we refuse where safety requires); the failure carries the rule
 * and the place, and becomes a diagnostic at the document boundary, where
 * nothing of the document has been written yet.
 */
import type {Position} from 'unist'
import type {RuleId} from '../diagnostics.ts'

export class Failure extends Error {
  constructor(
    readonly reason: string,
    readonly place: Position | undefined,
    readonly ruleId: RuleId,
  ) {
    super(reason)
  }
}
