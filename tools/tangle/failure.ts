/**
 * What stops the tangling of one document. Org signals an error at these
 * points (or we refuse where safety requires); the failure carries the
 * message a builder of `tools/messages/` made and the place, and becomes a
 * diagnostic at the document boundary, where nothing of the document has been
 * written yet.
 */
import type {Position} from 'unist'
import type {Message} from '../diagnostics.ts'

export class Failure extends Error {
  constructor(
    readonly problem: Message,
    readonly place: Position | undefined,
  ) {
    super(problem.reason)
  }
}
