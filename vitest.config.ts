import path from 'node:path'
import {defineConfig} from 'vitest/config'

export default defineConfig({
  resolve: {
    // What skill documents' tests import; the type-check resolves the same names through package.json's exports.
    alias: {'passepartout/testing': path.resolve(import.meta.dirname, 'generated/core/testing-runtime.ts')},
  },
  test: {
    // The toolchain's tests, and the core's and the skills' tangled from org/ (make test tangles first).
    include: ['test/**/*.test.ts', 'generated/**/*.test.ts'],
    // Most tests wait on processes of their own (a core, a skill host, the command line): files side by side keep
    // the two cores busy where one at a time left them idle (measured on this shared machine: 568 s one at a time,
    // 233-319 s four at a time). Two, not four: at four, watchdogs of a second and reload races failed on a loaded
    // machine, and those tests are not yet made to hold under it. Each file in a process of its own: they set
    // process.env and signals.
    pool: 'forks',
    maxWorkers: 2,
    // A test's time limit only catches one that hangs: most boot cores and check code, seconds of CPU that a machine
    // loaded by other work (other test runs, other users) stretches many times over.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
