/**
 * The colours of a weave's code, kept from one weave to the next: colouring is most of a cold weave (shiki's
 * Oniguruma took 11 of the 14.5 s of this project's 75 documents, 2026-11-30), and a block's colours depend on
 * nothing but its text, its grammar, and the versions of shiki and of the TextMate engine. So each block's tokens
 * are kept in the project's state folder (`stateFolder(base, 'weave-colours')`, beside the tangle's cache), a file
 * a block named by a hash of those, written whole then renamed into place; a weave colours only the blocks not
 * kept, and loads shiki only when there is one. A file a block: a save reads the colours of the blocks it reads
 * and no others (one file of all of them was 8 MB for this project, read and written again at every save). The
 * folder keeps the colours of the pages on disk, no more: a block edited away takes its file with it. A file that
 * does not read, is not the shape written, or whose text is not its block's, is a miss, coloured again.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {readStateJson, stateFolder, writeStateFile} from '../tangle/cache.ts'
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

export class Colours {
  private readonly used = new Map<string, KeptLine[]>()
  /** The keys of the colours shiki made in this weave: each is written to its file by `save`. */
  private readonly made = new Set<string>()
  private missed: Code[] = []
  private asked: string[] = []
  /** The blocks shiki coloured in this weave (the others came from the last). */
  coloured = 0

  /** FOLDER: where each block's colours are kept, a file each. */
  private constructor(private readonly folder: string) {}

  /** The colours kept for the documents under BASE. */
  static open(base: string): Colours {
    return new Colours(stateFolder(base, 'weave-colours'))
  }

  /** Colour the CODE not kept yet; shiki is loaded, with the grammars of those alone, only when there is some. */
  async colour(code: Iterable<Code>): Promise<void> {
    const missing = [...code].filter((one) => grammarOf(one.language) && !this.find(one))
    if (missing.length === 0) return
    const highlighter = await Highlighter.load(missing.map((one) => one.language))
    try {
      for (const one of missing) {
        if (this.find(one)) continue
        const key = keyOf(one)
        this.used.set(key, highlighter.tokens(one.lines, one.language).map(keptLine))
        this.made.add(key)
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
   * Write the colours shiki made in this weave, each to its file, and remove the files of colours neither this
   * weave used nor ALSO names (the keys of the pages it did not make again, `takeAsked`): a block edited away takes
   * its colours with it. Nothing is written or removed when this weave coloured nothing and looked up nothing.
   * A file that cannot be written or removed is left: the colours are only kept to save time.
   */
  save(also: Iterable<string> = []): void {
    if (this.used.size === 0) return
    for (const key of this.made) {
      try {
        writeStateFile(this.fileOf(key), JSON.stringify(this.used.get(key)))
      } catch {
        // Coloured again next time.
      }
    }
    const keep = new Set([...this.used.keys(), ...also].map((key) => `${key}.json`))
    let names: string[] = []
    try {
      names = fs.readdirSync(this.folder)
    } catch {
      // No folder: nothing to remove.
    }
    for (const name of names) if (!keep.has(name)) fs.rmSync(path.join(this.folder, name), {force: true})
  }

  /** CODE's kept lines (from this weave or the last), when they are whole and of its text: else a miss. */
  private find(code: Code): KeptLine[] | undefined {
    const key = keyOf(code)
    const found = this.used.get(key)
    if (found) return found
    const kept = readStateJson(this.fileOf(key))
    if (!isKeptFor(kept, code.lines)) return undefined
    this.used.set(key, kept)
    return kept
  }

  private fileOf(key: string): string {
    return path.join(this.folder, `${key}.json`)
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
