// Deliveries to a real HTTP receiver on loopback (the development setting allows http://127.0.0.1).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { API_VERSIONS, LATEST_VERSION, ORIGINAL_VERSION, type ApiVersion } from '@/server/domain/api-versions';
import * as webhookStatements from '@/server/db/webhook-statements';
import { recordEvents } from '@/server/services/events/events';
import { backendPid, untilBlockedBy } from '../../../../test/concurrent-change';
import { makeAccount } from '../../../../test/factories';
import { attemptDelivery, DISABLE_AFTER_MS, dispatchEvents, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from './delivery';
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret } from './endpoints';
import { verifySignature } from './signing';
import { ATTEMPT_QUEUE, queueOverdueDeliveries, startWebhookWorker } from './worker';
import PgBoss from 'pg-boss';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const received: Received[] = [];
/** Status to answer per path, consumed in order; 200 when exhausted. */
const script = new Map<string, number[]>();

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url!, headers: request.headers, body });
      const status = script.get(request.url!)?.shift() ?? 200;
      if (status === 302) response.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere' }).end();
      else response.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.WEBHOOK_SLACK_HOSTS = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.WEBHOOK_DISCORD_HOSTS = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
  delete process.env.WEBHOOK_SLACK_HOSTS;
  delete process.env.WEBHOOK_DISCORD_HOSTS;
  await new Promise((resolve) => server.close(resolve));
});

async function endpointAndEvent(path: string, eventTypes: string[] = [], apiVersion?: ApiVersion) {
  const owner = await makeAccount();
  const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, {
    url: `${base}${path}`,
    eventTypes: eventTypes as never,
    apiVersion,
  });
  await recordEvents([
    {
      accountId: owner.accountId,
      type: 'keyword.added',
      data: { appId: randomUUID(), keywordId: randomUUID(), term: 'sleep & <rest>', country: 'US' },
    },
  ]);
  const { deliveryIds: deliveries } = await dispatchEvents();
  const mine = await db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
  return { owner, endpoint, secret, deliveries, delivery: mine[0] };
}

