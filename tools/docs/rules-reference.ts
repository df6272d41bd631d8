/**
 * The reference of the rules (docs/reference/rules.md), from RULES: each rule id with its severity and
 * meaning, in a row whose anchor is the one a diagnostic's `url` names (`ruleUrl`).
 */
import {type RuleId, RULES, ruleUrl} from '../diagnostics.ts'
import {banner, code, table} from './markdown.ts'

/** The anchor of RULE's row: what follows the `#` of its url. */
const anchor = (rule: RuleId) => ruleUrl(rule).split('#')[1]!

export function rulesReference(): string {
  const rows = (Object.keys(RULES) as RuleId[]).map((rule) => {
    const [severity, meaning] = RULES[rule]
    return [`<a id="${anchor(rule)}"></a>${code(rule)}`, severity, meaning]
  })
  return `# Rules

${banner('RULES in tools/diagnostics.ts')}

Every problem Passepartout reports names its rule. It is printed on stderr as one line, \`path:LINE:COL: severity:
reason [rule]\` (what editors and problem matchers read), and a \`--json\` report gives it as \`rule\`, with \`url\`
naming its row here (\`docs/reference/rules.md#rule-tangle-missing-directory\`). The rule for problems: where Emacs
writes output, Passepartout writes the same bytes and may add a warning; it refuses only where Emacs fails or
where safety requires it.

${table(['rule', 'severity', 'meaning'], rows)}
`
}
