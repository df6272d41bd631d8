/**
 * What `passepartout init` writes: the files of a new project, by their path in it. Each says what it is for
 * where a person opens it, and the example skill is the shape of every skill (prose, the code a tool runs, the
 * tests that hold it), small enough to read at once and copy; its tests pass as written (`passepartout test`).
 */

/** The example skill's name, and so its document's: org/skills/hello.org. */
export const EXAMPLE_SKILL = 'hello'

export interface ProjectSettings {
  /** The package's name: the folder's, as npm takes it. */
  name: string
  /** The installation's version, which the project depends on. */
  version: string
}

/** The files of a new project, by path (relative, `/`-separated), in the order `init` lists them. */
export function projectFiles({name, version}: ProjectSettings): Record<string, string> {
  return {
    [`org/skills/${EXAMPLE_SKILL}.org`]: EXAMPLE,
    'passepartout.json': SETTINGS,
    '.env.example': ENVIRONMENT,
    '.gitignore': IGNORED,
    'package.json': `${JSON.stringify(manifest(name, version), null, 2)}\n`,
    'README.md': readme(name),
  }
}

/** The package.json of a project: private, its scripts the command line's, Passepartout its one dependency. */
function manifest(name: string, version: string) {
  return {
    name,
    private: true,
    type: 'module',
    scripts: {start: 'passepartout run', test: 'passepartout test'},
    dependencies: {passepartout: `^${version}`},
  }
}

/** NAME as npm takes a package's name: lower case, letters, digits and `-._`, at most 214 characters. */
export function packageName(name: string): string {
  const taken = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214)
  return taken || 'passepartout-project'
}

const EXAMPLE = `#+TITLE: Hello: a first skill, with a tool and its tests
#+PASSEPARTOUT: 1

A skill is an Org document in =org/skills/=: the prose says why, the blocks
are the code. =passepartout check= tangles them into =generated/= and checks
their types, each problem at its Org line; =passepartout run= loads the skill,
and loads it again each time this file is saved.

This one gives the model a tool: it greets a person by name. Copy it to
write your own (its file name is its name), or delete it.

* Implementation
:PROPERTIES:
:header-args:typescript: :tangle ../../generated/skills/${EXAMPLE_SKILL}.ts :mkdirp yes
:END:

The words are a function of their own, so that the tests can hold them
without a model.

#+begin_src typescript
import {defineSkill, defineTool} from 'passepartout'
import {z} from 'zod'

/** The greeting for NAME. */
export function greeting(name: string): string {
  return \`Hello, \${name}!\`
}

// A skill that no message triggers: it is here for its tool.
defineSkill({name: '${EXAMPLE_SKILL}', trigger: () => false})

defineTool({
  name: '${EXAMPLE_SKILL}',
  description: 'Greets a person by name.',
  params: z.object({name: z.string().min(1).describe('who to greet')}),
  run: ({name}) => greeting(name),
})
#+end_src

* Test Suite
:PROPERTIES:
:header-args:typescript: :tangle ../../generated/skills/${EXAMPLE_SKILL}.test.ts :mkdirp yes
:END:

The tests boot the project's skills in a real skill host, once per file,
and call the tool as the model would: =passepartout test= runs them.

#+begin_src typescript
import {bootSkills} from 'passepartout/testing'
import {expect, it} from 'vitest'

it('greets a person by name', async () => {
  const skills = await bootSkills()
  expect(await skills.tool('${EXAMPLE_SKILL}', {name: 'Ada'})).toEqual({ok: true, output: 'Hello, Ada!'})
})

it('refuses a call without a name', async () => {
  const skills = await bootSkills()
  expect((await skills.tool('${EXAMPLE_SKILL}', {})).ok).toBe(false)
})
#+end_src
`

const SETTINGS = `// What this project connects to, read when its core starts. JSON with comments and trailing commas.
// No secret goes here: a key is named by the variable that holds it, in the environment or .env.
{
  // The model providers, each an OpenAI-compatible server, tried in the order of "cascade".
  "providers": {
    // "local": {"baseURL": "http://127.0.0.1:11434/v1", "model": "llama3.2"},
    // "hosted": {"baseURL": "https://api.openai.com/v1", "model": "gpt-4o-mini", "apiKeyEnv": "OPENAI_API_KEY"},
  },
  // "cascade": ["local", "hosted", "offline"],
  // The shipped skills run beside this project's own; one may be turned off (policy and bouncer, mandatory, not).
  "skills": {
    // "scribe": false,
  },
}
`

const ENVIRONMENT = `# Copy this file to .env (which git does not keep) and fill it in; the environment wins over it.
# Without a model, the core answers from its offline backend, which calls no model: enough to try skills.

# A hosted OpenAI-compatible service:
# PASSEPARTOUT_BACKENDS=openai,offline
# OPENAI_BASE_URL=https://api.openai.com/v1
# OPENAI_API_KEY=
# PASSEPARTOUT_MODEL=gpt-4o-mini

# Or a model on this machine, no key needed: Ollama (ollama serve; ollama pull llama3.2) on port 11434,
# or llama.cpp's server (llama-server -m MODEL.gguf --port 8080) at http://127.0.0.1:8080/v1:
# PASSEPARTOUT_BACKENDS=openai,offline
# OPENAI_BASE_URL=http://127.0.0.1:11434/v1
# PASSEPARTOUT_MODEL=llama3.2
`

const IGNORED = `# What passepartout writes (generated/: the tangled code) and keeps (.passepartout/: memory, state), and secrets.
generated/
.passepartout/
node_modules/
.env
`

function readme(name: string): string {
  return `# ${name}

An agent of one's own, run by Passepartout: its skills are the Org documents of \`org/skills/\`, and
\`org/skills/${EXAMPLE_SKILL}.org\` is one to copy.

- \`passepartout check\`: tangle the documents into \`generated/\` and check them, each problem at its Org line.
- \`passepartout test\` (\`npm test\`): run the tests of this project's documents.
- \`passepartout run\` (\`npm start\`): run the core, which loads each skill again when it is saved;
  \`passepartout chat\` talks to it.
- \`passepartout.json\` names the model providers; \`.env.example\` shows the variables of a model's server.
`
}
