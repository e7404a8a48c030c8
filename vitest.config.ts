// Three projects: `unit` (no database), `integration` (*.integration.test.ts: a real PostgreSQL, the embedded
// cluster test/global-setup.ts starts and migrates, several files at once) and `integration-own-database` (the files
// that need a database to themselves: on a cluster of their own, each file on its own copy of the migrated database,
// test/setup-own-database.ts). All three run at once. The application's log goes to test-results/logs/vitest/, one
// file per test file (test/setup-logs.ts).
//
// `unit` and `integration` files share their worker's modules (isolate: false): importing the app's modules again
// for every file was a third of Vitest's CPU, which `npm test` shares with Playwright. So a file must not depend on
// module state another file may have left (a cache, a provider swapped in): it resets what it relies on before it
// starts, not only after (e.g. research.integration.test.ts). `integration-own-database` stays isolated: each of its
// files connects to a database of its own.
//
// Every wait is sized for a busy machine, never for a quiet one: a test and its hooks may take a few minutes when the
// machine is busy (Vitest's own workers, the type check beside them, other work) on a slow host, and a poll gives what
// it waits for a minute. They are bounds that catch a hang, not measurements; timings belong in `npm run bench`.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
};
/**
 * Integration tests that need the database to themselves, each on a database of its own: what they assert is changed
 * by writes anywhere in the database (a cache replayed until any store data changes), or they run the jobs that sweep
 * every account (the daily refresh and its hand-out of every app, the end of every trial due, the expiry of every key
 * due, the delivery of every overdue webhook, the queue of backfills of apps just added and of test sandboxes' sample
 * apps, the reseal of every webhook secret under a new data key), which would change other files' accounts under them.
 */
const DATABASE_TO_THEMSELVES = [
  'src/server/operations/response-cache.integration.test.ts',
  'src/server/services/ingest/scheduler.integration.test.ts',
  'src/server/services/ingest/refresh.integration.test.ts',
  'src/server/services/accounts/trials.integration.test.ts',
  'src/server/rest/conformance.integration.test.ts',
  'src/server/services/security-log/security-log.integration.test.ts',
  'src/server/services/webhooks/delivery.integration.test.ts',
  'src/server/services/webhooks/secrets.integration.test.ts',
  'test/webhook-processes.integration.test.ts',
  'src/server/rest/test-mode.integration.test.ts',
  'src/server/services/apps/self-serve.integration.test.ts',
  'src/server/mcp/mcp-endpoint.integration.test.ts',
];
/** Both integration projects: the cluster test/global-setup.ts starts (one per project), and its address for each file. */
const onDatabase = {
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/setup-logs.ts', 'test/setup-environment.ts', 'test/setup-database.ts'],
};
const waits = { testTimeout: 300_000, hookTimeout: 300_000, expect: { poll: { timeout: 60_000 } } };

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
          isolate: false,
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
          isolate: false,
          include: ['src/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
          exclude: [...DATABASE_TO_THEMSELVES, '**/node_modules/**'],
          ...onDatabase,
        },
      },
      {
        ...shared,
        test: {
          ...waits,
          name: 'integration-own-database',
          include: DATABASE_TO_THEMSELVES,
          ...onDatabase,
          setupFiles: [...onDatabase.setupFiles, 'test/setup-own-database.ts'],
        },
      },
    ],
  },
});
