/**
 * What the check knows of each generated TypeScript file: the Org document it
 * came from and where each of its lines came from, and, for a skill, the
 * capabilities its document grants. Every problem found in a generated file
 * goes through here to be reported at its Org line.
 */
import path from 'node:path'
import type {ts} from 'ts-morph'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import type {OrgRoot} from '../org/ast.ts'
import type {DocumentOutcome} from '../tangle/tangle.ts'
import {isTypeScript, type TsProblem} from './checker.ts'
import {OriginMap} from './origin-map.ts'
import type * as SandboxRules from './sandbox.ts'
import {CAPABILITIES, type Capability, parseCapabilities} from './capabilities.ts'
import {sourceMapOf, sourceMapPath, writeSourceMap} from './source-map.ts'

interface GeneratedFile {
  origins: OriginMap
  skill: SkillGrant | undefined
}

interface SkillGrant {
  name: string
  granted: ReadonlySet<Capability>
}

export class GeneratedFiles {
  private readonly files = new Map<string, GeneratedFile>()
  /** The generated files of each document, to forget those it no longer writes. */
  private readonly filesOf = new Map<string, string[]>()

  /** PROJECT: the project root (skills live in its org/skills/, maps in its cache), or undefined outside a project. */
  constructor(private readonly project: string | undefined) {}

  /**
   * Record the TypeScript files DOCUMENT writes, with their origins, and write
   * their source maps. Returns the files that changed: those it writes and
   * those it no longer writes. A failed document wrote nothing: what it wrote
   * last stays on disk and stays recorded.
   */
  record(document: DocumentOutcome, out: Diagnostic[]): string[] {
    const root = document.plan?.root
    if (document.failed || !document.plan || !root) return []
    const previous = this.filesOf.get(document.path) ?? []
    for (const file of previous) this.files.delete(file)
    const skill = this.skillOf(document.path, root, out)
    const current: string[] = []
    for (const target of document.plan.targets) {
      if (!isTypeScript(target.path)) continue
      this.files.set(target.path, {origins: new OriginMap(document.path, target.lines), skill})
      current.push(target.path)
      const mapFile = this.project && sourceMapPath(this.project, target.path)
      if (mapFile) writeSourceMap(mapFile, sourceMapOf(target.path, target.lines, document.path, root.data.text))
    }
    this.filesOf.set(document.path, current)
    return [...previous.filter((file) => !current.includes(file)), ...current]
  }

  /** Every generated TypeScript file recorded, sorted. */
  all(): string[] {
    return [...this.files.keys()].sort()
  }

  /** The generated files of skills, whose code the sandbox rules hold to their capabilities. */
  isSkill(file: string): boolean {
    return this.files.get(file)?.skill !== undefined
  }

  /** A TypeScript problem at its Org position when the file was generated, else where TypeScript saw it (FALLBACK for problems of no file). */
  diagnosticOf(problem: TsProblem, fallback: string): Diagnostic {
    const extras = {code: problem.code, severity: problem.severity}
    const generated = problem.file ? this.files.get(problem.file) : undefined
    if (generated) return diagnostic(generated.origins.orgPath, 'ts', problem.message, generated.origins.originOf(problem.line, problem.column), extras)
    const place = problem.line > 0 ? {line: problem.line, column: problem.column} : undefined
    return diagnostic(problem.file ?? fallback, 'ts', problem.message, place, extras)
  }

  /** The violations of the sandbox RULES in the skill file whose syntax tree is SOURCE, at their Org positions. */
  sandboxDiagnostics(file: string, source: ts.SourceFile, rules: typeof SandboxRules): Diagnostic[] {
    const generated = this.files.get(file)
    const skill = generated?.skill
    if (!generated || !skill) return []
    return rules.findSandboxViolations(source, skill.granted).map((violation) => {
      const start = source.getLineAndCharacterOfPosition(violation.start)
      const origin = generated.origins.originOf(start.line + 1, start.character + 1)
      return diagnostic(generated.origins.orgPath, violation.ruleId, rules.violationMessage(skill.name, violation), origin)
    })
  }

  /** A document under the project's org/skills/ is a skill: its name and the capabilities its `#+CAPABILITIES:` lines grant. */
  private skillOf(orgPath: string, root: OrgRoot, out: Diagnostic[]): SkillGrant | undefined {
    const skills = this.project && path.join(this.project, 'org', 'skills')
    if (!skills || !orgPath.startsWith(`${skills}${path.sep}`)) return undefined
    const granted = new Set<Capability>()
    for (const node of root.children) {
      if (node.type !== 'keyword' || node.key !== 'CAPABILITIES') continue
      const parsed = parseCapabilities(node.value)
      for (const capability of parsed.granted) granted.add(capability)
      for (const name of parsed.unknown) out.push(diagnostic(orgPath, 'sandbox/unknown-capability', `'${name}' is not a capability; the capabilities are ${Object.keys(CAPABILITIES).join(', ')}`, node.position))
    }
    return {name: path.basename(orgPath, '.org'), granted}
  }
}
