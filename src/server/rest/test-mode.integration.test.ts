// Test mode over REST and MCP (CONTRACT "Test mode"): a test key reaches its account's sandbox only, made on first
// use with sample apps whose history the demo provider generates; its calls spend the sandbox's own allowance, never
// the live one, and say they are in test mode; a live id with a test key and a test id with a live key are 404; and
// X-Test-Trigger gives each error a client must handle, as the live error is answered. On a database of its own: it
// runs the backfill job, which takes any account's backfill.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { issueSessionToken } from '@/server/auth/session-token';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { resetSandbox, sandboxOf, SANDBOX_SAMPLE_APPS } from '@/server/services/accounts/sandboxes';
import { runNextBackfill, SANDBOX_BACKFILL_DAYS } from '@/server/services/ingest/backfill-worker';
import { refreshApp } from '@/server/services/ingest/refresh';
import { MCP_PATH } from '@/server/mcp/mcp-endpoint';
import { attemptDelivery, dispatchEvents } from '@/server/services/webhooks/delivery';
import { createWebhookEndpoint, redeliver, sendTestEvent } from '@/server/services/webhooks/endpoints';
import { makeAccount, makeApp } from '../../../test/factories';
import { serveBothChannels } from '../../../test/channels';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';

let server: Server;
let origin: string;
/** A Free account: no live API access, test mode all the same. */
let free: Awaited<ReturnType<typeof makeAccount>>;
let pro: Awaited<ReturnType<typeof makeAccount>>;
let testKey: string;
let liveKey: string;
let liveAppId: string;

beforeAll(async () => {
  ({ server, origin } = await serveBothChannels('http://test-mode.test'));
  [free, pro] = await Promise.all([makeAccount('free'), makeAccount('pro')]);
  liveAppId = (await makeApp(pro.accountId)).id;
  liveKey = (await createApiKey(pro, { name: 'live', scope: 'read-write' })).secret;
  testKey = (
    await createApiKey(
      { accountId: await sandboxOf(free.accountId), userId: free.userId },
      { name: 'test', scope: 'read-write' },
    )
  ).secret;
  // The sample apps' history, as the background work loads it: a year of three apps, the longest wait of this file on
  // a machine busy with the rest of the suite (a bound, as every wait here).
  while (await runNextBackfill());
}, 300_000);

afterAll(() => new Promise((resolve) => server.close(resolve)));

