import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Three projects:
 * - unit:   pure logic, no database (`*.unit.test.ts`, and everything under shared/).
 * - server: server tests against a real PostgreSQL; each file gets its own database
 *           (server/test/global-setup.ts picks TEST_DATABASE_URL, Docker or embedded).
 * - client: React components in jsdom.
 */
export default defineConfig({
  test: {
    // At least two files at once, even on two cores (vitest's default there is one): a server
    // test spends much of its time waiting for PostgreSQL, another process. Measured on two cores:
    // the whole run 5.9 min with two workers against 8.2 min with one, all tests passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // unit and server: one module graph per worker, not per file (isolate: false). Each server
      // file still gets its own database and builds its own app with its dependencies passed in;
      // what was repeated was importing the server (Prisma, Fastify, tRPC) for every file. Measured
      // on two cores on server/plugins and server/routers (13 files, 227 tests): 27 s of CPU in the
      // test processes against 53 s isolated (imports 16 s against 49 s). The client's files mock
      // modules and keep one jsdom each: they stay isolated.
      {
        test: {
          name: 'unit',
          isolate: false,
          include: [
            'shared/**/*.test.ts',
            'server/**/*.unit.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.unit.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          isolate: false,
          include: ['server/**/*.test.ts'],
          exclude: ['server/**/*.unit.test.ts', 'server/db/generated/**'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          // Every answer a server test gets is checked against the OpenAPI document.
          setupFiles: ['server/test/contract-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'client',
          include: ['client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['client/test-utils/setup.ts'],
        },
      },
    ],
  },
});
