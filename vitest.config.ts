import path from 'node:path'
import {defineConfig} from 'vitest/config'

export default defineConfig({
  resolve: {
    // What skill documents' tests import; the type-check resolves the same names through package.json's exports.
    alias: {'passepartout/testing': path.resolve(import.meta.dirname, 'generated/core/testing.ts')},
  },
  test: {
    // The toolchain's tests, and the core's and the skills' tangled from org/ (make test tangles first).
    include: ['test/**/*.test.ts', 'generated/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
