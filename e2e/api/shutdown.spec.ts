// Graceful shutdown of `npm start` (the launcher: Next.js, the background work and the embedded database) on a
// data directory of its own: on SIGTERM, a request in flight (its body still arriving) and a webhook delivery in
// flight (its receiver still answering) both finish and are recorded, new connections are refused, and the launcher
// exits 0 once they are done.
import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ensureDatabase } from '../../src/server/db/embedded';
import { setEnvironment } from '../environment';

const PORT = 3213;
const DATA_DIR = '.data/e2e-shutdown';
let launcher: ChildProcess | undefined;
let receiver: http.Server | undefined;
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  WEBHOOKS_ALLOW_HTTP_LOCALHOST: process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST,
  DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY,
};

test.afterAll(async () => {
  // The whole process group: a launcher killed alone would leave its app server holding the port.
  if (launcher?.exitCode === null) process.kill(-launcher.pid!, 'SIGKILL');
  receiver?.close();
  setEnvironment(saved);
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

test('SIGTERM finishes the request and the webhook delivery in flight, refuses new connections, then exits 0', async () => {
  test.setTimeout(480_000);
  // A receiver that holds each delivery until released.
  const arrived = deferred();
  const release = deferred();
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived.resolve();
      void release.promise.then(() => response.writeHead(204).end());
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR,
    PORT: String(PORT),
    SEED_DEMO: 'false',
    WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
    LOG_REQUESTS: 'false',
    NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
  };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_PORT;
  let output = '';
  launcher = spawn(process.execPath, ['dist/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => launcher!.once('exit', (code) => resolve(code)));
  await expect.poll(() => output, { timeout: 120_000 }).toContain('App ready at');

  // An account with an app, a key and a webhook endpoint, written on the launcher's (joined) cluster.
  // The launcher's data-encryption key, to seal the endpoint's secret as the launcher's worker will open it.
  setEnvironment({
    DATA_DIR,
    WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
    DATABASE_URL: undefined,
    DATA_ENCRYPTION_KEY: readFileSync(`${DATA_DIR}/data-encryption-key`, 'utf8').trim(),
  });
  const joined = await ensureDatabase();
  setEnvironment({ DATABASE_URL: joined.url });
  const { db, disconnectDb } = await import('../../src/server/db');
  const { createAccount } = await import('../../src/server/services/accounts/accounts');
  const { createApiKey } = await import('../../src/server/services/api-keys/api-keys');
  const { createWebhookEndpoint } = await import('../../src/server/services/webhooks/endpoints');
  const { recordEvents } = await import('../../src/server/services/events/events');
  const { accountId } = await createAccount({
    email: `shutdown-${Date.now()}@example.test`,
    password: 'shutdown-password-1',
    plan: 'agency',
  });
  const app = await db.trackedApp.create({
    data: {
      accountId,
      store: 'app_store',
      storeId: '1500000010',
      bundleId: 'com.example.shutdown',
      name: 'Shutdown',
      developer: 'Example',
      category: 'Utilities',
      primaryCountry: 'US',
    },
  });
  const { secret } = await createApiKey({ accountId }, { name: 'shutdown', scope: 'read-write' });
  const { endpoint } = await createWebhookEndpoint(accountId, { url: receiverUrl, eventTypes: ['webhook.test'] });

  // 1. A POST whose body is still arriving.
  const body = JSON.stringify({ terms: ['graceful shutdown'] });
  const post = http.request({
    host: '127.0.0.1',
    port: PORT,
    method: 'POST',
    path: `/api/public/v1/apps/${app.id}/keywords`,
    headers: {
      Authorization: `Bearer ${secret}`,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    post.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    post.on('error', reject);
  });
  post.write(body.slice(0, 10));

  // 2. A webhook delivery that its receiver is still answering.
  await recordEvents([{ accountId, type: 'webhook.test', data: { endpointId: randomUUID(), message: 'shutdown' } }]);
  await arrived.promise;
  await disconnectDb();
  setEnvironment({ DATABASE_URL: undefined });

  launcher.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  // No new connections once stopping.
  const refused = await fetch(`http://127.0.0.1:${PORT}/api/public/v1/openapi.json`).then(
    () => false,
    () => true,
  );
  expect(refused).toBe(true);

  post.end(body.slice(10));
  const response = await answered;
  expect(response.status, response.body).toBe(200);
  expect(JSON.parse(response.body).added.map((keyword: { term: string }) => keyword.term)).toEqual([
    'graceful shutdown',
  ]);
  // The launcher is still waiting for the delivery in progress.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(launcher.exitCode).toBeNull();
  release.resolve();
  expect(await exited).toBe(0);
  expect(output).toContain('stopping: finishing the requests and jobs in progress');

  // Recorded as delivered, in one attempt: the worker finished it before stopping, nothing is left to redo.
  const database = await ensureDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const [delivery] = (
    await client.query<{ status: string; attempts: number; logged: number }>(
      `SELECT d.status, d.attempts, (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged
     FROM webhook_deliveries d WHERE d.endpoint_id = $1`,
      [endpoint.id],
    )
  ).rows;
  const [keyword] = (
    await client.query<{ n: number }>('SELECT count(*)::int AS n FROM tracked_keywords WHERE app_id = $1', [app.id])
  ).rows;
  await client.end();
  await database.stop();
  expect(delivery).toEqual({ status: 'succeeded', attempts: 1, logged: 1 });
  expect(keyword!.n).toBe(1);
});
