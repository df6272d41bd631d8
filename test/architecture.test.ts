/**
 * The architecture's check (tools/architecture/check.ts with .dependency-cruiser.cjs), run as `make check` runs it:
 * a real process over real folders. Each row is a folder of a few files laid out as generated/core and tools/ are,
 * and the rule the check must name, or none.
 */
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import type {CaseRun} from './support/architecture-cases.ts'

const repo = path.resolve(import.meta.dirname, '..')
const made: string[] = []
afterAll(() => {
  for (const folder of made) fs.rmSync(folder, {recursive: true, force: true})
})

/** Run the check in FOLDER (the repository when none) with the repository's rules; its status and output. */
function check(folder = repo): {status: number | null; stdout: string} {
  const args = [path.join(repo, 'bin', 'launch.mjs'), 'tools/architecture/check.ts']
  const config = ['--config', path.join(repo, '.dependency-cruiser.cjs')]
  const result = spawnSync(process.execPath, [...args, ...(folder === repo ? [] : config)], {
    cwd: folder,
    encoding: 'utf8',
  })
  expect(result.stderr).toBe('')
  return {status: result.status, stdout: result.stdout}
}

/** A folder holding FILES (path → content), with the compiler options the repository's check reads. */
function folderOf(files: Record<string, string>): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'passepartout-architecture-'))
  made.push(folder)
  fs.copyFileSync(path.join(repo, 'tsconfig.json'), path.join(folder, 'tsconfig.json'))
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), {recursive: true})
    fs.writeFileSync(path.join(folder, file), content)
  }
  return folder
}

const cases: {name: string; files: Record<string, string>; rule: string | undefined}[] = [
  {
    name: 'a cycle of two modules',
    files: {
      'tools/tangle/a.ts': "import {b} from './b.ts'\nexport const a = () => b\n",
      'tools/tangle/b.ts': "import type {a} from './a.ts'\nexport const b = 1 as unknown as typeof a\n",
    },
    rule: 'no-cycle',
  },
  {
    name: "the core importing the toolchain's inside",
    files: {
      'generated/core/core.ts': "import {inside} from '../../tools/tangle/inside.ts'\nexport const core = inside\n",
      'tools/tangle/inside.ts': 'export const inside = 1\n',
    },
    rule: 'core-through-toolchain',
  },
  {
    name: 'the toolchain importing the core',
    files: {
      'tools/cli/a.ts': "import {core} from '../../generated/core/core.ts'\nexport const a = core\n",
      'generated/core/core.ts': 'export const core = 1\n',
    },
    rule: 'toolchain-below-core',
  },
  {
    name: 'a foundation of the core importing the core',
    files: {
      'generated/core/errors.ts': "import type {Core} from './core.ts'\nexport type E = Core\n",
      'generated/core/core.ts': 'export interface Core {n: number}\n',
    },
    rule: 'upward-import',
  },
  {
    name: 'tangling importing the project session',
    files: {
      'tools/tangle/a.ts': "import {session} from '../session/b.ts'\nexport const a = session\n",
      'tools/session/b.ts': 'export const session = 1\n',
    },
    rule: 'upward-import',
  },
  {
    name: 'a module of the core in no layer',
    files: {
      'generated/core/nowhere.ts': "import {core} from './core.ts'\nexport const n = core\n",
      'generated/core/core.ts': 'export const core = 1\n',
    },
    rule: 'unplaced-module',
  },
  {
    name: 'a module of the core in no layer, which imports nothing and nothing imports',
    files: {'generated/core/nowhere.ts': 'export const n = 1\n'},
    rule: 'unplaced-orphan',
  },
  {
    name: 'the core and the toolchain importing the agent SDKs the bench measures',
    files: {
      'generated/core/backends.ts': "import {Agent} from '@openai/agents'\nexport const a = Agent\n",
      'generated/core/reason.ts': "import {generateText} from 'ai'\nexport const r = generateText\n",
      'tools/tangle/a.ts': "import type {OpenAIProvider} from '@ai-sdk/openai'\nexport type A = OpenAIProvider\n",
    },
    rule: 'sdk-in-bench-only',
  },
  {
    name: 'the core importing the openai client, which its backends no longer need',
    files: {'generated/core/backends.ts': "import OpenAI from 'openai'\nexport const client = OpenAI\n"},
    rule: 'sdk-in-bench-only',
  },
  {
    name: 'the turn importing a provider rather than the wire and the conversation it needs',
    files: {
      'generated/core/turn.ts': "import {openaiBackend} from './openai-backend.ts'\nexport const t = openaiBackend\n",
      'generated/core/openai-backend.ts': 'export const openaiBackend = 1\n',
    },
    rule: 'providers-through-settings',
  },
  {
    name: 'the core through passepartout/toolchain, the references reading the settings',
    files: {
      'generated/core/config.ts': "import {inside} from '../../tools/toolchain.ts'\nexport const SETTINGS = inside\n",
      'tools/toolchain.ts': 'export const inside = 1\n',
      'tools/docs/settings.ts': "import {SETTINGS} from '../../generated/core/config.ts'\nexport const s = SETTINGS\n",
    },
    rule: undefined,
  },
]

/**
 * The check in each case's folder, all in one process (test/support/architecture-cases.ts): one load of
 * dependency-cruiser for the table, where a process a case spent most of its time loading it.
 */
