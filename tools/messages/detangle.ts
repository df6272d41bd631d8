/**
 * The messages of the `detangle/*` rules: why `passepartout detangle` did not bring an edit of a generated file
 * back into its Org document. Every one is a refusal (an error): the document is left as it was, and the file too.
 * Places in generated files are given as `file:line`, 1-based, as an editor shows them.
 */
import type {Message} from '../diagnostics.ts'

/** A generated line and the file it is in, for a message: `generated/x.ts:20`. */
export interface GeneratedPlace {
  file: string
  /** 1-based. */
  line: number
}

function where(place: GeneratedPlace): string {
  return `${place.file}:${place.line}`
}

/** The edit at EDITED changes a line of a block that ALSO appear elsewhere (noweb references to it). */
export function sharedNoweb(edited: GeneratedPlace, also: readonly GeneratedPlace[]): Message {
  return {
    ruleId: 'detangle/shared-noweb',
    reason: `${where(edited)} was edited, but this line of the block is also written at ${also.map(where).join(', ')} (a noweb reference used more than once): changing it here would change it there`,
    expected: ['edit this block in the Org document', 'or make the same edit at every place, then detangle'],
  }
}

/** The edited line at EDITED is not a copy of a block's line but text Org wrote itself (WHAT says which). */
export function computedLine(edited: GeneratedPlace, what: string): Message {
  return {
    ruleId: 'detangle/computed-line',
    reason: `${where(edited)} was edited, but Org wrote that line itself (${what}): it has no block line to go back to`,
    expected: ['change what makes it in the Org document (the header arguments, the heading, the prose)'],
  }
}

/** The edit at EDITED replaces lines of more than one block (or the prefix of a noweb reference) by a different count. */
export function spansBlocks(edited: GeneratedPlace, lines: number, blocks: number): Message {
  return {
    ruleId: 'detangle/spans-blocks',
    reason: `${where(edited)}: ${lines} edited ${lines === 1 ? 'line replaces' : 'lines replace'} lines of ${blocks} blocks (or of a noweb reference and the line that holds it), and which block each new line belongs to cannot be told`,
    expected: ['make the edit within one block, or replace the lines one for one, then detangle'],
  }
}

/**
 * The document no longer tangles to what was written in the file (ORG_SIDE: what it would write now, at the first
 * line that differs; or why it does not tangle), and the file was edited too (FILE_SIDE: what the file holds there).
 */
export function bothEdited(target: string, orgSide: string, fileSide: string): Message {
  return {
    ruleId: 'detangle/both-edited',
    reason: `the Org document changed since ${target} was tangled, and ${target} was edited too: the document now tangles ${orgSide}; the file holds ${fileSide}`,
    expected: [
      'keep the Org side: passepartout tangle (the edit of the file is replaced)',
      'or undo one side, then detangle',
    ],
  }
}

/** The document was saved between detangle's reading it and its writing the edits back: that save is kept. */
export function savedMeanwhile(): Message {
  return {
    ruleId: 'detangle/both-edited',
    reason:
      'the Org document was saved while detangle read it: it is left as that save wrote it, and no edit went back',
    expected: ['detangle again'],
  }
}

/** A file (the place of the message) written by no document the record knows, or one its document no longer writes. */
export function noRecord(why: 'never' | 'no-longer'): Message {
  return {
    ruleId: 'detangle/no-record',
    reason:
      why === 'never'
        ? 'no document is recorded to have written this file, so there is nothing to compare the edit with'
        : 'the document recorded to have written this file no longer writes it',
    expected: ['tangle the project first, then edit the generated file'],
  }
}

/**
 * A generated file (the place of the message) that is a symbolic link to TARGET: the tangle writes none, so what it
 * leads to is no edit of what was written, and may be any file of the machine.
 */
export function linkedFile(target: string): Message {
  return {
    ruleId: 'detangle/link',
    reason: `this generated file is a symbolic link to ${target}, which the tangle never writes: nothing is read through it`,
    expected: ['put the edited file itself in its place, or tangle to write it again'],
  }
}

/** The Org document made of the edit tangles to something else than the edited bytes (WHAT: where they part). */
export function roundTrip(what: string): Message {
  return {
    ruleId: 'detangle/round-trip',
    reason: `the Org document this edit would make does not tangle back to the edited file: ${what}; nothing is written`,
    expected: ['make the edit in the Org document'],
  }
}

/** An edited file's LINE holds WHAT (a NUL byte, bytes that are not UTF-8): it is no text a document can hold. */
export function notText(line: number, what: string): Message {
  return {
    ruleId: 'detangle/not-text',
    reason: `line ${line} holds ${what}: a generated file is UTF-8 text, and these bytes cannot go into an Org document as they are`,
    expected: ['fix the bytes in the file (or undo its edit), then detangle'],
  }
}
