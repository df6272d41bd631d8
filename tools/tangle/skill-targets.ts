/**
 * Where a skill document may tangle. A skill is untrusted code, and so is the
 * document that holds it: if its `:tangle` could name any file of the project,
 * saving it would overwrite the core's own generated code, another skill's
 * document, or a package in node_modules/ that the core loads next time. A
 * document under the project's org/skills/ may therefore write only into
 * org/skills/ (beside itself) and generated/skills/, never an Org file, and
 * never into a node_modules/ folder. Emacs writes such targets; Passepartout
 * refuses them, since safety requires it.
 */
import path from 'node:path'
import type {Message} from '../diagnostics.ts'
import {skillTangleIntoPackages, skillTangleOrgDocument, skillTangleOutside} from '../messages/check.ts'
import {isInside} from '../project.ts'

/** Why the skill document DOCUMENT may not write TARGET (both absolute), or undefined when it may or is no skill. */
export function skillTargetRefusal(
  document: string,
  target: string,
  skillsDir: string,
  project: string,
): Message | undefined {
  if (!isInside(document, skillsDir)) return undefined
  const allowed = [skillsDir, path.join(project, 'generated', 'skills')]
  // A node_modules/ of the project's: an installation that is itself a package (its shipped skills) writes beside
  // its documents, inside the node_modules/ that holds it.
  if (path.relative(project, target).split(path.sep).includes('node_modules')) return skillTangleIntoPackages(target)
  if (target.endsWith('.org')) return skillTangleOrgDocument(target)
  if (!allowed.some((folder) => isInside(target, folder)))
    return skillTangleOutside(`${path.relative(project, skillsDir) || '.'}/ or generated/skills/`, target)
  return undefined
}