let runs: CaseRun[] = []
beforeAll(() => {
  const args = [path.join(repo, 'bin', 'launch.mjs'), 'test/support/architecture-cases.ts']
  const folders = cases.map(({files}) => folderOf(files))
  const result = spawnSync(process.execPath, [...args, path.join(repo, '.dependency-cruiser.cjs'), ...folders], {
    cwd: repo,
    encoding: 'utf8',
  })
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
  runs = JSON.parse(result.stdout) as CaseRun[]
})

it.each(cases)('$name: $rule', (row) => {
  const {rule} = row
  const {status, stdout, stderr} = runs[cases.indexOf(row)]!
  expect(stderr).toBe('')
  if (rule === undefined) {
    expect(stdout).toMatch(/^architecture: no cycle, no import against the layers: 3 modules, 2 imports /)
    expect(status).toBe(0)
  } else {
    expect(new Set([...stdout.matchAll(/error ([a-z-]+): /g)].map((match) => match[1]))).toEqual(new Set([rule]))
    expect(status).toBe(1)
  }
})

it('says in one line that a configuration is not there, and exits 2', () => {
  const folder = folderOf({'tools/a.ts': 'export const a = 1\n'})
  const args = [path.join(repo, 'bin', 'launch.mjs'), 'tools/architecture/check.ts', '--config', 'nowhere.cjs']
  const result = spawnSync(process.execPath, args, {cwd: folder, encoding: 'utf8'})
  expect(result.stderr).toBe(`architecture: there is no configuration ${path.join(folder, 'nowhere.cjs')}\n`)
  expect(result.status).toBe(2)
})

it('finds no cycle and no import against the layers in generated/core and tools/', () => {
  const {status, stdout} = check()
  expect(stdout).toMatch(/^architecture: no cycle, no import against the layers: \d+ modules, \d+ imports /)
  expect(status).toBe(0)
})

const architecture = fs.readFileSync(path.join(repo, 'ARCHITECTURE.md'), 'utf8')

/** The section of ARCHITECTURE.md under the heading TITLE. */
function section(title: string): string {
  const start = architecture.indexOf(`\n## ${title}\n`)
  expect(start, `ARCHITECTURE.md has a section '${title}'`).toBeGreaterThan(0)
  const end = architecture.indexOf('\n## ', start + 1)
  return architecture.slice(start, end < 0 ? undefined : end)
}

/** The layers a list of TEXT draws (`- **name**: \`module\`, …`), in order. */
function layersOf(text: string): {name: string; modules: string[]}[] {
  return [...text.matchAll(/^- \*\*(.+?)\*\*: (.+)$/gm)].map(([, name, list]) => ({
    name: name!,
    modules: [...list!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
  }))
}

it("draws the configuration's layers, and places every module of the core in one", async () => {
  const config = (await import(path.join(repo, '.dependency-cruiser.cjs'))).default
  const [core, toolchain] = section('The layers').split("The toolchain's")
  expect(layersOf(core!)).toEqual(config.LAYERS)
  expect(layersOf(toolchain!)).toEqual(config.TOOLCHAIN_LAYERS)
  const placed = config.LAYERS.flatMap((layer: {modules: string[]}) => layer.modules)
  const modules = fs
    .readdirSync(path.join(repo, 'generated/core'), {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.replace(/\.ts$/, ''))
  const unplaced = modules.filter(
    (module) => !placed.includes(module) && !placed.includes(module.replace(/\/.*/, '/*')),
  )
  expect(unplaced).toEqual([])
})

/** The code a path's DOCUMENT holds: a TypeScript file of tools/ itself, else the files an Org document tangles. */
function codeOf(document: string): string {
  const file = path.join(repo, document)
  if (document.endsWith('.ts')) return fs.readFileSync(file, 'utf8')
  // The targets its header arguments and blocks name (not those of the examples its blocks hold as text).
  const tangles = /^(?::header-args:typescript:|#\+begin_src typescript)[^\n]*?:tangle (\S+\.ts)\b/gm
  const targets = [...fs.readFileSync(file, 'utf8').matchAll(tangles)]
    .map((match) => path.resolve(path.dirname(file), match[1]!))
    .filter((target) => !target.endsWith('.test.ts'))
  return [...new Set(targets)].map((target) => fs.readFileSync(target, 'utf8')).join('\n')
}

/** Whether CODE defines NAME: a function, class or constant, or (`Class.method`) a method of that class. */
function defines(code: string, name: string): boolean {
  const [owner, member] = name.split('.')
  if (member === undefined) return new RegExp(`^(export )?(async )?(function|class|const) ${name}\\b`, 'm').test(code)
  const start = code.search(new RegExp(`^(export )?class ${owner}\\b`, 'm'))
  if (start < 0) return false
  const next = code.slice(start + 1).search(/^(export )?class /m)
  const body = code.slice(start, next < 0 ? undefined : start + 1 + next)
  // A method pulled in by a noweb reference may sit at column 0 (the block's indentation is stripped).
  return new RegExp(`^ *(private |static |async |get )*${member}[<(]`, 'm').test(body)
}

const paths = ['A message, from the socket to the model and back', 'A save, from the watcher to the reloaded skill']

it.each(paths)('%s: every step names a function of the document it names', (title) => {
  const steps = [...section(title).matchAll(/^\d+\. `([^`]+)` → `([^`]+)`/gm)].map(([, document, name]) => ({
    document: document!,
    name: name!,
  }))
  expect(steps.length).toBeGreaterThan(10)
  const missing = steps.filter(
    ({document, name}) => !fs.existsSync(path.join(repo, document)) || !defines(codeOf(document), name),
  )
  expect(missing).toEqual([])
})
