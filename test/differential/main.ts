/**
 * Ad-hoc differential runs against Emacs:
 *   node bin/launch.mjs test/differential/main.ts [COUNT] [FIRST-SEED]
 * prints each document where Emacs and passepartout disagree, with its seed.
 */
import {generateDocument, mutateDocument} from './generate.ts'
import {compare} from './harness.ts'

export async function main(args: string[]): Promise<number> {
  const count = Number(args[0] ?? 200)
  const first = Number(args[1] ?? 1)
  const documents = new Map<string, string>()
  const mutate = args.includes('--mutate')
  for (let seed = first; seed < first + count; seed++) documents.set(`seed-${seed}`, mutate ? mutateDocument(seed) : generateDocument(seed))
  const result = await compare(documents)
  for (const difference of result.differences) console.log(`${difference.name}: ${difference.reason}\n`)
  console.log(`${result.total - result.differences.length}/${result.total} agree (Emacs failed on ${result.emacsErrors}; passepartout declined to evaluate Lisp in ${result.refused})`)
  return result.differences.length === 0 ? 0 : 1
}
