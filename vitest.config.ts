import path from 'node:path'
import {defineConfig} from 'vitest/config'
import {USER_CACHE} from './test/support/user-cache.ts'

/**
 * Files of tests that change nothing of their process (no process.env, signal or working folder of their own, no
 * core or skill host in it; a command line they run is a process of its own) and time nothing against it: they
 * share their workers and the modules loaded in them. A process of its own cost each about half a second of CPU
 * before its first test (measured side by side on 36 of them: 53 s of CPU one process each, 28 s sharing).
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
  'test/docs/references.test.ts',
  'test/docs/transcripts.test.ts',
  'test/docs/links.test.ts',
  'test/cli-command-table.test.ts',
  'test/cases.test.ts',
  'test/messages/throw-sites.test.ts',
  'test/session/toolchain-boundary.test.ts',
  'test/session/skill-twins.test.ts',
  ...['guards', 'setup-files', 'written'].map((name) => `test/tangle/${name}.test.ts`),
  'test/graph/deps-command.test.ts',
  'test/weave/weave.test.ts',
  'test/weave/include.test.ts',
  'test/weave/site-map.test.ts',
  'test/weave/highlight.test.ts',
  'test/tangle/block-spans.test.ts',
  'test/fmt/command.test.ts',
  'test/check/sandbox.test.ts',
  'test/package/guard.test.ts',
  'test/package/hand-over.test.ts',
  'test/package/manifest.test.ts',
  'test/watch/org-watcher.test.ts',
  ...['settings', 'fuzz', 'client-bundle', 'differential', 'check/reading', 'tangle/lisp-eval'].map(
    (name) => `test/${name}.test.ts`,
  ),
  // A headless Chromium, closed in the file's afterAll (puppeteer's handlers of signals go with it), and .ci/run.
  ...['browser', 'weave/project-site', 'ci-run'].map((name) => `test/${name}.test.ts`),
  ...['act', 'actions', 'approvals', 'backends', 'catalog', 'client', 'errors', 'host-protocol', 'log', 'protocol']
    .concat(['loader', 'registry', 'shipped', 'signals', 'skill', 'tools', 'untrusted'])
    .concat(['approval-flow', 'loads-in-flight', 'mandatory-skills'])
    .concat(['settings', 'turn-wire', 'database', 'chat-wire', 'cascade', 'offline-backend', 'openai-backend'])
    .map((name) => `generated/core/${name}.test.ts`),
  'generated/core/messages/*.test.ts',
  ...['bouncer', 'policy', 'shell-guard'].map((name) => `generated/skills/${name}.test.ts`),
]

/**
 * Files of tests that boot cores and skill hosts in their process, or run a command line as a process of their own,
 * close each before they end, and set no environment, signal or working folder: they share their workers too, as
 * what is left of them is what they loaded (measured side by side on these 17 files, 443 tests, the same test failing
 * in both on a loaded machine: 52.9 s of CPU one process each, 43.0 s sharing; chat, client-commands, printing and
 * one-shot, which start cores only as command lines, 48.7 s one process each, 47.0 s sharing; mcp and daemon, with
 * skill-services and load-queue beside them, twice interleaved: 31.6 and 31.6 s one process each, 30.2 and 29.9 sharing).
 */
const BOOTING = ['approvals-page', 'background', 'commands', 'config', 'load-queue', 'loop', 'memory', 'passepartout']
  .concat(['privacy', 'reading', 'schedule-spec', 'schedules', 'sessions', 'skill-ledger', 'skill-services'])
  .concat(['skill-tools', 'turn', 'chat', 'client-commands', 'printing', 'one-shot', 'mcp', 'daemon'])
  .concat(['core'])
  .map((name) => `generated/core/${name}.test.ts`)
  .concat('generated/skills/scribe.test.ts')
/**
 * Files of the toolchain's tests that run its command line as processes of their own, and set no environment, signal
 * or working folder: they share their workers too (measured side by side on these 10 files, 161 tests, twice
 * interleaved: 50.4 and 48.4 s of CPU one process each, 47.2 and 46.4 sharing; 95-114 s of wall time, 67-76 sharing).
 */
const COMMANDS = ['cli', 'cli-failures', 'any-folder', 'terminal', 'launch', 'org/growth', 'graph/run-deps']
  .concat(['project/init', 'project/read-only', 'project/shipped-skills', 'package/package'])
  .concat(['architecture', 'bundle-maps', 'bench-memory', 'tangle/killed-run', 'tangle/staging-folder'])
  .concat(['docs/examples', 'project/test-command', 'project/installation-modules', 'weave/weave-command'])
  .map((name) => `test/${name}.test.ts`)
const SHARING = [...COMPUTING, ...BOOTING, ...COMMANDS]

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
    // A project a test writes runs the skills it holds, and no shipped one beside them (org/core/shipped.org): the
    // cores the tests start, in their processes or as commands, inherit this. A test of the shipped skills says
    // which it boots. Their user's cache is the run's own (test/support/user-cache.ts).
    env: {SHIPPED_SKILLS: '', XDG_CACHE_HOME: USER_CACHE},
    globalSetup: ['test/support/user-cache.ts'],
    // The toolchain's tests, and the core's and the skills' tangled from org/ (make test tangles first). Each file in
    // a process of its own, as many set process.env and signals; those that leave their process as they found it
    // (COMPUTING, BOOTING) share theirs.
    projects: [
      {
        extends: true,
        test: {name: 'own-process', include: ['test/**/*.test.ts', 'generated/**/*.test.ts'], exclude: SHARING},
      },
      {extends: true, test: {name: 'shared', include: SHARING, isolate: false}},
    ],
  },
})
