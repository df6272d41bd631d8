/**
 * Block infos: a block whose header arguments hold nothing Lisp would evaluate has one info, light and full alike
 * (read once, not twice: the planner's cost per block); one that holds a form has its full info evaluated.
 */
import {describe, expect, it} from 'vitest'
import {readOrg} from '../../tools/org/parse.ts'
import {BlockInfos} from '../../tools/tangle/block-info.ts'
import {OrgDocument} from '../../tools/tangle/document.ts'

function infosOf(text: string): {infos: BlockInfos; doc: OrgDocument} {
  const doc = new OrgDocument('/tmp/doc.org', readOrg(text).root)
  return {infos: new BlockInfos(doc), doc}
}

describe('light and full infos', () => {
  it.each([
    ['block line', '#+begin_src typescript :tangle a.ts :comments link\nx\n#+end_src\n'],
    ['inherited', '#+PROPERTY: header-args:typescript :tangle a.ts :mkdirp yes\n* H\n#+begin_src typescript\nx\n#+end_src\n'],
    ['drawer', '* H\n:PROPERTIES:\n:header-args: :tangle a.ts\n:END:\n#+begin_src sh :var a=1 b=2\nx\n#+end_src\n'],
  ])('are one for a block with nothing to evaluate (%s)', (_, text) => {
    const {infos, doc} = infosOf(text)
    const block = doc.blocks[0]!
    expect(infos.get(block, true)).toBe(infos.get(block, false))
  })

  it.each([
    ['a form', ':tangle (concat "a" ".ts")', 'a.ts'],
    ['a quoted form', ':tangle \'"q.ts"', 'q.ts'],
    ['a form in a header line', ':tangle x.ts', 'x.ts'],
  ])('differ for a block whose header arguments hold %s', (_, parameters, tangle) => {
    const header = parameters === ':tangle x.ts' ? '#+HEADER: :padline (if t "no" "yes")\n' : ''
    const {infos, doc} = infosOf(`${header}#+begin_src typescript ${parameters}\nx\n#+end_src\n`)
    const block = doc.blocks[0]!
    const light = infos.get(block, false)
    const full = infos.get(block, true)
    expect(full).not.toBe(light)
    expect(full.params.string(':tangle')).toBe(tangle)
  })
})
