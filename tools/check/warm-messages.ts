/**
 * What a process asks the type checker's process (warm-process.ts, through warm-program.ts) and what it answers:
 * a union keyed on `type`, each request numbered, and its answer carrying the number.
 */
import type {Message} from '../diagnostics.ts'
import type {Capability} from './capabilities.ts'
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
    /** Judge each of SKILLS' code by the sandbox rules (sandbox.ts); no program needed. */
    | {type: 'sandbox'; skills: SandboxSuspect[]}
  )

/** A skill's generated file, its text as it was read, and what the skill is granted. */
export interface SandboxSuspect {
  file: string
  text: string
  skill: string
  granted: Capability[]
}

/** A violation of the sandbox rules, where the file's text holds it (0-based, as TypeScript counts), and what it says. */
export interface SandboxFinding {
  line: number
  character: number
  message: Message
}

/** What each request answers with. */
export interface WarmAnswers {
  update: undefined
  prime: undefined
  recheck: {checked: string[]; problems: TsProblem[]}
  'check-program': TsProblem[]
  /** Each suspect's findings, in the order asked. */
  sandbox: SandboxFinding[][]
}

export type WarmResponse = {id: number} & ({ok: true; value: unknown} | {ok: false; error: string})
