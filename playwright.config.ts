// End-to-end tests against the production build (`npm start`) on a fresh embedded PostgreSQL in .data/e2e.
// Browsers: Debian's Chromium only (never a downloaded build); see scripts/ensure-packages.mjs. Its headless shell,
// which is Playwright's own headless default: the full browser in its headless mode costs far more CPU, and the suite's
// length is its CPU.
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_SERVER_LOG } from './e2e/log-locations-reporter';
import type { Pooler } from './e2e/external/deployment';

// The processes the tests start on a DATABASE_URL (a second app, the external deployment, the operator CLI on it) get
// the demo data: on a DATABASE_URL, an unset DATA_PROVIDER means the live stores, which these machines cannot reach.
process.env.DATA_PROVIDER ??= 'demo';

const port = Number(process.env.E2E_PORT ?? 3210);
/**
 * `E2E_RATE_LOOP=20 npx playwright test`: the whole suite, and beside it the cross-process rate test 20 times in a
 * row, on deployments of its own with the rates counted in PostgreSQL, directly and behind PgBouncer (docs/testing.md).
 */
const rateLoop = Number(process.env.E2E_RATE_LOOP ?? 0);
export const baseURL = `http://localhost:${port}`;
/** The e2e server's mail server (e2e/mailbox.ts). */
export const MAILBOX_PORT = port + 25;
/** The stores' stand-ins for connected store accounts (e2e/store-stand-ins.ts): App Store Connect's, Google Play's. */
export const APP_STORE_CONNECT_PORT = port + 26;
export const GOOGLE_PLAY_CONSOLE_PORT = port + 27;

export default defineConfig<{ pooler: Pooler; redis: boolean }>({
  testDir: 'e2e',
  // The e2e server's mail server, for the whole run (e2e/mailbox.ts).
  globalSetup: './e2e/global-setup.ts',
  // Beside test-results/logs, which the run writes and Playwright would otherwise empty.
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  // Many tests spend most of their time waiting: on processes they start, kill and restart, on a database coming
  // back, on a rate's minute to pass. Three times as many as cores at once keeps the cores busy while they wait (a
  // rate loop, below, takes two of them). E2E_WORKERS to choose.
  workers: Number(process.env.E2E_WORKERS ?? 6),
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./e2e/log-locations-reporter.ts'], ['./e2e/cpu-reporter.ts']],
  // Sized for a busy machine: bounds that catch a hang, never measurements. Inside npm test a test takes several times
  // as long as on a quiet machine (six workers, their browsers, the e2e server and the processes tests start share two
  // cores, on a host whose speed moves); tests that wait out minutes of their own (a rate's window, a restart's
  // backoff) say more.
  timeout: 360_000,
  expect: { timeout: 60_000 },
  use: {
    baseURL,
    launchOptions: {
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // First, so that they run beside the whole suite rather than after it.
    ...(rateLoop > 0
      ? (['none', 'pgbouncer'] as const).map((pooler) => ({
          name: `rate-loop-${pooler === 'none' ? 'postgres-15' : pooler}`,
          testMatch: /external\/cross-process\.spec\.ts/,
          grep: /requests per minute hold across both web processes/,
          repeatEach: rateLoop,
          // One after the other, in a worker of its own beside the suite's.
          workers: 1,
          use: { pooler, redis: false },
        }))
      : []),
    // A deployment of its own (e2e/external/deployment.ts): Debian's PostgreSQL 15 behind PgBouncer in transaction
    // mode, Redis for the request rates; run beside the other projects (what it checks across processes must hold on a
    // busy machine too), and first: it is a long chain of serial tests. One deployment, not one per way of connecting:
    // PostgreSQL directly is every other test's, and the rates counted in PostgreSQL across two processes are
    // e2e/api/second-process.spec.ts's (docs/testing.md).
    { name: 'pgbouncer', testMatch: /external\/.*\.spec\.ts/, use: { pooler: 'pgbouncer', redis: true } },
    { name: 'api', testMatch: /api\/.*\.spec\.ts/ },
    // E2E_STRESS=1: one account changed by many calls at once (e2e/stress/), not part of `npm test`.
    ...(process.env.E2E_STRESS === '1' ? [{ name: 'stress', testMatch: /stress\/.*\.spec\.ts/, workers: 1 }] : []),
    {
      name: 'ui',
      testMatch: /ui\/.*\.spec\.ts/,
      use: { browserName: 'chromium', permissions: ['clipboard-read', 'clipboard-write'] },
    },
  ],
  webServer: {
    // Its output goes to a file (e2e/log-locations-reporter.ts names it when a test fails).
    command: `rm -rf .data/e2e && mkdir -p ${path.dirname(E2E_SERVER_LOG)} && exec npm start > ${E2E_SERVER_LOG} 2>&1`,
    url: `${baseURL}/api/health`,
    timeout: 360_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'ignore',
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
      // Invitations are mailed to e2e/mailbox.ts, where the members' tests read them.
      SMTP_URL: `smtp://127.0.0.1:${MAILBOX_PORT}`,
      MAIL_FROM: 'ASO Analytics <team@e2e.test>',
      // Connected store accounts ask the stores' stand-ins (e2e/store-stand-ins.ts).
      APP_STORE_CONNECT_ORIGIN: `http://127.0.0.1:${APP_STORE_CONNECT_PORT}`,
      GOOGLE_PLAY_DEVELOPER_API_ORIGIN: `http://127.0.0.1:${GOOGLE_PLAY_CONSOLE_PORT}`,
    },
  },
});
