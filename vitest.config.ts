import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'tests/**/*.test.ts',
      'envs/**/*.test.ts',
      'oracles/**/*.test.ts',
      'gym/**/*.test.ts',
      'server/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['tests/support/routers.ts'],
    // Test files that land on one worker share its module cache: the generated zod schemas, the routers and the
    // harness's seed templates are built once per worker instead of once per file (most of the suite's time went
    // to that). Safe because no test mocks modules or keeps state in module scope; see docs/decisions/0110.
    isolate: false,
  },
})