describe('webhook delivery', () => {
  // Issue 65: each endpoint's events are shaped by the version it pinned, and each delivery says which.
  for (const version of API_VERSIONS)
    it(`shapes and names the events of an endpoint pinned to ${version}`, async () => {
      const path = `/pinned-${version}`;
      const { endpoint, delivery } = await endpointAndEvent(path, [], version);
      expect(endpoint.apiVersion).toBe(version);
      await attemptDelivery(delivery!.id, 1);
      const request = received.filter((entry) => entry.path === path).at(-1)!;
      expect(request.headers['aso-version']).toBe(version);
      expect(JSON.parse(request.body)).toMatchObject({ apiVersion: version, type: 'keyword.added' });
    });

  it('pins a new endpoint to its account’s version, else the newest', async () => {
    const owner = await makeAccount();
    const { endpoint: unpinned } = await createWebhookEndpoint(owner.accountId, { url: `${base}/account-version` });
    expect(unpinned.apiVersion).toBe(LATEST_VERSION);
    await db.account.update({ where: { id: owner.accountId }, data: { apiVersion: ORIGINAL_VERSION } });
    const { endpoint: older } = await createWebhookEndpoint(owner.accountId, { url: `${base}/account-version` });
    expect(older.apiVersion).toBe(ORIGINAL_VERSION);
  });

  it('delivers the signed envelope with the contract headers', async () => {
    const { endpoint, secret, delivery } = await endpointAndEvent('/signed');
    expect(delivery).toBeDefined();
    expect(await attemptDelivery(delivery!.id, 1)).toEqual({ status: 'succeeded', attempt: 1 });
    const request = received.filter((entry) => entry.path === '/signed').at(-1)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-event']).toBe('keyword.added');
    expect(request.headers['x-service-delivery']).toBe(delivery!.id);
    const envelope = JSON.parse(request.body);
    expect(envelope).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'keyword.added',
      data: { term: 'sleep & <rest>', country: 'US' },
    });
    expect(verifySignature(String(request.headers['x-service-signature']), request.body, secret)).toMatchObject({
      ok: true,
    });
    expect(verifySignature(String(request.headers['x-service-signature']), request.body + ' ', secret)).toMatchObject({
      ok: false,
    });
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id } });
    expect(attempts).toEqual([expect.objectContaining({ statusCode: 200, responseExcerpt: 'ok', error: null })]);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).toBeNull();
  });

  it('retries a failing receiver on the schedule with the same delivery id until it succeeds', async () => {
    script.set('/flaky', [500, 503]);
    const { delivery } = await endpointAndEvent('/flaky');
    const first = await attemptDelivery(delivery!.id, 1, { random: () => 0.5 });
    expect(first).toEqual({ status: 'retry', attempt: 1, delaySeconds: RETRY_DELAYS_SECONDS[0] });
    expect(await attemptDelivery(delivery!.id, 1)).toEqual({ status: 'skipped' }); // a duplicate job
    expect(await attemptDelivery(delivery!.id, 2, { random: () => 0.5 })).toEqual({
      status: 'retry',
      attempt: 2,
      delaySeconds: 300,
    });
    expect(await attemptDelivery(delivery!.id, 3)).toEqual({ status: 'succeeded', attempt: 3 });
    const requests = received.filter((entry) => entry.path === '/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['x-service-delivery']))).toEqual(new Set([delivery!.id]));
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, orderBy: { id: 'asc' } });
    expect(attempts.map((attempt) => [attempt.statusCode, attempt.responseExcerpt])).toEqual([
      [500, 'receiver says no'],
      [503, 'receiver says no'],
      [200, 'ok'],
    ]);
  });

  it('does not follow redirects and gives up after the last attempt', async () => {
    script.set(
      '/moved',
      Array.from({ length: MAX_ATTEMPTS }, () => 302),
    );
    const { delivery } = await endpointAndEvent('/moved');
    let outcome;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) outcome = await attemptDelivery(delivery!.id, attempt);
    expect(outcome).toMatchObject({ status: 'failed', reason: `No success after ${MAX_ATTEMPTS} attempts.` });
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id } });
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts[0]!.error).toBe('redirect (302) not followed');
    expect(received.some((entry) => entry.path === '/elsewhere')).toBe(false);
  });

  it('disables an endpoint that has failed for 5 days, with the reason', async () => {
    script.set('/down', [500, 500]);
    const { delivery, endpoint } = await endpointAndEvent('/down');
    const start = new Date('2026-06-01T00:00:00.000Z');
    await attemptDelivery(delivery!.id, 1, { now: () => start });
    const outcome = await attemptDelivery(delivery!.id, 2, { now: () => new Date(start.getTime() + DISABLE_AFTER_MS) });
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringMatching(/5 days/) });
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/5 days/),
    });
  });

  it('signs with both secrets during a rotation', async () => {
    const { delivery, owner, endpoint, secret } = await endpointAndEvent('/rotated');
    const { secret: next } = await rotateWebhookSecret(owner.accountId, endpoint.id);
    await attemptDelivery(delivery!.id, 1);
    const request = received.filter((entry) => entry.path === '/rotated').at(-1)!;
    const header = String(request.headers['x-service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(header, request.body, secret)).toMatchObject({ ok: true });
    expect(verifySignature(header, request.body, next)).toMatchObject({ ok: true });
  });

  it('sends Slack destinations a formatted message instead of the envelope', async () => {
    const { delivery } = await endpointAndEvent('/services/T000/B000/XXXX');
    await attemptDelivery(delivery!.id, 1);
    const request = received.filter((entry) => entry.path === '/services/T000/B000/XXXX').at(-1)!;
    expect(request.headers['x-service-signature']).toBeUndefined();
    const message = JSON.parse(request.body);
    expect(message.text).toBe('Now tracking “sleep &amp; &lt;rest&gt;” (US).');
    expect(message.blocks).toHaveLength(2);
  });

  it('sends Discord destinations content and an embed instead of the envelope', async () => {
    const { delivery } = await endpointAndEvent('/api/webhooks/123/abc');
    await attemptDelivery(delivery!.id, 1);
    const request = received.filter((entry) => entry.path === '/api/webhooks/123/abc').at(-1)!;
    expect(request.headers['x-service-signature']).toBeUndefined();
    const message = JSON.parse(request.body);
    expect(message.content).toBe('Now tracking “sleep & <rest>” (US).');
    expect(message.embeds[0]).toMatchObject({ title: 'keyword.added', description: message.content });
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('fans an event out only to the account’s subscribed, enabled endpoints', async () => {
    const owner = await makeAccount();
    const other = await makeAccount();
    const all = await createWebhookEndpoint(owner.accountId, { url: `${base}/all` });
    const reviewsOnly = await createWebhookEndpoint(owner.accountId, {
      url: `${base}/reviews`,
      eventTypes: ['review.created'],
    });
    const disabled = await createWebhookEndpoint(owner.accountId, { url: `${base}/off` });
    await db.webhookEndpoint.update({ where: { id: disabled.endpoint.id }, data: { enabled: false } });
    const foreign = await createWebhookEndpoint(other.accountId, { url: `${base}/foreign` });
    await recordEvents([
      {
        accountId: owner.accountId,
        type: 'keyword.added',
        data: { appId: randomUUID(), keywordId: randomUUID(), term: 'retry', country: 'US' },
      },
    ]);
    await dispatchEvents();
    const count = (endpointId: string) => db.webhookDelivery.count({ where: { endpointId } });
    expect(await count(all.endpoint.id)).toBe(1);
    expect(await count(reviewsOnly.endpoint.id)).toBe(0);
    expect(await count(disabled.endpoint.id)).toBe(0);
    expect(await count(foreign.endpoint.id)).toBe(0);
    expect((await dispatchEvents()).deliveryIds).toEqual([]); // dispatched once
  });

  it('fans out while an endpoint of the account is deleted: the deletion waits, then takes its delivery with it', async () => {
    const owner = await makeAccount();
    const { endpoint: kept } = await createWebhookEndpoint(owner.accountId, { url: `${base}/kept-during-deletion` });
    const { endpoint: deleted } = await createWebhookEndpoint(owner.accountId, {
      url: `${base}/deleted-during-fan-out`,
    });
    await recordEvents([
      {
        accountId: owner.accountId,
        type: 'keyword.added',
        data: { appId: randomUUID(), keywordId: randomUUID(), term: 'sleep', country: 'US' },
      },
    ]);
    const readEndpoints = webhookStatements.lockFanOutEndpoints;
    let deletion: Promise<void> | undefined;
    vi.spyOn(webhookStatements, 'lockFanOutEndpoints').mockImplementationOnce(async (tx, accountIds) => {
      const endpoints = await readEndpoints(tx, accountIds);
      // The owner deletes an endpoint after the fan-out read it, before its deliveries are written: the deletion
      // either waits for the fan-out or commits first (and the deliveries' foreign key then fails the fan-out).
      let settled = false;
      deletion = deleteWebhookEndpoint(owner.accountId, deleted.id).finally(() => (settled = true));
      await untilBlockedBy(await backendPid(tx), () => settled);
      return endpoints;
    });
    await dispatchEvents();
    await deletion;
    expect(await db.webhookDelivery.count({ where: { endpointId: kept.id } })).toBe(1);
    expect(await db.webhookEndpoint.count({ where: { id: deleted.id } })).toBe(0);
    expect(await db.webhookDelivery.count({ where: { endpointId: deleted.id } })).toBe(0);
  });

  it('skips recording an attempt whose endpoint was deleted while it was being sent', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    const slow = http.createServer((request, response) => {
      request.resume();
      arrived();
      answer = () => response.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const owner = await makeAccount();
      const { endpoint } = await createWebhookEndpoint(owner.accountId, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`,
      });
      await recordEvents([
        {
          accountId: owner.accountId,
          type: 'keyword.added',
          data: { appId: randomUUID(), keywordId: randomUUID(), term: 'sleep', country: 'US' },
        },
      ]);
      await dispatchEvents();
      const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
      const attempt = attemptDelivery(delivery.id, 1);
      await requestArrived;
      await deleteWebhookEndpoint(owner.accountId, endpoint.id);
      answer();
      await expect(attempt).resolves.toEqual({ status: 'skipped' });
      expect(await db.webhookAttempt.count({ where: { deliveryId: delivery.id } })).toBe(0);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('refuses destinations that are not public HTTPS when they are saved', async () => {
    delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
    const owner = await makeAccount();
    try {
      await expect(createWebhookEndpoint(owner.accountId, { url: `${base}/x` })).rejects.toMatchObject({
        appCode: 'VALIDATION_ERROR',
        message: 'Webhook endpoints must use HTTPS.',
      });
      await expect(createWebhookEndpoint(owner.accountId, { url: 'https://127.0.0.1/x' })).rejects.toMatchObject({
        message: expect.stringMatching(/loopback/),
      });
      await expect(createWebhookEndpoint(owner.accountId, { url: 'https://10.0.0.8/x' })).rejects.toMatchObject({
        message: expect.stringMatching(/private/),
      });
      await expect(
        createWebhookEndpoint(owner.accountId, { url: 'https://169.254.169.254/latest' }),
      ).rejects.toMatchObject({ message: expect.stringMatching(/link-local/) });
    } finally {
      process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
    }
  });
});

describe('the delivery worker (pg-boss)', () => {
  it('delivers new events, retries after the scheduled delay, and re-queues an overdue delivery', async () => {
    process.env.JOB_POLL_SECONDS = '0.5';
    const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: 'pgboss' });
    await boss.start();
    const stop = await startWebhookWorker(boss, { intervalMs: 200 });
    try {
      script.set('/worker', [500]);
      const owner = await makeAccount();
      const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, { url: `${base}/worker` });
      await recordEvents([
        { accountId: owner.accountId, type: 'webhook.test', data: { endpointId: randomUUID(), message: 'test' } },
      ]);
      // First attempt fails (500); the second comes about 5 s later with the same delivery id and body.
      await expect
        .poll(() => received.filter((entry) => entry.path === '/worker').length, { timeout: 60_000, interval: 200 })
        .toBe(2);
      const [first, second] = received.filter((entry) => entry.path === '/worker');
      expect(second!.headers['x-service-delivery']).toBe(first!.headers['x-service-delivery']);
      expect(second!.body).toBe(first!.body);
      expect(verifySignature(String(second!.headers['x-service-signature']), second!.body, secret)).toMatchObject({
        ok: true,
      });
      await expect
        .poll(async () => (await db.webhookDelivery.findFirst({ where: { endpointId: endpoint.id } }))?.status, {
          timeout: 60_000,
        })
        .toBe('succeeded');

      // A delivery whose next attempt was never queued (its process died) is found and delivered.
      await recordEvents([
        {
          accountId: owner.accountId,
          type: 'review.created',
          data: { appId: randomUUID(), reviewId: randomUUID(), rating: 5, country: 'US' },
        },
      ]);
      await expect
        .poll(() => received.filter((entry) => entry.path === '/worker').length, { timeout: 60_000, interval: 200 })
        .toBe(3);
      // The receiver answers before the worker records the attempt: faking the row before then would be overwritten.
      const sent = () =>
        db.webhookDelivery.findFirst({ where: { endpointId: endpoint.id, eventType: 'review.created' } });
      await expect.poll(async () => (await sent())?.status, { timeout: 60_000 }).toBe('succeeded');
      // Make it look like its second attempt was due ten minutes ago and never queued.
      const orphan = (await sent())!;
      await db.webhookDelivery.update({
        where: { id: orphan.id },
        data: { status: 'pending', attempts: 1, nextAttemptAt: new Date(Date.now() - 10 * 60_000), completedAt: null },
      });
      expect(await queueOverdueDeliveries(boss)).toBeGreaterThanOrEqual(1);
      await expect
        .poll(() => received.filter((entry) => entry.path === '/worker').length, { timeout: 60_000, interval: 200 })
        .toBe(4);
      await expect
        .poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: orphan.id } })).attempts, {
          timeout: 60_000,
        })
        .toBe(2);
      expect(ATTEMPT_QUEUE).toBe('webhook-attempt');
    } finally {
      stop();
      await boss.stop({ graceful: true, timeout: 5_000 });
      delete process.env.JOB_POLL_SECONDS;
    }
  }, 180_000);
});
