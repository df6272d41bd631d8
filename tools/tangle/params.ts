/**
 * A block's header arguments after `org-babel-merge-params`: later sources
 * replace earlier ones argument by argument, `:var` accumulates by variable
 * name, and where Org would signal an error so do we.
 */
import type {Position} from 'unist'
import {type LispValue, shortForm} from './elisp.ts'
import {Failure} from './failure.ts'
import * as tangleMessages from '../messages/tangle.ts'
import type {HeaderArgument} from './header-args.ts'
import {isEmacsLisp} from './languages.ts'

export interface Param {
  value: LispValue
  /** Where the argument was written, when known. */
  origin: Position | undefined
}

export interface ParamSource {
  args: HeaderArgument[]
  origin: Position | undefined
}

export class Params {
  constructor(
    private readonly entries: ReadonlyMap<string, Param>,
    /** `:var` assignments (`name=value`) in Org's final order. */
    readonly vars: readonly Param[],
  ) {}

  get(name: string): Param | undefined {
    return this.entries.get(name)
  }

  /** The value as a string, undefined when absent or nil; Org's `string=` fails on anything else. */
  string(name: string): string | undefined {
    const param = this.entries.get(name)
    if (!param || param.value.kind === 'nil') return undefined
    if (param.value.kind === 'string') return param.value.value
    if (param.value.kind === 'lisp') {
      throw new Failure(tangleMessages.lispForm(name, shortForm(param.value.source), param.value.reason), param.origin)
    }
    throw new Failure(tangleMessages.comparedAsString(name, param.value.value), param.origin)
  }

  names(): IterableIterator<string> {
    return this.entries.keys()
  }
}

const DEFAULTS: HeaderArgument[] = [
  [':session', 'none'],
  [':results', 'replace'],
  [':exports', 'code'],
  [':cache', 'no'],
  [':noweb', 'no'],
  [':hlines', 'no'],
  [':tangle', 'no'],
].map(([name, value]) => ({name: name!, value: {kind: 'string', value: value!}}))
const EMACS_LISP_DEFAULTS: HeaderArgument[] = [...DEFAULTS, {name: ':lexical', value: {kind: 'string', value: 'no'}}]

/** `org-babel-default-header-args`, and the extra defaults of Emacs Lisp blocks. */
export function defaultArguments(language: string | null): HeaderArgument[] {
  return isEmacsLisp(language) ? EMACS_LISP_DEFAULTS : DEFAULTS
}

export function mergeParams(sources: readonly ParamSource[]): Params {
  const entries = new Map<string, Param>()
  const vars: {name: string; param: Param}[] = []
  let variableIndex = 0
  for (const source of sources) {
    for (const arg of source.args) {
      const param: Param = {value: arg.value, origin: source.origin}
      if (arg.name === ':var') {
        if (arg.value.kind !== 'string') {
          throw new Failure(tangleMessages.variableWithoutAssignment(), source.origin)
        }
        const text = arg.value.value
        const name = /^([^= \f\t\n\r\v]+)[ \t]*=/.exec(text)?.[1]
        if (name !== undefined) {
          const existing = vars.findIndex((v) => v.name === name)
          if (existing !== -1) vars.splice(existing, 1)
          vars.push({name, param})
        } else if (vars[variableIndex]) {
          const target = vars[variableIndex]!
          target.param = {value: {kind: 'string', value: `${target.name}=${text}`}, origin: source.origin}
          variableIndex++
        } else {
          throw new Failure(tangleMessages.variableWithoutDefault(text), source.origin)
        }
      } else if (arg.name === ':results' && (arg.value.kind === 'nil' || arg.value.kind === 'number')) {
        throw new Failure(
          tangleMessages.notWords(':results', arg.value.kind === 'nil' ? 'missing' : 'numeric'),
          source.origin,
        )
      } else if (arg.name === ':exports' && arg.value.kind === 'number') {
        throw new Failure(tangleMessages.notWords(':exports', 'numeric'), source.origin)
      } else {
        entries.delete(arg.name)
        entries.set(arg.name, param)
      }
    }
  }
  return new Params(
    entries,
    vars.map((v) => v.param),
  )
}
