/**
 * The references of docs/reference/ are written by `make docs` from the code that defines what they list: the
 * command table, the rules, the schema of passepartout.json, the variables the code reads. A committed
 * reference that differs from what the code gives fails here, so that a change of the code is one of its
 * reference too.
 */
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {RULES, ruleUrl} from '../../tools/diagnostics.ts'
import {environmentReference, variablesIn, variablesRead} from '../../tools/docs/environment-reference.ts'
import {references} from '../../tools/docs/references.ts'
import {TOOLCHAIN_SETTINGS} from '../../tools/settings.ts'
import {SETTINGS} from '../../generated/core/settings.ts'

const repo = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8')

describe('the references in docs/reference/', () => {
  const written = references(repo)

  it('are the commands, the rules, the settings and the environment', () => {
    expect(Object.keys(written).sort()).toEqual(
      ['commands', 'environment', 'rules', 'settings'].map((name) => `docs/reference/${name}.md`),
    )
  })

  it.each(Object.keys(written))('%s is what the code gives (make docs writes it)', (file) => {
    expect(read(file), `${file} is not what the code gives: run make docs`).toBe(written[file])
  })

  it("has the row of each rule where a diagnostic's url points", () => {
    const rules = read('docs/reference/rules.md')
    for (const id of Object.keys(RULES)) {
      const [file, anchor] = ruleUrl(id).split('#')
      expect(file, id).toBe('docs/reference/rules.md')
      expect(rules, id).toContain(`<a id="${anchor}"></a>\`${id}\``)
    }
  })
})

describe('the variables of the environment the code reads', () => {
  it.each([
    ['process.env.DEBUG', ['DEBUG']],
    ['const x = env.PASSEPARTOUT_TURN_STEPS ?? 8', ['PASSEPARTOUT_TURN_STEPS']],
    ['env?.NO_COLOR', ['NO_COLOR']],
    ["env['FORCE_COLOR']", ['FORCE_COLOR']],
    ["setting('OPENAI_BASE_URL')?.value", ['OPENAI_BASE_URL']],
    // A bundle's define and an object's own field are no reads of the environment.
    ["define: {'process.env.NODE_ENV': '\"production\"'}", []],
    ['settings.PASSEPARTOUT_X, myenv.HOME, env.home', []],
    // Nor what a comment names; a URL's slashes end no code.
    ['// reads process.env.DEBUG\n/** env.HOME */ const url = "http://x" + env.TERM', ['TERM']],
  ])('%s reads %j', (text, names) => {
    expect(variablesIn(text)).toEqual(names)
  })

  it("lists each row of the core's table of settings with its words, under the source it is read from", () => {
    const reference = environmentReference(variablesRead(repo))
    const section = (title: string) => reference.split(`## ${title}`)[1]!.split('\n## ')[0]!
    const fromDotenv = section("Settings: the environment, else the project's .env")
    const alone = section('Read from the environment alone')
    for (const row of SETTINGS)
      expect(row.installation ? alone : fromDotenv, row.name).toContain(
        `| \`${row.name}\` | ${row.unset ?? ''} | ${row.sets} |`,
      )
    // The toolchain's, which a person sets, are read as the core's are.
    for (const row of TOOLCHAIN_SETTINGS.filter((each) => each.source !== 'set by passepartout'))
      expect(fromDotenv, row.name).toContain(`| \`${row.name}\` | ${row.unset ?? ''} | ${row.sets} |`)
  })

  it('refuses to write a reference missing a variable the code reads, or naming one it does not', () => {
    expect(() => environmentReference(['DEBUG', 'PASSEPARTOUT_NEW'])).toThrow(/PASSEPARTOUT_NEW/)
    expect(() => environmentReference(['DEBUG'])).toThrow(/HEARTBEAT_INTERVAL/)
  })
})
