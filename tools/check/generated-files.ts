/**
 * What the check knows of each generated TypeScript file: the Org document it
 * came from, where each of its lines came from, and, for a skill, the
 * capabilities its document grants. Every problem found in a generated file
 * goes through here to be reported at its Org line.
 *
 * A document's files' origins are planned again only when a problem in them
 * needs mapping (the tangle keeps no plan, and the cache answers for the
 * documents it did not read).
 */
import os from 'node:os'
import path from 'node:path'
import {type Diagnostic, diagnostic} from '../diagnostics.ts'
import {invalidGrant, typescriptProblem, unknownCapability} from '../messages/check.ts'
import type {DocumentMeta} from '../org/document-meta.ts'
import {planFile} from '../tangle/run-document.ts'
import type {DocumentOutcome} from '../tangle/tangle.ts'
import {isInside, skillsFolder} from '../project.ts'
import {CAPABILITIES, type Capability, parseCapabilities, unreadableGrants} from './capabilities.ts'
import {isTypeScript, type TsProblem} from './checker.ts'
import {OriginMap} from './origin-map.ts'
import type {SandboxFinding} from './warm-messages.ts'

interface GeneratedFile {
  orgPath: string
  /** Undefined until a problem needs them, for a document the cache answered for. */
  origins: OriginMap | undefined
  skill: SkillGrant | undefined
}

export interface SkillGrant {
  name: string
  granted: ReadonlySet<Capability>
}

export class GeneratedFiles {
  private readonly files = new Map<string, GeneratedFile>()
  /** The generated files of each document, to forget those it no longer writes. */
  private readonly filesOf = new Map<string, string[]>()

  constructor(
    /** The project root (skills live in its org/skills/, maps in its cache), or undefined outside a project. */
    private readonly project: string | undefined,
    private readonly allowOutside: readonly string[],
  ) {}

  /**
   * Record the TypeScript files DOCUMENT writes. Returns the files that changed: those it writes and those it
   * no longer writes. A failed document wrote nothing: what it wrote last stays on disk and stays recorded.
   */
  record(document: DocumentOutcome, out: Diagnostic[]): string[] {
    if (document.failed || !document.meta) return []
    const previous = this.filesOf.get(document.path) ?? []
    for (const file of previous) this.files.delete(file)
    const skill = this.skillOf(document.meta, out)
    const current = document.targets.map((target) => target.path).filter(isTypeScript)
    for (const file of current) this.files.set(file, {orgPath: document.path, origins: undefined, skill})
    this.filesOf.set(document.path, current)
    return [...previous.filter((file) => !current.includes(file)), ...current]
  }

  /** DOCUMENT is gone: the files it wrote are no longer its (they stay on disk until a tangle prunes them). */
  forget(document: string): void {
    for (const file of this.filesOf.get(document) ?? []) this.files.delete(file)
    this.filesOf.delete(document)
  }

  /** Every generated TypeScript file recorded, sorted. */
  all(): string[] {
    return [...this.files.keys()].sort()
  }

  /** The Org document that writes FILE, when one does. */
  documentOf(file: string): string | undefined {
    return this.files.get(file)?.orgPath
  }

  /** The generated files of skills, whose code the sandbox rules hold to their capabilities. */
  isSkill(file: string): boolean {
    return this.files.get(file)?.skill !== undefined
  }

  /** The skill whose file FILE is: its name and the capabilities it is granted; undefined when it is not a skill's. */
  skillOfFile(file: string): SkillGrant | undefined {
    return this.files.get(file)?.skill
  }

  /**
   * What the sandbox rules' verdict on FILES depends on besides their text: the capabilities each skill among
   * them is granted, a line each.
   */
  grants(files: readonly string[]): string {
    const lines = files.flatMap((file) => {
      const skill = this.files.get(file)?.skill
      return skill ? [`${file}\t${[...skill.granted].sort().join(',')}`] : []
    })
    return lines.join('\n')
  }

  /** A TypeScript problem at its Org position when the file was generated, else where TypeScript saw it (FALLBACK for problems of no file). */
  diagnosticOf(problem: TsProblem, fallback: string): Diagnostic {
    const extras = {code: problem.code, severity: problem.severity}
    const origins = problem.file ? this.originsOf(problem.file) : undefined
    if (origins)
      return diagnostic(
        origins.orgPath,
        typescriptProblem(problem.message),
        origins.originOf(problem.line, problem.column),
        extras,
      )
    const place = problem.line > 0 ? {line: problem.line, column: problem.column} : undefined
    return diagnostic(problem.file ?? fallback, typescriptProblem(problem.message), place, extras)
  }

  /** The sandbox rules' FINDINGS in the skill file FILE (sandbox.ts, judged in the checker's process), at their Org positions. */
  sandboxDiagnostics(file: string, findings: readonly SandboxFinding[]): Diagnostic[] {
    return findings.map(({line, character, message}) => {
      const origins = this.originsOf(file)!
      return diagnostic(origins.orgPath, message, origins.originOf(line + 1, character + 1))
    })
  }

  private originsOf(file: string): OriginMap | undefined {
    const generated = this.files.get(file)
    if (generated && !generated.origins) this.plan(generated.orgPath)
    return generated?.origins
  }

  /** Plan the document at ORG_PATH again (it is unchanged since it was tangled) for its origins. */
  private plan(orgPath: string): void {
    for (const target of planFile(orgPath, this.allowOutside).targets) {
      const generated = this.files.get(target.path)
      if (generated) generated.origins = new OriginMap(orgPath, target.lines)
    }
  }

  /** A document under the project's org/skills/ is a skill: its name and the capabilities its `#+CAPABILITIES:` lines grant. */
  private skillOf(meta: DocumentMeta, out: Diagnostic[]): SkillGrant | undefined {
    if (!this.project || !isInside(meta.path, skillsFolder(this.project))) return undefined
    const granted = new Set<Capability>()
    const places = {root: this.project, home: os.homedir()}
    for (const line of meta.capabilities) {
      const parsed = parseCapabilities(line.value)
      for (const capability of parsed.granted) granted.add(capability)
      for (const name of parsed.unknown)
        out.push(diagnostic(meta.path, unknownCapability(name, Object.keys(CAPABILITIES)), line.position))
      for (const {word, why} of [...parsed.invalid, ...unreadableGrants(parsed.reads, places)])
        out.push(diagnostic(meta.path, invalidGrant(word, why), line.position))
    }
    return {name: path.basename(meta.path, '.org'), granted}
  }
}
