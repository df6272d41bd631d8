/**
 * Code coloured as an editor colours it: shiki's TextMate grammars, with Oniguruma (as WebAssembly) for their
 * regular expressions, as VS Code reads them (shiki's JavaScript engine took three times as long on our
 * documents). Only the grammars of the languages the documents use are loaded: TypeScript alone is most of our
 * documents' blocks.
 */
import {createCssVariablesTheme, createHighlighterCore, type HighlighterCore, type ThemedToken} from 'shiki/core'
import {createOnigurumaEngine} from 'shiki/engine/oniguruma'

/** The grammars the weave knows, each loaded when a document uses its language. */
const GRAMMARS = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  'emacs-lisp': () => import('shiki/langs/emacs-lisp.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  make: () => import('shiki/langs/make.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  css: () => import('shiki/langs/css.mjs'),
}
type Grammar = keyof typeof GRAMMARS

/** Org's language names (what follows `#+begin_src`) and the grammar of each. */
const GRAMMAR_OF: Record<string, Grammar> = {
  typescript: 'typescript',
  ts: 'typescript',
  javascript: 'javascript',
  js: 'javascript',
  'emacs-lisp': 'emacs-lisp',
  elisp: 'emacs-lisp',
  sh: 'shellscript',
  shell: 'shellscript',
  bash: 'shellscript',
  python: 'python',
  makefile: 'make',
  json: 'json',
  css: 'css',
}

/**
 * One theme whose colours are CSS variables, `var(--t-keyword)`: a token says what kind it is (a class of the
 * page, `t-keyword`), and the style sheet gives each kind its colour, light or dark. The code is read once, where
 * a theme for light and one for dark read it twice (shiki tokenizes a block once a theme).
 */
const TOKEN_CLASSES = createCssVariablesTheme({name: 'weave', variablePrefix: '--t-', fontStyle: false})

/** A run of characters and the kind of token it is (`t-keyword`: its class), none for plain text. */
export interface CodeToken {
  text: string
  kind: string | undefined
}

export class Highlighter {
  private constructor(private readonly shiki: HighlighterCore) {}

  /** A highlighter with the grammars of LANGUAGES (Org's names; one the weave has no grammar for is plain text). */
  static async load(languages: Iterable<string | null>): Promise<Highlighter> {
    const grammars = new Set<Grammar>()
    for (const language of languages) {
      const grammar = grammarOf(language)
      if (grammar) grammars.add(grammar)
    }
    const shiki = await createHighlighterCore({
      themes: [TOKEN_CLASSES],
      langs: [...grammars].map((grammar) => GRAMMARS[grammar]()),
      engine: createOnigurumaEngine(import('shiki/wasm')),
    })
    return new Highlighter(shiki)
  }

  /** LINES of LANGUAGE as tokens, a list a line; plain text when the language has no grammar, or none loaded. */
  tokens(lines: readonly string[], language: string | null): CodeToken[][] {
    const grammar = grammarOf(language)
    if (!grammar || !this.shiki.getLoadedLanguages().includes(grammar))
      return lines.map((text) => [{text, kind: undefined}])
    // No time limit a line (shiki's is half a second): a line cut short on a loaded machine was coloured otherwise,
    // and a page's bytes changed from one weave to the next of the same document.
    const tokens = this.shiki.codeToTokensBase(lines.join('\n'), {
      lang: grammar,
      theme: TOKEN_CLASSES.name,
      tokenizeTimeLimit: 0,
    })
    return tokens.map((line) => line.map(toCodeToken))
  }

  dispose(): void {
    this.shiki.dispose()
  }
}

/** The grammar that colours Org's LANGUAGE, if the weave has one. */
export function grammarOf(language: string | null): Grammar | undefined {
  return language === null ? undefined : GRAMMAR_OF[language.toLowerCase()]
}

/** A token's colour `var(--t-token-keyword)` as its class, `t-token-keyword`; the text's own colour as none. */
function toCodeToken(token: ThemedToken): CodeToken {
  const kind = /^var\(--(t-token-[\w-]+)\)$/.exec(token.color ?? '')?.[1]
  return {text: token.content, kind}
}
