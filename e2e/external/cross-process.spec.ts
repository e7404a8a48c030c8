// What holds across processes, on Debian's PostgreSQL 15 server behind PgBouncer in transaction mode, with Redis for
// the request rates (project `pgbouncer`; `E2E_RATE_LOOP` adds the rate test on other set-ups): two web processes and
// one worker on one DATABASE_URL (./deployment.ts). A key made on one process works on the other and its revocation holds
// there from its next request; credits are exact under load spread over both, MCP tool calls included, and an
// idempotent write made on one is replayed by the other; the request rate is shared, and when its store stops
// answering the two together still let no more than the limit through; each webhook event is delivered once, a worker
// killed in the middle of a delivery included; an export whose worker is killed mid-file is written again by the next
// worker, exactly one whole file a dataset; no process serves a cached answer that another one has made stale; and
// PostgreSQL killed under load means 503s meanwhile, never a 500 or a dropped connection, and 200s again once it is
// back, without restarting the app.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { test as base, expect } from '@playwright/test';
import pg from 'pg';
import {
  adminOn,
  API,
  bearer,
  burstsOfFreeCalls,
  createKey,
  newAccount,
  PlainClient,
  refusingWindow,
  startWebhookReceiver,
  trpc,
  trpcQuery,
} from '../helpers';
import { parquetRowCount } from '../../test/duckdb';
import { startDeployment, type Deployment, type Pooler } from './deployment';

const test = base.extend<
  { web: [PlainClient, PlainClient] },
  { pooler: Pooler; redis: boolean; deployment: Deployment }
>({
  pooler: ['none', { option: true, scope: 'worker' }],
  redis: [false, { option: true, scope: 'worker' }],
  deployment: [
    async ({ pooler, redis }, use) => {
      const deployment = await startDeployment({ pooler, redis });
      await use(deployment);
      await deployment.stop();
    },
    { scope: 'worker', timeout: 480_000 },
  ],
  // The two web processes, called by the hundred: Node's fetch (PlainClient), not Playwright's request context.
  web: async ({ deployment }, use) => {
    await use([new PlainClient(deployment.web[0]), new PlainClient(deployment.web[1])]);
  },
});

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ deployment }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    writeFileSync(testInfo.outputPath('processes.log'), deployment.output());
    console.error(`the deployment's output: ${testInfo.outputPath('processes.log')}`);
  }
});

test('the two web processes started together applied each migration once', async ({ deployment }) => {
  const client = new pg.Client({ connectionString: deployment.directUrl });
  await client.connect();
  const { rows } = await client.query<{ migration_name: string; finished: boolean }>(
    'SELECT migration_name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" ORDER BY migration_name',
  );
  await client.end();
  const expected = readdirSync('prisma/migrations', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  expect(rows.map((row) => row.migration_name)).toEqual(expected);
  expect(rows.every((row) => row.finished)).toBe(true);
});

test('a key made on one web process works on the other at once, and its revocation holds there from its next request', async ({
  deployment,
  web,
}) => {
  const { session } = await newAccount('pro', deployment);
  const key = await createKey(session, 'read-only', 'cross-process key');
  for (const context of web) expect((await context.get(`${API}/usage`, { headers: bearer(key) })).status()).toBe(200);
  // Revoked through the second process's REST API, refused by both on their next request.
  const { id } = (await trpcQuery<{ id: string; name: string }[]>(session, 'apiKeys.list')).find(
    (each) => each.name === 'cross-process key',
  )!;
  expect((await web[1].post(`${API}/keys/${id}/revoke`, { headers: bearer(session.token) })).status()).toBe(200);
  for (const context of web) expect((await context.get(`${API}/usage`, { headers: bearer(key) })).status()).toBe(401);
});

test('credits are exact under 300 concurrent requests spread over both web processes', async ({ deployment, web }) => {
  const { session, email } = await newAccount('solo', deployment);
  const appId = await adminOn(
    deployment,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const key = await createKey(session, 'read-write', 'cross-process credits');
  // 1,400 of the Solo plan's 1,500 credits spent (8 a research call), over both processes.
  for (let batch = 0; batch < 7; batch++) {
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        web[index % 2]!.get(`${API}/apps/${appId}/keywords/research?term=focus`, { headers: bearer(key) }),
      ),
    );
    expect(responses.map((response) => response.status())).toEqual(Array(25).fill(200));
  }
  // One charged call on each process first, then the race for the rest (which process wins it is the machine's doing).
  const first = [];
  for (const context of web) first.push((await context.get(`${API}/apps/${appId}`, { headers: bearer(key) })).status());
  expect(first).toEqual([200, 200]);
  const responses = await Promise.all(
    Array.from({ length: 298 }, (_, index) => web[index % 2]!.get(`${API}/apps/${appId}`, { headers: bearer(key) })),
  );
  const statuses = [...first, ...responses.map((response) => response.status())];
  expect(statuses.filter((status) => status === 200)).toHaveLength(100);
  expect(statuses.filter((status) => status === 402)).toHaveLength(200);
  const usage = await (await web[1].get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ limit: 1500, used: 1500, remaining: 0 });
  expect(usage.byEndpoint).toEqual(
    expect.arrayContaining([
      { endpoint: 'GET /apps/{id}/keywords/research', calls: 175, credits: 1400 },
      { endpoint: 'GET /apps/{id}', calls: 100, credits: 100 },
    ]),
  );
});

