/**
 * Which skill document holds a name that several share. A skill publishes its
 * exports under its document's file name, so two skill documents of one file
 * name (`org/skills/policy.org`, `org/skills/sub/policy.org`) cannot both load:
 * one holds the name, the others are twins, refused.
 *
 * The holder is the document nearest the skills folder, then the first by
 * path: a copy put in a subfolder never displaces `org/skills/policy.org`, which
 * is where the core looks for a mandatory skill. The check and the core's boot
 * both follow this rule, so that a `#+DEPENDS_ON: policy` resolves to the
 * document that loads (a twin is not a second meaning of the name); while the
 * core runs, the running document keeps its name (skill-ledger.org).
 */
import path from 'node:path'

/** The twins among the skill documents FILES (absolute paths), each with the document that holds its name. */
export function skillTwins(files: readonly string[]): Map<string, string> {
  const byName = new Map<string, string[]>()
  for (const file of files) {
    const name = path.basename(file, '.org')
    byName.set(name, [...(byName.get(name) ?? []), file])
  }
  const twins = new Map<string, string>()
  for (const documents of byName.values()) {
    if (documents.length < 2) continue
    const [holder, ...others] = [...documents].sort(nearestFirst)
    for (const twin of others) twins.set(twin, holder!)
  }
  return twins
}

/** Fewer folders first, then by path. */
function nearestFirst(a: string, b: string): number {
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0)
}

function depth(file: string): number {
  return file.split(path.sep).length
}
