import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Four projects:
 * - unit:   pure logic, no database (`*.unit.test.ts`, and everything under shared/).
 * - server: server tests against a real PostgreSQL; each file gets its own database
 *           (server/test/global-setup.ts picks TEST_DATABASE_URL, Docker or embedded).
 * - client: React components in jsdom, the files sharing one module graph per worker.
 * - client-mocks: the client files that mock modules, each isolated as usual.
 */
/**
 * The client test files that replace a module with vi.mock: they keep vitest's isolation (see the
 * client project). scripts/vitest-projects.test.ts checks that this list names every such file.
 */
export const CLIENT_FILES_WITH_MODULE_MOCKS = [
  'client/components/review/PdfViewer.test.tsx',
  'client/components/review/ReviewPanel.test.tsx',
  'client/components/transactions/FormsChecklist.test.tsx',
  'client/pages/Dashboard.test.tsx',
  'client/pages/Forms.test.tsx',
  'client/pages/ReviewQueue.test.tsx',
  'client/pages/Transaction.test.tsx',
];

export default defineConfig({
  test: {
    // At least two files at once, even on two cores (vitest's default there is one): a server
    // test spends much of its time waiting for PostgreSQL, another process. Measured on two cores:
    // the whole run 5.9 min with two workers against 8.2 min with one, all tests passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'server/**/*.unit.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          exclude: ['server/**/*.unit.test.ts', 'server/db/generated/**'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'client',
          include: ['client/**/*.test.{ts,tsx}'],
          exclude: CLIENT_FILES_WITH_MODULE_MOCKS,
          environment: 'jsdom',
          setupFiles: ['client/test-utils/setup.ts'],
          // One module graph and one jsdom per worker, not per file: importing React, Mantine
          // and the pages again for each of 50 files, and building a jsdom for each, was most of
          // this project's time (measured on two cores: 175 s of wall time isolated, 56 s not).
          // client/test-utils/setup.ts clears what a test leaves behind (the rendered tree,
          // localStorage); the files that replace modules run in the project below.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: {
          // vi.mock replaces a module for the file that asks, which needs a module graph of the
          // file's own: in a shared one the module may already be loaded, unmocked.
          name: 'client-mocks',
          include: CLIENT_FILES_WITH_MODULE_MOCKS,
          environment: 'jsdom',
          setupFiles: ['client/test-utils/setup.ts'],
        },
      },
    ],
  },
});