test('a key’s requests per minute hold across both web processes', async ({ deployment, web }) => {
  const { session } = await newAccount('solo', deployment);
  const key = await createKey(session, 'read-only', 'cross-process rate');
  const answers = await burstsOfFreeCalls(web, key);
  expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // The limit across both, in the window that refused: never more, and short of it by at most each process's unspent
  // lease (10 % of it at most).
  const window = refusingWindow(answers);
  expect(window.surelyCounted).toBeLessThanOrEqual(600);
  expect(window.atMostCounted).toBeGreaterThanOrEqual(600 - 2 * 60);
});

test('the worker delivers each webhook event once, whichever web process caused it', async ({ deployment, web }) => {
  const receiver = await startWebhookReceiver();
  const events = () => receiver.received.map((delivery) => JSON.parse(delivery.body) as { id: string; type: string });
  try {
    const { session, email } = await newAccount('pro', deployment);
    const appId = await adminOn(
      deployment,
      'app',
      'add',
      '--email',
      email,
      '--url',
      'https://apps.apple.com/us/app/focus-timer/id1500000001',
    );
    const key = await createKey(session, 'read-write', 'cross-process webhooks');
    const { endpoint } = await trpc<{ endpoint: { id: string } }>(session, 'webhooks.create', {
      url: receiver.url('/hooks'),
      eventTypes: ['keyword.added', 'webhook.test'],
    });
    // Ten events caused on each web process, at once.
    const terms = Array.from({ length: 20 }, (_, index) => `cross process term ${index}`);
    const added = await Promise.all(
      terms.map((term, index) =>
        web[index % 2]!.post(`${API}/apps/${appId}/keywords`, { headers: bearer(key), data: { terms: [term] } }),
      ),
    );
    expect(added.map((response) => response.status())).toEqual(Array(20).fill(200));
    await trpc(session, 'webhooks.sendTest', { endpointId: endpoint.id });

    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(21);
    // Long enough for a second worker's attempt, a retry or a re-queued job to arrive, if one were made.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const received = events();
    expect(received.filter((event) => event.type === 'keyword.added')).toHaveLength(20);
    expect(received.filter((event) => event.type === 'webhook.test')).toHaveLength(1);
    expect(new Set(received.map((event) => event.id)).size).toBe(received.length);
  } finally {
    await receiver.close();
  }
});

