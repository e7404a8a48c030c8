// The database restarting under load: a `next start` process on a cluster of its own keeps answering while the
// cluster stops and starts again: 503 problem+json with Retry-After while it is down (never a 500), 200 again once it
// is back without restarting the app, and every success charged exactly once, every failure not at all.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ensureDatabase, freePort, type DatabaseHandle } from '../../src/server/db/embedded';
import { applyMigrations } from '../../src/server/db/migrate';
import { serverArgs } from '../../src/server/runtime/server-process';
import { setEnvironment } from '../environment';
import { PlainClient } from '../helpers';

const APP_PORT = 3212;
let app: ChildProcess | undefined;
let database: DatabaseHandle | undefined;
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT,
  DATABASE_URL: process.env.DATABASE_URL,
};

test.afterAll(async () => {
  app?.kill('SIGTERM');
  await database?.stop();
  setEnvironment(saved);
});

interface Outcome {
  status: number;
  contentType: string;
  retryAfter: string | undefined;
  cost: string | undefined;
  phase: 'up' | 'down' | 'back';
}

test('requests answer 503 while the database is down and recover without a restart; no credit lost or double-charged', async () => {
  // A cluster of its own (the other specs' server keeps its database), on a fixed port so that it comes back where
  // the app expects it.
  setEnvironment({
    DATA_DIR: '.data/e2e-restart',
    EMBEDDED_PG_PORT: String(await freePort()),
    DATABASE_URL: undefined,
  });
  database = await ensureDatabase();
  await applyMigrations(database.url, () => {});

  // An Agency account (50,000 credits) with one app and a read-write key, made by the services on this cluster.
  setEnvironment({ DATABASE_URL: database.url });
  const { db, disconnectDb } = await import('../../src/server/db');
  const { createAccount } = await import('../../src/server/services/accounts/accounts');
  const { createApiKey } = await import('../../src/server/services/api-keys/api-keys');
  const account = await createAccount({
    email: `restart-${randomBytes(6).toString('hex')}@example.test`,
    password: 'restart-password-123',
    plan: 'agency',
  });
  const appRow = await db.trackedApp.create({
    data: {
      accountId: account.accountId,
      store: 'app_store',
      storeId: '1500000009',
      bundleId: 'com.example.restart',
      name: 'Restart',
      developer: 'Example',
      category: 'Utilities',
      primaryCountry: 'US',
    },
  });
  const { key: keyRow, secret } = await createApiKey(
    { accountId: account.accountId },
    { name: 'restart', scope: 'read-write' },
  );
  await disconnectDb();
  setEnvironment({ DATABASE_URL: undefined }); // so that ensureDatabase below starts the cluster again rather than trust the URL

  let output = '';
  app = spawn(process.execPath, serverArgs('start', APP_PORT), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      LOG_REQUESTS: 'false',
      NODE_ENV: 'production',
    },
  });
  app.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const client = new PlainClient(`http://127.0.0.1:${APP_PORT}`);
  await expect
    .poll(async () => (await client.get('/api/public/v1/openapi.json').catch(() => null))?.status(), {
      timeout: 60_000,
    })
    .toBe(200);

  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'up';
  let running = true;
  const worker = async () => {
    while (running) {
      const response = await client.get(`/api/public/v1/apps/${appRow.id}`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      const headers = response.headers();
      outcomes.push({
        status: response.status(),
        contentType: headers['content-type'] ?? '',
        retryAfter: headers['retry-after'],
        cost: headers['x-credits-cost'],
        phase,
      });
      await response.dispose();
    }
  };
  const workers = Array.from({ length: 8 }, worker);

  await expect.poll(() => outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(50);
  phase = 'down';
  await database.stop();
  await expect
    .poll(() => outcomes.filter((outcome) => outcome.phase === 'down' && outcome.status === 503).length)
    .toBeGreaterThan(20);
  database = await ensureDatabase();
  phase = 'back';
  await expect
    .poll(() => outcomes.filter((outcome) => outcome.phase === 'back' && outcome.status === 200).length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(50);
  running = false;
  await Promise.all(workers);

  // Never a 500; every failure a 503 problem with Retry-After and nothing charged.
  const statuses = new Set(outcomes.map((outcome) => outcome.status));
  expect([...statuses].sort()).toEqual([200, 503]);
  for (const outcome of outcomes.filter((entry) => entry.status === 503)) {
    expect(outcome.contentType).toMatch(/^application\/problem\+json/);
    expect(outcome.retryAfter).toBe('5');
    expect(outcome.cost ?? '0').toBe('0');
  }
  // The app logged the outage as such.
  expect(output).toContain('database unavailable');

  // Each success charged once, nothing else: the key's ledger rows are the successes, and the usage equals them.
  const successes = outcomes.filter((outcome) => outcome.status === 200).length;
  const check = new pg.Client({ connectionString: database.url });
  await check.connect();
  const [ledger] = (
    await check.query<{ calls: number; credits: number }>(
      'SELECT count(*)::int AS calls, coalesce(sum(cost), 0)::int AS credits FROM credit_ledger WHERE key_id = $1',
      [keyRow.id],
    )
  ).rows;
  const [usage] = (
    await check.query<{ used: number }>(
      'SELECT coalesce(sum(used), 0)::int AS used FROM credit_usage WHERE account_id = $1',
      [account.accountId],
    )
  ).rows;
  await check.end();
  expect(ledger).toEqual({ calls: successes, credits: successes });
  expect(usage!.used).toBe(successes);
});
