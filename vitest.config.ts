import path from 'node:path'
import {defineConfig} from 'vitest/config'

/**
 * Files of tests that only compute (parse, tangle, format, judge): no process.env or signal of their own, no
 * command line or core started, no timing measured against the process's own CPU. They share their workers and
 * the modules loaded in them: a process of its own cost each about half a second of CPU before its first test
 * (measured side by side on 16 of them: 20 s of CPU one process each, 11 s sharing).
 */
const COMPUTING = [
  'test/org/read.test.ts',
  'test/tangle/header-args.test.ts',
  'test/tangle/line-map.test.ts',
  'test/graph/document-graph.test.ts',
  'test/graph/document-graph-cases.test.ts',
  'test/fmt/format-org.test.ts',
  'test/fmt/properties.test.ts',
  'test/code-frame.test.ts',
  'test/rules-table.test.ts',
  'test/cli-command-table.test.ts',
  'test/cases.test.ts',
  'test/session/toolchain-boundary.test.ts',
  'test/session/skill-twins.test.ts',
  ...['act', 'actions', 'approvals', 'backends', 'catalog', 'client', 'errors', 'host-protocol', 'log', 'protocol']
    .concat(['registry', 'signals', 'skill', 'skill-ledger', 'untrusted'])
    .map((name) => `generated/core/${name}.test.ts`),
  'generated/core/messages/*.test.ts',
  ...['bouncer', 'policy', 'shell-guard'].map((name) => `generated/skills/${name}.test.ts`),
]

export default defineConfig({
  resolve: {
    // What skill documents' tests import; the type-check resolves the same names through package.json's exports.
    alias: {'passepartout/testing': path.resolve(import.meta.dirname, 'generated/core/testing-runtime.ts')},
  },
  test: {
    // Most tests wait on processes of their own (a core, a skill host, the command line): files side by side keep
    // the two cores busy where one at a time left them idle (measured on this shared machine: 568 s one at a time,
    // 233-319 s four at a time). Two, not four: at four, watchdogs of a second and reload races failed on a loaded
    // machine, and those tests are not yet made to hold under it.
    pool: 'forks',
    maxWorkers: 2,
    // A test's time limit only catches one that hangs: most boot cores and check code, seconds of CPU that a machine
    // loaded by other work (other test runs, other users) stretches many times over.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The toolchain's tests, and the core's and the skills' tangled from org/ (make test tangles first). Each file in
    // a process of its own, as they set process.env and signals; those that only compute share theirs.
    projects: [
      {
        extends: true,
        test: {name: 'own-process', include: ['test/**/*.test.ts', 'generated/**/*.test.ts'], exclude: COMPUTING},
      },
      {extends: true, test: {name: 'shared', include: COMPUTING, isolate: false}},
    ],
  },
})
