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

/** A text of header arguments a block takes, and where it is written (null: no such text). */
interface HeaderText {
  text: string | null
  origin: Position | undefined
}

/**
 * Whether TEXT may hold a value that `org-babel-read` evaluates (header-args.ts, elisp.ts `babelRead`): one that
 * begins with `(`, `'`, `` ` `` or `[`, or is `*this*`. Where none of these is, evaluated and light readings agree.
 */
function evaluable(text: string | null): boolean {
  return text !== null && /[('`[]|\*this\*/.test(text)
}

/** Block infos of one document, computed once each ("light" ones leave Lisp forms unevaluated). */
export class BlockInfos {
  private readonly light = new Map<number, BlockInfo>()
  private readonly full = new Map<number, BlockInfo>()
  private readonly bodies = new Map<number, SourceText>()
  private readonly headerTexts = new Map<number, readonly HeaderText[]>()

  constructor(private readonly doc: OrgDocument) {}

  /**
   * BLOCK's info, its Lisp forms evaluated when EVALUATE. A block whose header arguments hold nothing evaluation
   * reads differently (`evaluable`) has one info for both, read once: most blocks, each asked for both.
   */
  get(block: SrcBlock, evaluate: boolean): BlockInfo {
    const cache = evaluate ? this.full : this.light
    let info = cache.get(block.index)
    if (!info) {
      const texts = this.texts(block)
      info =
        evaluate && !texts.some((source) => evaluable(source.text))
          ? this.get(block, false)
          : {
              block,
              language: block.language,
              body: this.body(block),
              params: mergeParams(this.sources(block, texts, evaluate)),
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

  /** Org's defaults for BLOCK, then its header-argument TEXTS, each read (`evaluate`: its Lisp forms evaluated). */
  private sources(block: SrcBlock, texts: readonly HeaderText[], evaluate: boolean): ParamSource[] {
    return [
      {args: defaultArguments(block.language), origin: undefined},
      ...texts.map((source) => ({args: this.parse(source.text, evaluate, source.origin), origin: source.origin})),
    ]
  }

  /**
   * The header-argument texts of BLOCK, in the order they merge: the inherited `header-args` and
   * `header-args:LANG`, the block line, the `#+HEADER` lines (last first). Found once, for both of its infos.
   */
  private texts(block: SrcBlock): readonly HeaderText[] {
    const found = this.headerTexts.get(block.index)
    if (found) return found
    const language = block.language
    const texts: HeaderText[] = []
    for (const property of language === null ? ['header-args'] : ['header-args', `header-args:${language}`]) {
      const inherited = inheritedProperty(this.doc, block.headline, property)
      texts.push({text: inherited?.value ?? null, origin: inherited?.origins[0]})
    }
    texts.push({text: block.parameters, origin: block.open})
    for (const header of [...block.headers].reverse()) texts.push({text: header.value, origin: header.position})
    this.headerTexts.set(block.index, texts)
    return texts
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