function call(
  secret: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Response> {
  return fetch(`${origin}${PUBLIC_API_BASE_PATH}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${secret}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function liveCreditsUsed(accountId: string): Promise<number> {
  return (await db.creditUsage.aggregate({ where: { accountId }, _sum: { used: true } }))._sum.used ?? 0;
}

describe('the sandbox', () => {
  it('is made once, on first use, whatever the number of concurrent first uses, with the sample apps of both stores', async () => {
    const owner = await makeAccount('solo');
    const ids = await Promise.all(Array.from({ length: 8 }, () => sandboxOf(owner.accountId)));
    expect(new Set(ids).size).toBe(1);
    const sandbox = await db.account.findUniqueOrThrow({ where: { id: ids[0]! }, include: { apps: true } });
    expect(sandbox).toMatchObject({ plan: 'test', liveAccountId: owner.accountId });
    expect(sandbox.apps.map((app) => app.store).sort()).toEqual(SANDBOX_SAMPLE_APPS.map((app) => app.store).sort());
    expect(new Set(sandbox.apps.map((app) => app.store))).toEqual(new Set(['app_store', 'google_play']));
    await expect(sandboxOf(sandbox.id)).rejects.toThrow(/does not exist/);
  });

  it('has a year of generated history, its keyword metrics apart from the stores’ own', async () => {
    const sandboxId = await sandboxOf(free.accountId);
    const app = await db.trackedApp.findFirstOrThrow({
      where: { accountId: sandboxId, store: 'app_store', bundleId: 'com.calmlabs.breathe' },
      include: { backfill: true },
    });
    expect(app.backfill).toMatchObject({ daysTotal: SANDBOX_BACKFILL_DAYS, daysDone: SANDBOX_BACKFILL_DAYS });
    expect(
      await db.appRank.count({
        where: { storeAppId: app.storeAppId, country: app.primaryCountry, termKey: 'meditation' },
      }),
    ).toBe(SANDBOX_BACKFILL_DAYS);
    expect(await db.keywordMetric.count({ where: { livemode: false, termKey: 'meditation' } })).toBeGreaterThanOrEqual(
      SANDBOX_BACKFILL_DAYS,
    );
    expect(await db.keywordMetric.count({ where: { livemode: true, termKey: 'meditation' } })).toBe(0);
  });

  it('produces events of its own with its daily refresh, as live apps do: the sandbox’s, never the live account’s', async () => {
    const sandboxId = await sandboxOf(free.accountId);
    const apps = await db.trackedApp.findMany({ where: { accountId: sandboxId } });
    const ofTheData = { accountId: sandboxId, NOT: { type: { startsWith: 'api_key.' } } };
    // The backfill loaded the history quietly.
    expect(await db.domainEvent.count({ where: ofTheData })).toBe(0);
    // The next days' refreshes, as the schedule runs them.
    for (let ahead = 1; ahead <= 7; ahead++) {
      for (const app of apps) await refreshApp(app.id, { through: new Date(Date.now() + ahead * 86_400_000) });
    }
    const events = await db.domainEvent.findMany({ where: ofTheData, select: { type: true } });
    expect(events.length).toBeGreaterThan(0);
    expect(await db.domainEvent.count({ where: { accountId: free.accountId } })).toBe(0);
  });

  it('is put back as it was by a reset: apps added since are gone, the sample apps are back, the keys stay', async () => {
    const owner = await makeAccount('pro');
    const sandboxId = await sandboxOf(owner.accountId);
    const key = (
      await createApiKey({ accountId: sandboxId, userId: owner.userId }, { name: 'reset', scope: 'read-write' })
    ).secret;
    const added = await call(key, '/apps', {
      method: 'POST',
      body: { storeUrl: 'https://apps.apple.com/us/app/pocket-breathing/id1487654321' },
    });
    expect(added.status).toBe(200);
    const created = (await added.json()) as { id: string; created: boolean };
    expect(created.created).toBe(true);
    const before = (await (await call(key, '/apps')).json()) as { id: string }[];
    expect(before).toHaveLength(SANDBOX_SAMPLE_APPS.length + 1);
    await resetSandbox(owner.accountId);
    const after = (await (await call(key, '/apps')).json()) as { id: string; name: string }[];
    expect(after).toHaveLength(SANDBOX_SAMPLE_APPS.length);
    expect(after.map((app) => app.id)).not.toContain(created.id);
    expect((await call(key, `/apps/${created.id}`)).status).toBe(404);
  });

  it('resets while its sample apps’ history loads, whenever the reset lands: no deadlock, the backfill ends quietly', async () => {
    for (const delayMs of [0, 100, 400]) {
      const owner = await makeAccount('free');
      const sandboxId = await sandboxOf(owner.accountId);
      // Earlier tests' sandboxes are queued too, and older: held back, so that the job takes this sandbox's first app.
      await db.appBackfill.updateMany({
        where: { app: { accountId: { not: sandboxId } }, finishedAt: null },
        data: { claimedAt: new Date() },
      });
      // The backfill job on a sample app, as the background work runs it, while the owner clicks "Reset test data".
      const loading = runNextBackfill();
      // From the moment the job holds this sandbox's app (on a busy machine the reset's first statements could
      // otherwise reach the database before the job's claim, leaving it nothing to take).
      while (
        !(await db.appBackfill.count({
          where: { app: { accountId: sandboxId }, OR: [{ claimedAt: { not: null } }, { finishedAt: { not: null } }] },
        }))
      )
        await new Promise((resolve) => setTimeout(resolve, 2));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await expect(resetSandbox(owner.accountId)).resolves.toMatchObject({
        sandboxId,
        apps: SANDBOX_SAMPLE_APPS.length,
      });
      await expect(loading).resolves.toBe(true);
      const apps = await db.trackedApp.findMany({
        where: { accountId: sandboxId },
        select: { backfill: { select: { finishedAt: true } } },
      });
      expect(apps.map((app) => app.backfill?.finishedAt)).toEqual(Array(SANDBOX_SAMPLE_APPS.length).fill(null));
      // Their history is not this test's to load (the next round's job would take these first).
      await db.appBackfill.updateMany({ where: { app: { accountId: sandboxId } }, data: { finishedAt: new Date() } });
    }
  }, 180_000);
});

describe('a test key', () => {
  it('starts svc_test_, works on a Free account, and reads the sandbox: its calls say so and spend the test allowance', async () => {
    expect(testKey).toMatch(/^svc_test_/);
    const response = await call(testKey, '/apps');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-test-mode')).toBe('true');
    expect(response.headers.get('x-credits-limit')).toBe('25000');
    expect(((await response.json()) as unknown[]).length).toBe(SANDBOX_SAMPLE_APPS.length);
    const usage = (await (await call(testKey, '/usage')).json()) as Record<string, unknown>;
    expect(usage).toMatchObject({ plan: 'test', livemode: false, limit: 25_000, requestsPerMinute: 1_200 });
    expect(usage.used).toBeGreaterThan(0);
    expect(await liveCreditsUsed(free.accountId)).toBe(0);
  });

  it('is refused the live data, and a live key the sandbox’s: 404 as another account’s, nothing charged', async () => {
    const sandboxApp = await db.trackedApp.findFirstOrThrow({ where: { accountId: await sandboxOf(free.accountId) } });
    const liveBefore = await liveCreditsUsed(pro.accountId);
    const testBefore = (await (await call(testKey, '/usage')).json()) as { used: number };
    for (const path of [`/apps/${liveAppId}`, `/apps/${liveAppId}/keywords`, `/apps/${liveAppId}/reviews`]) {
      expect((await call(testKey, path)).status, path).toBe(404);
    }
    for (const path of [
      `/apps/${sandboxApp.id}`,
      `/apps/${sandboxApp.id}/keywords`,
      `/apps/${sandboxApp.id}/reviews`,
    ]) {
      const response = await call(liveKey, path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('x-test-mode')).toBeNull();
    }
    expect(await liveCreditsUsed(pro.accountId)).toBe(liveBefore);
    expect(((await (await call(testKey, '/usage')).json()) as { used: number }).used).toBe(testBefore.used);
  });

  it('made on a live account is a live key, and a key of another mode’s prefix is not found', async () => {
    expect(liveKey).toMatch(/^svc_live_/);
    const forged = testKey.replace('svc_test_', 'svc_live_');
    expect((await call(forged, '/apps')).status).toBe(401);
  });
});

describe('a session token with X-Test-Mode: true', () => {
  it('acts on the sandbox: it makes test keys, reads the sandbox’s apps and usage, and spends nothing live', async () => {
    const session = await issueSessionToken({ id: free.userId, email: free.email, accountId: free.accountId });
    const test = { 'X-Test-Mode': 'true' };
    const created = await call(session, '/keys', {
      method: 'POST',
      headers: test,
      body: { name: 'made over REST in test mode', scope: 'read-only' },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-test-mode')).toBe('true');
    const { secret } = (await created.json()) as { secret: string };
    expect(secret).toMatch(/^svc_test_/);
    expect((await call(secret, '/apps')).status).toBe(200);
    const listed = (await (await call(session, '/keys', { headers: test })).json()) as { name: string }[];
    expect(listed.map((key) => key.name)).toContain('made over REST in test mode');
    expect(((await (await call(session, '/apps', { headers: test })).json()) as unknown[]).length).toBe(
      SANDBOX_SAMPLE_APPS.length,
    );
    expect(await (await call(session, '/usage', { headers: test })).json()).toMatchObject({
      plan: 'test',
      livemode: false,
    });
    // Without the header the same session is live: a Free account has no API access there.
    expect((await call(session, '/apps')).status).toBe(403);
    expect(await liveCreditsUsed(free.accountId)).toBe(0);
  });

  it('is refused with a live key, and any value but true with any credential: 400, nothing charged', async () => {
    const before = await liveCreditsUsed(pro.accountId);
    for (const [secret, value] of [
      [liveKey, 'true'],
      [liveKey, 'false'],
      [testKey, 'yes'],
    ] as const) {
      const response = await call(secret, '/apps', { headers: { 'X-Test-Mode': value } });
      expect(response.status, `${value}`).toBe(400);
      expect(await response.json()).toMatchObject({ errors: [{ in: 'header', name: 'X-Test-Mode' }] });
    }
    expect((await call(testKey, '/apps', { headers: { 'X-Test-Mode': 'true' } })).status).toBe(200);
    expect(await liveCreditsUsed(pro.accountId)).toBe(before);
  });
});

describe('X-Test-Trigger', () => {
  let appPath: string;
  beforeAll(async () => {
    appPath = `/apps/${(await db.trackedApp.findFirstOrThrow({ where: { accountId: await sandboxOf(free.accountId) } })).id}`;
  });
  const triggered = (trigger: string) => call(testKey, appPath, { headers: { 'X-Test-Trigger': trigger } });

  it.each([
    ['credits-exhausted', 402, 'credits-exhausted'],
    ['key-budget-exhausted', 402, 'key-budget-exhausted'],
    ['rate-limited', 429, 'rate-limited'],
    ['store-unavailable', 503, 'store-unavailable'],
    ['validation-error', 400, 'validation-error'],
    ['not-found', 404, 'not-found'],
  ])('%s answers %i %s as the live error does, and charges nothing', async (trigger, status, slug) => {
    const before = ((await (await call(testKey, '/usage')).json()) as { used: number }).used;
    const response = await triggered(trigger);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-test-mode')).toBe('true');
    expect(response.headers.get('x-credits-cost')).toBe('0');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem.type).toMatch(new RegExp(`/problems/${slug}$`));
    if (status === 429 || status === 503) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    if (slug === 'credits-exhausted') {
      expect(problem).toMatchObject({ creditsRemaining: 0 });
      expect(response.headers.get('x-credits-remaining')).toBe('0');
    }
    if (slug === 'key-budget-exhausted') expect(problem).toHaveProperty('keyBudget');
    expect(((await (await call(testKey, '/usage')).json()) as { used: number }).used).toBe(before);
  });

  it('slow holds the answer, then answers as usual', async () => {
    const started = performance.now();
    const response = await triggered('slow=300');
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('refuses an unknown trigger, and any trigger of a live key, with 400 and nothing charged', async () => {
    const unknown = await triggered('teapot');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ errors: [{ in: 'header', name: 'X-Test-Trigger' }] });
    const before = await liveCreditsUsed(pro.accountId);
    const live = await call(liveKey, `/apps/${liveAppId}`, { headers: { 'X-Test-Trigger': 'not-found' } });
    expect(live.status).toBe(400);
    expect(((await live.json()) as { detail: string }).detail).toMatch(/test key/);
    expect(await liveCreditsUsed(pro.accountId)).toBe(before);
  });
});

describe('a sandbox’s simulated store account', () => {
  it('answers its reviews over REST: a draft approved by a session in test mode is sent at once, or refused as its trigger chose', async () => {
    const sandboxId = await sandboxOf(free.accountId);
    const app = await db.trackedApp.findFirstOrThrow({ where: { accountId: sandboxId, store: 'google_play' } });
    const listed = await call(testKey, `/apps/${app.id}/reviews?source=store_account`);
    expect(listed.status).toBe(200);
    const reviews = (await listed.json()) as {
      total: number;
      items: { id: string; source: string; response: unknown }[];
    };
    expect(reviews.total).toBe(6);
    expect(reviews.items.every((item) => item.source === 'store_account' && 'response' in item)).toBe(true);
    const session = await issueSessionToken({ id: free.userId, email: free.email, accountId: free.accountId });
    const approve = (draftId: string) =>
      call(session, `/apps/${app.id}/reply-drafts/${draftId}/approve`, {
        method: 'POST',
        headers: { 'X-Test-Mode': 'true' },
      });
    const draft = (reviewId: string, trigger?: string) =>
      call(testKey, `/apps/${app.id}/reviews/${reviewId}/reply-drafts`, {
        method: 'POST',
        headers: trigger ? { 'X-Test-Trigger': trigger } : {},
        body: { body: 'Thanks for the review!' },
      });
    const sent = (await (await draft(reviews.items[0]!.id)).json()) as { id: string; state: string };
    expect(sent.state).toBe('drafted');
    // A key drafts; it never approves.
    expect((await call(testKey, `/apps/${app.id}/reply-drafts/${sent.id}/approve`, { method: 'POST' })).status).toBe(
      403,
    );
    expect(await (await approve(sent.id)).json()).toMatchObject({ state: 'sent', sentAt: expect.any(String) });
    const revoked = (await (await draft(reviews.items[1]!.id, 'credential-revoked')).json()) as { id: string };
    expect(await (await approve(revoked.id)).json()).toMatchObject({
      state: 'failed',
      problem: expect.stringContaining('revoked (test mode)'),
    });
    const tooLong = await call(testKey, `/apps/${app.id}/reviews/${reviews.items[2]!.id}/reply-drafts`, {
      method: 'POST',
      body: { body: 'x'.repeat(351) },
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ errors: [{ in: 'body', pointer: '#/body' }] });
    expect(await liveCreditsUsed(free.accountId)).toBe(0);
  });
});

describe('on the MCP server', () => {
  async function connect(secret: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'test-mode test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}${MCP_PATH}`), {
        requestInit: { headers: { Authorization: `Bearer ${secret}`, ...headers } },
      }),
    );
    return client;
  }

  it('a test key calls the tools on its sandbox, in test mode, and can ask for an error', async () => {
    const result = await (await connect(testKey)).callTool({ name: 'apps_list', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result._meta).toMatchObject({ livemode: false, credits: { limit: 25_000 } });
    const refused = await (await connect(testKey, { 'X-Test-Trigger': 'rate-limited' })).callTool({
      name: 'apps_list',
      arguments: {},
    });
    expect(refused.isError).toBe(true);
    expect(refused._meta).toMatchObject({ problem: { status: 429, retryAfter: 1 }, credits: { charged: 0 } });
  });

  it('a live key is in live mode, and its trigger is refused', async () => {
    const client = await connect(liveKey, { 'X-Test-Trigger': 'not-found' });
    const result = await client.callTool({ name: 'apps_get', arguments: { id: liveAppId } });
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ livemode: true, problem: { status: 400 } });
  });
});

