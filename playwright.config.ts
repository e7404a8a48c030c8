// End-to-end tests against the production build (`npm start`) on a fresh embedded PostgreSQL in .data/e2e.
// Browsers: Debian's Chromium only (never a downloaded build); see scripts/ensure-packages.mjs.
import { defineConfig } from '@playwright/test';
import type { Pooler } from './e2e/external/deployment';

// The processes the tests start on a DATABASE_URL (a second app, the external deployment, the operator CLI on it) get
// the demo data: on a DATABASE_URL, an unset DATA_PROVIDER means the live stores, which these machines cannot reach.
process.env.DATA_PROVIDER ??= 'demo';

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;

export default defineConfig<{ pooler: Pooler }>({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'api', testMatch: /api\/.*\.spec\.ts/ },
    { name: 'ui', testMatch: /ui\/.*\.spec\.ts/, use: { browserName: 'chromium', permissions: ['clipboard-read', 'clipboard-write'] } },
    // A deployment of their own (e2e/external/deployment.ts): Debian's PostgreSQL 15, directly and behind PgBouncer.
    // After the others: their cross-process checks (the shared rate limit's store answering within its 500 ms) are
    // about this deployment, not about a machine busy with two other suites.
    { name: 'postgres-15', testMatch: /external\/.*\.spec\.ts/, use: { pooler: 'none' }, dependencies: ['api', 'ui'] },
    { name: 'pgbouncer', testMatch: /external\/.*\.spec\.ts/, use: { pooler: 'pgbouncer' }, dependencies: ['api', 'ui'] },
  ],
  webServer: {
    command: 'rm -rf .data/e2e && npm start',
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: '.data/e2e',
      DEMO_PASSWORD: 'e2e-demo-password',
      SEED_DEMO: 'true',
      LOG_REQUESTS: 'false',
      NEXTAUTH_URL: baseURL,
      // The webhook tests deliver to a receiver on loopback.
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
      // e2e/api/operations.spec.ts scrapes /metrics with it.
      METRICS_TOKEN: 'e2e-metrics-token-0123456789',
    },
  },
});