test('MCP tool calls on both web processes: a key’s budget exact under 100 concurrent calls, an idempotent write replayed by the other process', async ({
  deployment,
  web,
}) => {
  const { session, email } = await newAccount('pro', deployment);
  const appId = await adminOn(
    deployment,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const { secret } = await trpc<{ secret: string }>(session, 'apiKeys.create', {
    name: 'cross-process mcp',
    scope: 'read-write',
    restrictions: { monthlyBudget: 60 },
  });
  const clients = await Promise.all(
    deployment.web.map(async (origin) => {
      const client = new Client({ name: 'e2e cross-process', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), { requestInit: { headers: bearer(secret) } }),
      );
      return client;
    }),
  );
  const write = {
    name: 'keywords_add',
    arguments: { id: appId, terms: ['deep work'], idempotencyKey: 'cross-process-mcp' },
  };
  const added = await clients[0]!.callTool(write);
  expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
  const replayed = await clients[1]!.callTool(write);
  expect(replayed.structuredContent).toEqual(added.structuredContent);
  expect(replayed._meta).toMatchObject({ idempotentReplayed: true });

  const spent = ((await (await web[0].get(`${API}/usage`, { headers: bearer(secret) })).json()) as { used: number })
    .used;
  // One charged call on each process first, then the race for the rest (which process wins it is the machine's doing).
  const first = [];
  for (const client of clients) first.push(await client.callTool({ name: 'apps_get', arguments: { id: appId } }));
  expect(first.map((result) => result.isError ?? false)).toEqual([false, false]);
  const results = [
    ...first,
    ...(await Promise.all(
      Array.from({ length: 98 }, (_, index) =>
        clients[index % 2]!.callTool({ name: 'apps_get', arguments: { id: appId } }),
      ),
    )),
  ];
  const served = results.filter((result) => !result.isError);
  expect(served).toHaveLength(60 - spent);
  const refusals = results
    .filter((result) => result.isError)
    .map((result) => JSON.parse((result.content as { text: string }[])[0]!.text).code);
  expect(refusals).toEqual(Array(100 - served.length).fill('key-budget-exhausted'));
  const usage = await (await web[1].get(`${API}/usage`, { headers: bearer(secret) })).json();
  expect(usage.byEndpoint).toContainEqual({ endpoint: 'mcp apps_get', calls: 60 - spent, credits: 60 - spent });
  await Promise.all(clients.map((client) => client.close()));
});

test('no web process serves a cached answer the other one made stale', async ({ deployment, web }) => {
  const { session, email } = await newAccount('pro', deployment);
  const appId = await adminOn(
    deployment,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const key = await createKey(session, 'read-write', 'cross-process cache');
  const trackedTerms = async (context: PlainClient) => {
    const response = await context.get(`${API}/apps/${appId}/keywords`, { headers: bearer(key) });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { term: string }[]).map((keyword) => keyword.term);
  };
  for (let round = 0; round < 6; round++) {
    const [reader, writer] = round % 2 ? [web[1], web[0]] : [web[0], web[1]];
    // Read twice on one process (the second answer may come from its cache), change on the other, read again.
    await trackedTerms(reader);
    const before = await trackedTerms(reader);
    const term = `cache round ${round}`;
    expect(before).not.toContain(term);
    const added = await writer.post(`${API}/apps/${appId}/keywords`, { headers: bearer(key), data: { terms: [term] } });
    expect(added.status()).toBe(200);
    expect(await trackedTerms(reader)).toContain(term);
  }
});

test('the rate limit’s store stops answering: each web process lets through its share, together never more than the limit', async ({
  deployment,
  web,
}) => {
  test.skip(!deployment.redis, 'the request rates count in PostgreSQL here, which the app cannot do without');
  const { session } = await newAccount('solo', deployment);
  const key = await createKey(session, 'read-only', 'store unreachable');
  deployment.pauseRedis();
  try {
    const answers = await burstsOfFreeCalls(web, key);
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // Each of the two live processes (the register's last count) counts alone against half the limit, in a window of
    // its own (docs/api-decisions.md, "Rate limits across processes"): together the limit, and never the 2 × 600 that
    // counting alone against the whole limit allowed.
    const sides = [0, 1].map((side) => refusingWindow(answers.filter((answer) => answer.context === side)));
    for (const side of sides) expect(side.surelyCounted).toBeLessThanOrEqual(300);
    expect(sides[0]!.atMostCounted + sides[1]!.atMostCounted).toBeGreaterThanOrEqual(600 - 2 * 60);
  } finally {
    deployment.resumeRedis();
  }
});

