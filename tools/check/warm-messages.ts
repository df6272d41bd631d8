/**
 * What a thread asks the warm type checker's thread (warm-thread.ts, through warm-program.ts) and what it answers:
 * a union keyed on `type`, each request numbered, and its answer carrying the number.
 */
import type {TsProblem} from './checker.ts'

export type WarmRequest = {id: number} &
  /** Read FILES (again) into the program, with what they import, and those of IF_HELD that it holds already. */
  (
    | {type: 'update'; files: string[]; ifHeld: string[]}
    /** Go through a few edits in memory, so that the first re-checks are as fast as the next (warm-checker.ts). */
    | {type: 'prime'}
    /** Read FILES again; check them and their direct importers. */
    | {type: 'recheck'; files: string[]}
    /** Check the whole program as loaded. */
    | {type: 'check-program'}
  )

/** What each request answers with. */
export interface WarmAnswers {
  update: undefined
  prime: undefined
  recheck: {checked: string[]; problems: TsProblem[]}
  'check-program': TsProblem[]
}

export type WarmResponse = {id: number} & ({ok: true; value: unknown} | {ok: false; error: string})
