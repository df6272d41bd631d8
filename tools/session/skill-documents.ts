/**
 * What a skill document is to the core: the code it tangles (every TypeScript
 * target that is not a test), with the Org origin of each line, what it
 * declares and is granted, and why it must not load. A document under the
 * project's skills folder (`skillsFolder`) is a skill; nothing else decides it.
 *
 * Four things stop a document before its code runs: the tangler's errors (the
 * document is `failed`), a skill API it needs and the installation does not give
 * (`#+PASSEPARTOUT: N`, N over `API_VERSION`: `failed`), the document graph's (a
 * cycle, an unknown dependency: `failed`), and the sandbox rules
 * (`sandbox-blocked`: it tangles where a skill
 * may not, its code uses a capability its `#+CAPABILITIES:` lines do not
 * grant, or a line grants a capability so that it grants nothing: a `read:`
 * folder where no skill reads). Each comes with its Org position.
 *
 * The core is stricter than Org about one warning: a `#+begin_src` with no
 * `#+end_src`. Org reads that block as text and tangles nothing from it, so the
 * skill would load without its code (a deleted `#+end_src` line once reloaded a
 * skill without its gate, and said so only as a warning). For the core it is an
 * error (`forTheCore`); `tangle` and `check` keep Emacs's reading.
 */
import os from 'node:os'
import path from 'node:path'
import {type Capability, parseCapabilities, unreadableGrants} from '../check/capabilities.ts'
import {isTypeScript} from '../check/checker.ts'
import {OriginMap} from '../check/origin-map.ts'
import type {SandboxVerdicts} from '../check/sandbox-verdicts.ts'
import type {SandboxFinding, SandboxSuspect} from '../check/warm-messages.ts'
import {grantedFolder, type Places} from '../check/reading.ts'
import {mayViolate} from '../check/suspects.ts'
import {debug} from '../debug.ts'
import {type Diagnostic, diagnostic, isError} from '../diagnostics.ts'
import {buildGraph, dependentsOf} from '../graph/document-graph.ts'
import {compilerFailed, invalidGrant} from '../messages/check.ts'
import {newerSkillApi, skillApiTwice, unreadableSkillApi, unterminatedSkillBlock} from '../messages/skill.ts'
import type {DependencyEntry, DocumentMeta} from '../org/document-meta.ts'
import type {DiskView} from '../tangle/disk.ts'
import {skillTargetProblems} from '../tangle/run-document.ts'
import type {DocumentPlan} from '../tangle/tangle-document.ts'
import type {SourceText} from '../tangle/text.ts'

/** One TypeScript file a skill document tangles: what the loader evaluates. */
export interface SkillModule {
  /** Absolute path of the target, as the tangler would write it. */
  path: string
  code: string
  /** Each line of CODE with the Org line and column it came from. */
  lines: SourceText
}

/** What a skill's code may read (reading.ts says where none reads, whatever it may). */
export interface Reading {
  /** The project root: its state folder is read by no skill. */
  root: string
  /**
   * The files and folders it may read, absolute: its own Org document and every file it tangles, and the folders
   * its `read` grants name (the project for a bare `read`).
   */
  may: string[]
}

export interface SkillDocument {
  /** The file name without `.org`: the name its exports are published under. */
  name: string
  /** Absolute path of the Org document. */
  path: string
  meta: DocumentMeta
  /** What its `#+CAPABILITIES:` lines grant. */
  capabilities: Capability[]
  /** What its code may read. */
  reading: Reading
  modules: SkillModule[]
  /** Why it must not load, each at its Org position; empty when it may. */
  problems: Diagnostic[]
  /** The status its problems call for; undefined when it may load. */
  blocked: 'failed' | 'sandbox-blocked' | undefined
}

const TEST_FILE = /\.(test|spec)\.[cm]?tsx?$/

/**
 * The version of the skill API this installation gives skills (what `passepartout` declares, and exports as
 * `API_VERSION`). It grows when a skill written for it would not run on an older one (a new function of the
 * API, a new capability); a newer installation gives every older version's skills what they had.
 */
export const API_VERSION = 1

