/**
 * `org-babel-get-src-block-info` for one block: its language, its normalized
 * body and its merged header arguments, from Org's defaults, the inherited
 * `header-args` and `header-args:LANG` properties, the `#+begin_src` line and
 * the `#+HEADER:` lines (the first of which wins).
 */
import type {Position} from 'unist'
import type {SrcBlock} from '../org/ast.ts'
import {blockBody} from '../org/parse.ts'
import {normalizedBody} from './body.ts'
import type {OrgDocument} from './document.ts'
import {LispEvalError, shortForm} from './elisp.ts'
import {LispReadError} from './lisp-atoms.ts'
import {Failure} from './failure.ts'
import * as tangleMessages from '../messages/tangle.ts'
import type {HeaderArgument} from './header-args.ts'
import {defaultArguments, mergeParams, type ParamSource, type Params} from './params.ts'
import {inheritedProperty} from './properties.ts'
import type {SourceText} from './text.ts'

export interface BlockInfo {
  block: SrcBlock
  language: string | null
  /** The body with commas unescaped, the final newline dropped and (unless `-i`) the common indentation removed. */
  body: SourceText
  params: Params
  switches: string
  name: string | null
}

/** Block infos of one document, computed once each ("light" ones leave Lisp forms unevaluated). */
export class BlockInfos {
  private readonly light = new Map<number, BlockInfo>()
  private readonly full = new Map<number, BlockInfo>()
  private readonly bodies = new Map<number, SourceText>()

  constructor(private readonly doc: OrgDocument) {}

  get(block: SrcBlock, evaluate: boolean): BlockInfo {
    const cache = evaluate ? this.full : this.light
    let info = cache.get(block.index)
    if (!info) {
      info = {
        block,
        language: block.language,
        body: this.body(block),
        params: mergeParams(this.sources(block, evaluate)),
        switches: block.switches ?? '',
        name: block.name,
      }
      cache.set(block.index, info)
    }
    return info
  }

  private body(block: SrcBlock): SourceText {
    let body = this.bodies.get(block.index)
    if (!body) {
      body = normalizedBody(blockBody(block, this.doc.lines), /-i\b/.test(block.switches ?? ''))
      this.bodies.set(block.index, body)
    }
    return body
  }

  /** Org's defaults, the inherited `header-args` and `header-args:LANG`, the block line, the `#+HEADER` lines (last first). */
  private sources(block: SrcBlock, evaluate: boolean): ParamSource[] {
    const language = block.language
    const sources: ParamSource[] = [{args: defaultArguments(language), origin: undefined}]
    for (const property of language === null ? ['header-args'] : ['header-args', `header-args:${language}`]) {
      const inherited = inheritedProperty(this.doc, block.headline, property)
      sources.push({
        args: inherited ? this.parse(inherited.value, evaluate, inherited.origins[0]) : [],
        origin: inherited?.origins[0],
      })
    }
    sources.push({args: this.parse(block.parameters, evaluate, block.open), origin: block.open})
    for (const header of [...block.headers].reverse())
      sources.push({args: this.parse(header.value, evaluate, header.position), origin: header.position})
    return sources
  }

  /** The header arguments of TEXT; Lisp read errors become failures at ORIGIN. */
  private parse(text: string | null, evaluate: boolean, origin: Position | undefined): HeaderArgument[] {
    if (text === null) return []
    try {
      return this.doc.headerArguments(text, evaluate)
    } catch (error) {
      if (error instanceof LispEvalError)
        throw new Failure(tangleMessages.evaluationFails(shortForm(error.form), error.error), origin)
      if (error instanceof LispReadError) throw new Failure(tangleMessages.unreadableHeader(error.message), origin)
      throw error
    }
  }
}
