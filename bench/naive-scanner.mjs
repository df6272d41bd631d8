// The benchmark's floor: copy the bodies of `:tangle` blocks to their files,
// in 30 lines and without Org semantics (no inheritance rules, no noweb, no
// comments, no indentation rules). It reads the target from a
// `#+PROPERTY: header-args:typescript :tangle X` line or a heading's
// `:header-args:typescript: :tangle X` property, as the benchmark's documents
// write it; the benchmark checks that it writes the same files as passepartout.
// bench/naive-command.mjs runs it as a command.
import fs from 'node:fs'
import path from 'node:path'

export function naiveTangle(files) {
  for (const file of files) {
    const targets = new Map()
    let target
    let body
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const header = /^(?:#\+PROPERTY: header-args:typescript|:header-args:typescript:) :tangle (\S+)/.exec(line)
      if (header) target = header[1]
      if (line.startsWith('#+begin_src')) body = []
      else if (line.startsWith('#+end_src') && body && target) {
        targets.set(target, [...(targets.get(target) ?? []), body.join('\n')])
        body = undefined
      } else body?.push(line)
    }
    for (const [name, blocks] of targets) {
      const out = path.resolve(path.dirname(file), name)
      fs.mkdirSync(path.dirname(out), {recursive: true})
      fs.writeFileSync(out, `${blocks.join('\n\n')}\n`)
    }
  }
}
