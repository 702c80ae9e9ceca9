import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // The client's examples import it by its package name, as its users do.
    alias: {
      '@fieldservice/client': fileURLToPath(new URL('clients/typescript/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on the 2-core machines the
    // suite runs on. Many files mostly wait (child servers, shutdown delays, PostgreSQL), so two
    // workers run the suite in ~3 min instead of ~5.
    maxWorkers: 2,
  },
})