/**
 * Why META's document cannot run on this installation's skill API, at its (last) `#+PASSEPARTOUT:` line: it says
 * so twice, it needs a newer one, or the line says no version. Undefined when it says nothing, or a version the
 * installation gives.
 */
export function apiVersionProblem(meta: DocumentMeta): Diagnostic | undefined {
  if (!meta.apiVersion) return undefined
  const {value, position} = meta.apiVersion
  if (meta.apiVersionFirst) return diagnostic(meta.path, skillApiTwice(meta.apiVersionFirst.start.line), position)
  if (!/^\d+$/.test(value)) return diagnostic(meta.path, unreadableSkillApi(value), position)
  // Compared as numbers, said as written: a number past 2^53 would print rounded, or as 1e+23.
  return Number(value) > API_VERSION ? diagnostic(meta.path, newerSkillApi(value, API_VERSION), position) : undefined
}

const log = debug('sandbox')

/**
 * How a skill's modules are judged by the sandbox rules: JUDGE gives each suspect's findings (the type checker's
 * process does, project-checker.ts); the clean VERDICTS, when given, spare judging a module they already judged.
 */
export interface SandboxJudge {
  judge(skills: SandboxSuspect[]): Promise<SandboxFinding[][]>
  verdicts: SandboxVerdicts | undefined
}

/**
 * The skill document whose plan is PLAN (planned as `passepartout tangle` plans it, nothing written), which declares
 * META (skill-plans.ts, `planMeta`), its modules judged by SANDBOX.
 */
export async function skillDocumentOf(
  plan: DocumentPlan,
  meta: DocumentMeta,
  root: string,
  disk: DiskView,
  sandbox: SandboxJudge,
): Promise<SkillDocument> {
  const name = path.basename(plan.path, '.org')
  const modules = plan.targets
    .filter((target) => isTypeScript(target.path) && !TEST_FILE.test(target.path))
    .map((target) => ({path: target.path, code: target.content, lines: target.lines}))
  const {capabilities, folders, invalid} = grantsOf(meta, {root, home: os.homedir()})
  const may = [plan.path, ...plan.targets.map((target) => target.path), ...folders]
  const document: SkillDocument = {
    name,
    path: plan.path,
    meta,
    capabilities,
    reading: {root, may},
    modules,
    problems: [],
    blocked: undefined,
  }
  const errors = plan.diagnostics.map(forTheCore).filter(isError)
  if (plan.failed || errors.length > 0) return {...document, problems: errors, blocked: 'failed'}
  const api = apiVersionProblem(meta)
  if (api) return {...document, problems: [api], blocked: 'failed'}
  const refused = [...skillTargetProblems(plan, disk), ...invalid]
  if (refused.length > 0) return {...document, problems: refused, blocked: 'sandbox-blocked'}
  const violations = await sandboxViolations(document, sandbox)
  return violations.length > 0 ? {...document, problems: violations, blocked: 'sandbox-blocked'} : document
}

/**
 * What META's `#+CAPABILITIES:` lines grant: the capabilities, the absolute folders `read` names, and a problem at
 * its line for each capability written so that it grants nothing (the skill does not load: it would run with less
 * than its document says).
 */
function grantsOf(
  meta: DocumentMeta,
  places: Places,
): {capabilities: Capability[]; folders: string[]; invalid: Diagnostic[]} {
  const capabilities = new Set<Capability>()
  const folders = new Set<string>()
  const invalid: Diagnostic[] = []
  for (const line of meta.capabilities) {
    const grants = parseCapabilities(line.value)
    for (const capability of grants.granted) capabilities.add(capability)
    for (const folder of grants.reads) folders.add(grantedFolder(folder, places))
    for (const {word, why} of [...grants.invalid, ...unreadableGrants(grants.reads, places)])
      invalid.push(diagnostic(meta.path, invalidGrant(word, why), line.position))
  }
  return {capabilities: [...capabilities], folders: [...folders], invalid}
}

/** MESSAGE, a problem of a skill document, as the core takes it: an unterminated block is an error there. */
export function forTheCore(message: Diagnostic): Diagnostic {
  if (message.ruleId !== 'org/unterminated-block' || !message.file) return message
  return diagnostic(message.file, unterminatedSkillBlock(message.reason), message.place ?? undefined)
}

