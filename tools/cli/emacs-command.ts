/**
 * `passepartout emacs`: the lines an Emacs init file needs to load the Emacs client of the installation that
 * answers (this repository, or the installed package, wherever npm put it), printed alone on stdout so that
 * `passepartout emacs >> ~/.emacs.d/init.el` adds them:
 *
 *   (add-to-list 'load-path "/usr/lib/node_modules/passepartout/generated/emacs")
 *   (require 'passepartout)
 *
 * The client is tangled from org/emacs/passepartout.org to generated/emacs/, where the package keeps it too.
 */
import fs from 'node:fs'
import path from 'node:path'
import {readToolchainSettings} from '../settings.ts'

/** Where an installation keeps the client, from its root. */
const CLIENT = path.join('generated', 'emacs', 'passepartout.el')

export function runEmacs(): number {
  const home = readToolchainSettings().home ?? path.resolve(import.meta.dirname, '..', '..')
  const client = path.join(home, CLIENT)
  if (!fs.existsSync(client)) {
    // An installation problem, said as launch.mjs says one: what is missing, and what makes it.
    process.stderr.write(`passepartout: there is no ${client}: run \`make tangle\` in ${home}\n`)
    return 1
  }
  process.stdout.write(`(add-to-list 'load-path ${elispString(path.dirname(client))})\n(require 'passepartout)\n`)
  return 0
}

/** TEXT as an Emacs Lisp string: in double quotes, a backslash and a double quote escaped. */
function elispString(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`
}