test('PostgreSQL killed under load: 503 meanwhile on both web processes, never a 500 or a dropped connection, 200 again once it is back', async ({
  deployment,
  web,
}) => {
  const { session, email } = await newAccount('agency', deployment);
  const appId = await adminOn(
    deployment,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const key = await createKey(session, 'read-only', 'database killed');
  const outcomes: {
    side: number;
    status: number;
    problem: boolean;
    cost: string | undefined;
    phase: 'up' | 'down' | 'back';
  }[] = [];
  const dropped: string[] = [];
  let phase: 'up' | 'down' | 'back' = 'up';
  let running = true;
  const load = async (side: number) => {
    while (running) {
      try {
        const response = await web[side]!.get(`${API}/apps/${appId}`, { headers: bearer(key) });
        const headers = response.headers();
        outcomes.push({
          side,
          status: response.status(),
          problem: (headers['content-type'] ?? '').startsWith('application/problem+json'),
          cost: headers['x-credits-cost'],
          phase,
        });
        await response.dispose();
      } catch (error) {
        dropped.push(String(error));
      }
    }
  };
  const loops = [0, 1, 0, 1].map(load);
  const count = (wanted: typeof phase, status: number, side?: number) =>
    outcomes.filter(
      (each) => each.phase === wanted && each.status === status && (side === undefined || each.side === side),
    ).length;
  try {
    await expect.poll(() => count('up', 200), { timeout: 60_000 }).toBeGreaterThan(50);
    phase = 'down';
    await deployment.killDatabase();
    for (const side of [0, 1])
      await expect.poll(() => count('down', 503, side), { timeout: 60_000 }).toBeGreaterThan(5);
    await deployment.startDatabase();
    phase = 'back';
    // Back by itself, on both processes, within 30 s of the database.
    for (const side of [0, 1]) await expect.poll(() => count('back', 200, side)).toBeGreaterThan(20);
  } finally {
    running = false;
    await Promise.all(loops);
  }
  expect(dropped).toEqual([]);
  expect([...new Set(outcomes.map((outcome) => outcome.status))].sort()).toEqual([200, 503]);
  for (const outcome of outcomes.filter((each) => each.status === 503)) {
    expect(outcome.problem).toBe(true);
    expect(outcome.cost ?? '0').toBe('0');
  }
  // Each success charged once.
  const successes = outcomes.filter((outcome) => outcome.status === 200).length;
  const usage = await (await web[0].get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage.byEndpoint).toEqual([{ endpoint: 'GET /apps/{id}', calls: successes, credits: successes }]);
});

test('the worker killed in the middle of a delivery: a new worker delivers it, no event is lost and none is acknowledged twice', async ({
  deployment,
  web,
}) => {
  test.setTimeout(480_000);
  // The first delivery the receiver gets is held without an answer while the worker that sent it is killed.
  let holding = true;
  const receiver = await startWebhookReceiver({ hold: () => holding && !(holding = false) });
  const ids = (requests: { body: string }[]) =>
    requests.map((request) => (JSON.parse(request.body) as { id: string }).id);
  try {
    const { session, email } = await newAccount('pro', deployment);
    const appId = await adminOn(
      deployment,
      'app',
      'add',
      '--email',
      email,
      '--url',
      'https://apps.apple.com/us/app/focus-timer/id1500000001',
    );
    const key = await createKey(session, 'read-write', 'worker killed');
    await trpc(session, 'webhooks.create', { url: receiver.url('/hooks'), eventTypes: ['keyword.added'] });
    const terms = Array.from({ length: 6 }, (_, index) => `worker killed term ${index}`);
    const added = await Promise.all(
      terms.map((term, index) =>
        web[index % 2]!.post(`${API}/apps/${appId}/keywords`, { headers: bearer(key), data: { terms: [term] } }),
      ),
    );
    expect(added.map((response) => response.status())).toEqual(Array(6).fill(200));

    const statuses = async () => {
      const client = new pg.Client({ connectionString: deployment.directUrl });
      await client.connect();
      const { rows } = await client.query<{ status: string }>(
        `SELECT d.status::text FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.url = $1 ORDER BY d.status`,
        [receiver.url('/hooks')],
      );
      await client.end();
      return rows.map((row) => row.status);
    };
    // Killed while the held delivery alone is in flight: the five others answered and recorded.
    // Bounds for a machine three times slower than usual, where 60 s once passed before the worker sent it.
    await expect.poll(() => receiver.held.length, { timeout: 180_000 }).toBe(1);
    await expect.poll(statuses, { timeout: 180_000 }).toEqual(['pending', ...Array(5).fill('succeeded')]);
    await deployment.killWorker();
    deployment.startWorker();
    // The held delivery is attempted again once its attempt's job expires (a dead worker's jobs, docs/api-decisions.md).
    const [heldId] = ids(receiver.held);
    await expect.poll(() => ids(receiver.received), { timeout: 180_000 }).toContain(heldId);
    // Long enough for another attempt to arrive, if one were made.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(ids(receiver.received)).toHaveLength(6);
    expect(new Set(ids(receiver.received)).size).toBe(6);
    expect(await statuses()).toEqual(Array(6).fill('succeeded'));
  } finally {
    await receiver.close();
  }
});

test('the worker killed in the middle of an export’s file: the next worker writes the export again, exactly one whole file a dataset', async ({
  deployment,
  web,
}) => {
  test.setTimeout(480_000);
  const { session, email } = await newAccount('pro', deployment);
  const appId = await adminOn(
    deployment,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const key = await createKey(session, 'read-write', 'export worker killed');
  const terms = Array.from({ length: 5 }, (_, index) => `export killed term ${index}`);
  expect((await web[0].post(`${API}/apps/${appId}/keywords`, { headers: bearer(key), data: { terms } })).status()).toBe(
    200,
  );
  const database = new pg.Client({ connectionString: deployment.directUrl });
  await database.connect();
  const folder = mkdtempSync(path.join(tmpdir(), 'export-killed-'));
  try {
    // While this transaction holds the lock, a worker that writes a file's bytes waits, its file begun and unfinished:
    // it is killed there.
    await database.query('BEGIN');
    await database.query('LOCK TABLE export_file_chunks IN SHARE ROW EXCLUSIVE MODE');
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const asked = await web[0].post(`${API}/exports`, {
      headers: bearer(key),
      data: { datasets: ['keyword_ranks', 'ratings'], from, to, format: 'parquet' },
    });
    expect(asked.status()).toBe(202);
    const { id } = (await asked.json()) as { id: string };
    const waitingWorkers = async () =>
      (
        await database.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = 'export_file_chunks'::regclass AND NOT granted`,
        )
      ).rows[0]!.waiting;
    await expect.poll(waitingWorkers, { timeout: 180_000 }).toBeGreaterThan(0);
    const midway = await database.query<{ state: string; attempts: number; files: number; whole: number }>(
      `SELECT e.state, e.attempts, count(f.id)::int AS files, count(f.completed_at)::int AS whole
       FROM exports e LEFT JOIN export_files f ON f.export_id = e.id WHERE e.id = $1 GROUP BY e.id`,
      [id],
    );
    expect(midway.rows[0]).toEqual({ state: 'running', attempts: 1, files: 1, whole: 0 });
    await deployment.killWorker();
    await database.query('COMMIT');
    deployment.startWorker();

    let view: { state: string; progress: { rowsDone: number; rowsEstimated: number }; files: never[] } | undefined;
    await expect
      .poll(
        async () => (view = await (await web[1].get(`${API}/exports/${id}`, { headers: bearer(key) })).json()).state,
        { timeout: 180_000 },
      )
      .toBe('completed');
    const files = view!.files as {
      id: string;
      dataset: string;
      rows: number;
      bytes: number;
      sha256: string;
      url: string;
    }[];
    expect(files.map((file) => file.dataset)).toEqual(['keyword_ranks', 'ratings']);
    expect(files.reduce((sum, file) => sum + file.rows, 0)).toBe(view!.progress.rowsEstimated);
    const stored = await database.query<{ files: number; whole: number; attempts: number }>(
      `SELECT count(f.id)::int AS files, count(f.completed_at)::int AS whole, e.attempts
       FROM exports e JOIN export_files f ON f.export_id = e.id WHERE e.id = $1 GROUP BY e.id`,
      [id],
    );
    expect(stored.rows[0]).toEqual({ files: 2, whole: 2, attempts: 2 });
    for (const file of files) {
      const body = Buffer.from(await (await fetch(file.url)).arrayBuffer());
      expect(body.byteLength).toBe(file.bytes);
      expect(createHash('sha256').update(body).digest('hex')).toBe(file.sha256);
      const onDisk = path.join(folder, `${file.dataset}.parquet`);
      writeFileSync(onDisk, body);
      expect(await parquetRowCount(onDisk)).toBe(file.rows);
    }
    // One export.completed, by the run that completed.
    const events = await database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM domain_events WHERE type = 'export.completed' AND data->>'exportId' = $1`,
      [id],
    );
    expect(events.rows[0]!.count).toBe(1);
  } finally {
    await database.query('ROLLBACK').catch(() => {});
    await database.end();
    rmSync(folder, { recursive: true, force: true });
  }
});