describe('test webhooks', () => {
  const received: { path: string; body: Record<string, unknown> }[] = [];
  let receiver: Server;
  let base: string;
  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
    receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ path: request.url!, body: JSON.parse(body) as Record<string, unknown> });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('a sandbox’s events go to its test endpoints only, with livemode false, and are redelivered as live ones; live endpoints get the live ones only', async () => {
    const owner = await makeAccount('pro');
    const sandboxId = await sandboxOf(owner.accountId);
    const live = (await createWebhookEndpoint(owner.accountId, { url: `${base}/live` })).endpoint;
    const test = (await createWebhookEndpoint(sandboxId, { url: `${base}/test` })).endpoint;
    // A key's creation records an event in its own mode.
    await createApiKey(
      { accountId: sandboxId, userId: owner.userId },
      { name: 'made in test mode', scope: 'read-only' },
    );
    await createApiKey(owner, { name: 'made in live mode', scope: 'read-only' });
    await dispatchEvents();
    const deliveries = await db.webhookDelivery.findMany({ where: { endpointId: { in: [live.id, test.id] } } });
    for (const delivery of deliveries)
      expect(await attemptDelivery(delivery.id, 1)).toMatchObject({ status: 'succeeded' });
    await sendTestEvent({ accountId: sandboxId, mode: 'test' }, test.id);
    const requested = await db.webhookDelivery.findFirstOrThrow({
      where: { endpointId: test.id, eventType: 'webhook.test' },
    });
    expect(await attemptDelivery(requested.id, 1)).toMatchObject({ status: 'succeeded' });
    // Redelivery is the same in test mode: the sandbox asks for it, the live account cannot.
    const made = deliveries.find((delivery) => delivery.endpointId === test.id)!;
    await expect(redeliver(owner.accountId, made.id)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await redeliver(sandboxId, made.id);
    expect(await attemptDelivery(made.id, 2)).toMatchObject({ status: 'succeeded' });

    const at = (path: string) => received.filter((request) => request.path === path).map((request) => request.body);
    expect(at('/live').map((body) => [body.type, (body.data as { name?: string }).name, body.livemode])).toEqual([
      ['api_key.created', 'made in live mode', true],
    ]);
    expect(at('/test').map((body) => [body.type, body.livemode])).toEqual([
      ['api_key.created', false],
      ['webhook.test', false],
      ['api_key.created', false],
    ]);
  });
});
