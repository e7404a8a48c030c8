// Two projects: `unit` (no database) and `integration` (*.integration.test.ts: a real PostgreSQL, the embedded
// cluster test/global-setup.ts starts and migrates). The application's log goes to test-results/logs/vitest/, one file
// per test file (test/setup-logs.ts).
//
// Every wait is sized for a busy machine, never for a quiet one: a test and its hooks may take a minute or two when
// the machine runs other suites, and a poll gives what it waits for 30 s. They are bounds that catch a hang, not
// measurements; timings belong in `npm run bench`.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
};
const waits = { testTimeout: 60_000, hookTimeout: 120_000, expect: { poll: { timeout: 30_000 } } };

export default defineConfig({
  ...shared,
  test: {
    ...waits,
    // Test files wait on a database, child processes and timers much of the time: more of them than cores at once.
    maxWorkers: Math.max(2, os.availableParallelism() + 1),
    projects: [
      {
        ...shared,
        test: {
          ...waits,
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
          setupFiles: ['test/setup-logs.ts', 'test/setup-environment.ts'],
        },
      },
      {
        ...shared,
        test: {
          ...waits,
          name: 'integration',
          include: ['src/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup-logs.ts', 'test/setup-environment.ts', 'test/setup-database.ts'],
        },
      },
    ],
  },
});
