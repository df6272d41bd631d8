/**
 * The colours of a weave's code, kept from one weave to the next: colouring is most of a cold weave (shiki's
 * Oniguruma took 11 of the 14.5 s of this project's 75 documents, 2026-11-30), and a block's colours depend on
 * nothing but its text, its grammar, and the versions of shiki and of the TextMate engine. So each block's tokens
 * are kept in the project's state folder (`stateFile(base, 'weave-colours')`, beside the tangle's cache), keyed
 * by a hash of those; a weave colours only the blocks not kept, and loads shiki only when there is one. The file
 * holds the entries the last weave used, no more (that is its pruning: a block edited away leaves it), written
 * whole, then renamed over the last. An entry that is not the shape written, or whose text is not its block's, is
 * a miss, coloured again; a file that does not read is none.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {readStateJson, stateFile, writeStateFile} from '../tangle/cache.ts'
import {type CodeToken, grammarOf, Highlighter} from './highlight.ts'

/** Code to colour: its lines and its Org language. */
export interface Code {
  lines: readonly string[]
  language: string | null
}

/**
 * A line as kept: its tokens' texts and classes in turn, `''` for a token with none (`["const", "t-token-keyword",
 * " x", ""]`): a fifth of the size of the tokens as objects, read back the faster.
 */
type KeptLine = string[]

/**
 * What colours a token the same way: shiki's version (its grammars are pinned to it) and its TextMate engine's,
 * as shiki finds it (that package exports no package.json: its own is found above its entry point).
 */
const VERSIONS = (() => {
  const shiki = createRequire(import.meta.url).resolve('shiki/package.json')
  let folder = path.dirname(createRequire(shiki).resolve('@shikijs/vscode-textmate'))
  while (!fs.existsSync(path.join(folder, 'package.json'))) folder = path.dirname(folder)
  const version = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as {version: string}).version
  return `shiki ${version(shiki)}, vscode-textmate ${version(path.join(folder, 'package.json'))}`
})()

const FORMAT = 1

export class Colours {
  private readonly used = new Map<string, KeptLine[]>()
  private missed: Code[] = []
  private asked: string[] = []
  /** The blocks shiki coloured in this weave (the others came from the last). */
  coloured = 0

  private constructor(
    private readonly file: string,
    private readonly kept: Record<string, unknown>,
  ) {}

  /** The colours kept for the documents under BASE (none when the file is missing or does not read). */
  static open(base: string): Colours {
    const file = stateFile(base, 'weave-colours')
    const state = readStateJson(file) as {format?: unknown; entries?: unknown} | undefined
    const entries = state?.format === FORMAT && isRecord(state.entries) ? state.entries : {}
    return new Colours(file, entries)
  }

  /** Colour the CODE not kept yet; shiki is loaded, with the grammars of those alone, only when there is some. */
  async colour(code: Iterable<Code>): Promise<void> {
    const missing = [...code].filter((one) => grammarOf(one.language) && !this.find(one))
    if (missing.length === 0) return
    const highlighter = await Highlighter.load(missing.map((one) => one.language))
    try {
      for (const one of missing) {
        if (this.find(one)) continue
        this.used.set(keyOf(one), highlighter.tokens(one.lines, one.language).map(keptLine))
        this.coloured++
      }
    } finally {
      highlighter.dispose()
    }
  }

  /** CODE's lines as tokens: its colours kept, else plain text (a language with no grammar, or code not coloured yet: remembered, `takeMissed`). */
  tokens(lines: readonly string[], language: string | null): CodeToken[][] {
    const code = {lines, language}
    if (grammarOf(language)) this.asked.push(keyOf(code))
    const kept = grammarOf(language) ? this.find(code) : undefined
    if (grammarOf(language) && !kept) this.missed.push(code)
    return kept ? kept.map(codeTokens) : lines.map((text) => [{text, kind: undefined}])
  }

  /** The code `tokens` was asked for and had not coloured, since the last call. */
  takeMissed(): Code[] {
    const missed = this.missed
    this.missed = []
    return missed
  }

  /** The keys of the colours `tokens` was asked for since the last call: what a page's code needs kept. */
  takeAsked(): string[] {
    const asked = this.asked
    this.asked = []
    return asked
  }

  /**
   * Keep the colours this weave used, and those of ALSO (the keys of the pages it did not make again, `takeAsked`),
   * no others, for the next; a file that cannot be written keeps none.
   */
  save(also: Iterable<string> = []): void {
    const entries = Object.fromEntries(this.used)
    for (const key of also)
      if (!Object.hasOwn(entries, key) && Object.hasOwn(this.kept, key)) entries[key] = this.kept[key] as KeptLine[]
    try {
      writeStateFile(this.file, JSON.stringify({format: FORMAT, entries}))
    } catch {
      // The colours are only kept to save time: the next weave colours the code again.
    }
  }

  /** CODE's kept lines (from this weave or the last), when they are whole and of its text. */
  private find(code: Code): KeptLine[] | undefined {
    const key = keyOf(code)
    const found = this.used.get(key)
    if (found) return found
    const kept = this.kept[key]
    if (!isKeptFor(kept, code.lines)) return undefined
    this.used.set(key, kept)
    return kept
  }
}

/** The key of CODE's colours: a hash of its grammar, its text and the versions that colour it. */
function keyOf(code: Code): string {
  return createHash('sha256')
    .update(`${VERSIONS}\0${grammarOf(code.language)}\0${code.lines.join('\n')}`)
    .digest('base64url')
}

function keptLine(tokens: readonly CodeToken[]): KeptLine {
  return tokens.flatMap((token) => [token.text, token.kind ?? ''])
}

function codeTokens(line: KeptLine): CodeToken[] {
  const tokens: CodeToken[] = []
  for (let index = 0; index < line.length; index += 2)
    tokens.push({text: line[index]!, kind: line[index + 1] || undefined})
  return tokens
}

/** Whether KEPT is a block's kept lines whose texts are LINES, each class a token's: else it is damaged. */
function isKeptFor(kept: unknown, lines: readonly string[]): kept is KeptLine[] {
  if (!Array.isArray(kept) || kept.length !== lines.length) return false
  return kept.every((line: unknown, index) => {
    if (!Array.isArray(line) || line.length % 2 !== 0 || !line.every((part) => typeof part === 'string')) return false
    let text = ''
    for (let part = 0; part < line.length; part += 2) {
      if (line[part + 1] !== '' && !/^t-token-[\w-]+$/.test(line[part + 1] as string)) return false
      text += line[part]
    }
    return text === lines[index]
  })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
