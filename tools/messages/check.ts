/**
 * The messages of `passepartout check`: TypeScript's own diagnostics (`ts`),
 * a compiler that could not run (`check/compiler`), and the sandbox rules that
 * hold skills to their capabilities (`sandbox/*`), the boot's too.
 */
import type {Message, RuleId} from '../diagnostics.ts'

/** TypeScript's MESSAGE, as its compiler wrote it (its code and severity travel beside it). */
export function typescriptProblem(message: string): Message {
  return {ruleId: 'ts', reason: message}
}

/** The compiler could not run, for WHY. */
export function compilerFailed(why: string): Message {
  return {ruleId: 'check/compiler', reason: `the TypeScript compiler could not run: ${why}`}
}

/** `#+CAPABILITIES:` names NAME, which grants nothing; CAPABILITIES are the names that do. */
export function unknownCapability(name: string, capabilities: readonly string[]): Message {
  return {
    ruleId: 'sandbox/unknown-capability',
    reason: `'${name}' is not a capability`,
    expected: [`the capabilities are ${capabilities.join(', ')}`],
  }
}

/** `#+CAPABILITIES:` names WORD, a capability that cannot grant as written, for WHY. */
export function invalidGrant(word: string, why: string): Message {
  return {
    ruleId: 'sandbox/invalid-grant',
    reason: `'${word}' grants nothing: ${why}`,
    expected: ['read alone grants the project, read:FOLDER a folder (relative to the project, ~/…, or absolute)'],
  }
}

/** The sandbox rules a skill's code can break (`check/sandbox.ts` finds where). */
export type SandboxRuleId = Exclude<
  Extract<RuleId, `sandbox/${string}`>,
  'sandbox/unknown-capability' | 'sandbox/invalid-grant' | 'sandbox/tangle-target' | 'sandbox/read'
>

const USES: Record<SandboxRuleId, (what: string) => string> = {
  'sandbox/restricted-import': (what) => `uses ${what}`,
  'sandbox/dynamic-code': (what) => `uses ${what}`,
  'sandbox/native-access': (what) => `uses ${what}`,
  'sandbox/fs-write': (what) => `writes files (${what})`,
  'sandbox/network': (what) => `uses the network (${what})`,
}

/** The skill SKILL uses WHAT (`child_process`, `fs.writeFileSync`) without CAPABILITY, breaking RULE. */
export function sandboxViolation(skill: string, rule: SandboxRuleId, what: string, capability: string): Message {
  return {
    ruleId: rule,
    reason: `skill '${skill}' ${USES[rule](what)} without the '${capability}' capability`,
    expected: [`grant it in the skill's document: #+CAPABILITIES: ${capability}`],
  }
}

/** A skill document tangles TARGET (absolute) into a node_modules/ folder. */
export function skillTangleIntoPackages(target: string): Message {
  return {
    ruleId: 'sandbox/tangle-target',
    reason: `a skill document may not tangle into node_modules/, where packages are loaded from: ${target}`,
  }
}

/** A skill document tangles the Org document TARGET. */
export function skillTangleOrgDocument(target: string): Message {
  return {ruleId: 'sandbox/tangle-target', reason: `a skill document may not tangle an Org document: ${target}`}
}

/** A skill document tangles TARGET outside WHERE (`org/skills/ or generated/skills/`). */
export function skillTangleOutside(where: string, target: string): Message {
  return {ruleId: 'sandbox/tangle-target', reason: `a skill document may tangle only into ${where}: ${target}`}
}

/** The native compiler exited with STATUS, which means neither clean nor problems found; OUTPUT is what it said. */
export function compilerExited(status: number, output: string): string {
  return `tsc exited with status ${status}: ${output}`
}
