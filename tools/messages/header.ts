/**
 * The messages of the `header/*` rules: header arguments Org ignores or reads
 * otherwise than they say. All are warnings: Emacs writes the same files.
 */
import type {Message} from '../diagnostics.ts'

/** NAME is no header argument; SUGGESTION is a known one it may have meant (`:tangle` for `:TANGLE`). */
export function unknownArgument(name: string, suggestion: {name: string; caseOnly: boolean} | undefined): Message {
  return {
    ruleId: 'header/unknown-argument',
    reason: `Org does not know the header argument ${name} and ignores it${suggestion?.caseOnly ? ' (header-argument names are case-sensitive)' : ''}`,
    ...(suggestion ? {expected: [`did you mean ${suggestion.name}?`]} : {}),
  }
}

/** NAME VALUE is outside ALLOWED; READING says what Org makes of it. */
export function unusualValue(name: string, value: string, allowed: readonly string[], reading: string): Message {
  return {ruleId: 'header/unusual-value', reason: `${name} ${value} is not one of ${allowed.join(', ')}: ${reading}`}
}

/** The Lisp form SOURCE of the header argument NAME, which tangling does not use; WHY passepartout cannot evaluate it. */
export function lispIgnored(name: string, source: string, why: string): Message {
  return {
    ruleId: 'header/lisp-ignored',
    reason: `Org evaluates ${name} ${source} while tangling; passepartout ignores it (it does not change what is written; ${why})`,
  }
}

/** The variable NAME=SOURCE of a LANGUAGE block, whose variables tangling drops; WHY passepartout cannot evaluate it. */
export function lispIgnoredVariable(name: string, source: string, language: string | null, why: string): Message {
  return {
    ruleId: 'header/lisp-ignored',
    reason: `Org evaluates :var ${name}=${source} while tangling; passepartout ignores it (variables are dropped for ${language}; ${why})`,
  }
}

/** `:tangle-mode VALUE`, a decimal number that looks like an octal mode. */
export function decimalMode(value: number): Message {
  return {
    ruleId: 'header/decimal-mode',
    reason: `:tangle-mode ${value} is the decimal number ${value} (#o${value.toString(8)}), not the mode ${value}`,
    expected: [`for the mode ${value}, write :tangle-mode (identity #o${value})`],
  }
}