/**
 * The sandbox rules `passepartout check` applies, with the same pre-filter: a module whose text names nothing
 * they look for is not judged, nor one whose clean verdict the judge's verdicts remember (same rules, dialect,
 * text and grants). A module found clean is remembered. A judge that could not answer blocks the skill: its code is not run
 * unjudged.
 */
async function sandboxViolations(document: SkillDocument, {judge, verdicts}: SandboxJudge): Promise<Diagnostic[]> {
  const granted = new Set<Capability>(document.capabilities)
  const judged = (module: SkillModule) => verdicts?.isClean(module.path, module.code, granted) === true
  const mayBreak = document.modules.filter((module) => mayViolate(module.code))
  const suspects = mayBreak.filter((module) => !judged(module))
  log?.(`${document.name}: ${suspects.length} modules parsed, ${mayBreak.length - suspects.length} judged clean before`)
  if (suspects.length === 0) return []
  const skills = suspects.map(({path, code}) => ({file: path, text: code, skill: document.name, granted: [...granted]}))
  const findings = await judge(skills).catch((error: Error) => error)
  if (findings instanceof Error) return [diagnostic(document.path, compilerFailed(findings.message))]
  return suspects.flatMap((module, k) => {
    const origins = new OriginMap(document.path, module.lines)
    if (findings[k]!.length === 0) verdicts?.rememberClean(module.path, module.code, granted)
    return findings[k]!.map(({line, character, message}) =>
      diagnostic(document.path, message, origins.originOf(line + 1, character + 1)),
    )
  })
}

export interface SkillGraph {
  /** Skill documents, dependencies first. */
  order: string[]
  /** For each skill document, the skill documents it depends on, each with the entry that names it. */
  dependencies: ReadonlyMap<string, readonly {path: string; entry: DependencyEntry | undefined}[]>
  /** The graph's problems, by document. */
  problems: ReadonlyMap<string, Diagnostic[]>
  /** Documents on a cycle or with a dependency that names nothing. */
  broken: ReadonlySet<string>
  /** The skill documents that depend on FILE, directly or not, in load order. */
  dependents(file: string): string[]
}

/**
 * Skill documents in load order, by the document graph built over every document of the project, so that
 * names resolve as `passepartout deps` resolves them (a skill may name a core document), but only skills
 * load: a dependency on another document is always met. Each skill dependency keeps the `#+DEPENDS_ON:` entry
 * that named it, so that "depends on a skill that did not load" points at that entry. OFF names the shipped
 * skills that do not boot: a dependency on one is said to be on a skill turned off.
 */
export function skillGraph(
  skills: readonly DocumentMeta[],
  others: readonly DocumentMeta[],
  base: string,
  off: readonly string[] = [],
): SkillGraph {
  const graph = buildGraph([...skills, ...others], {base, off})
  const byPath = new Map([...skills, ...others].map((meta) => [meta.path, meta]))
  const isSkill = new Set(skills.map((meta) => meta.path))
  const problems = new Map<string, Diagnostic[]>()
  for (const message of graph.diagnostics) {
    if (message.file && isSkill.has(message.file))
      problems.set(message.file, [...(problems.get(message.file) ?? []), message])
  }
  const dependencies = new Map<string, {path: string; entry: DependencyEntry | undefined}[]>()
  for (const meta of skills) {
    const targets = (graph.dependencies.get(meta.path) ?? []).filter((target) => isSkill.has(target))
    dependencies.set(
      meta.path,
      targets.map((target) => ({
        path: target,
        entry: meta.dependsOn.find((entry) => names(entry, byPath.get(target)!)),
      })),
    )
  }
  return {
    order: graph.order.filter((file) => isSkill.has(file)),
    dependencies,
    problems,
    broken: graph.broken,
    dependents: (file) => dependentsOf(graph, file).filter((dependent) => isSkill.has(dependent)),
  }
}

/** Whether ENTRY names the document TARGET (by one of its IDs, or by its file name). */
function names(entry: DependencyEntry, target: DocumentMeta): boolean {
  return (
    target.ids.some((id) => id.id === entry.name) ||
    (entry.kind === 'word' && path.basename(target.path, '.org') === entry.name)
  )
}
