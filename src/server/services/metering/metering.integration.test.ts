// Credits end to end through the REST pipeline, in-process with real Requests on the real database.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { callPublicApi } from '../../../../test/public-api';
import { setPlanByEmail } from '@/server/services/accounts/accounts';
import { issueSessionToken } from '@/server/auth/session-token';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import type { PlanTier } from '@/generated/prisma/enums';
import { makeAccount, makeApp } from '../../../../test/factories';
import { periodOf, usageLedger, usageReport } from './credits';

const NOW = new Date('2026-03-15T12:00:00.000Z');

async function setup(plan: PlanTier = 'solo', used = 0, now = NOW) {
  const owner = await makeAccount(plan);
  const app = await makeApp(owner.accountId);
  const { key, secret } = await createApiKey(owner, { name: 'metering', scope: 'read-write' });
  if (used)
    await db.creditUsage.create({ data: { accountId: owner.accountId, periodStart: periodOf(now).start, used } });
  const call = (path: string, init: RequestInit = {}, at: Date = now) =>
    callPublicApi(
      new Request(`http://api.test/api/public/v1${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${secret}`, ...(init.headers as Record<string, string>) },
      }),
      () => at,
    );
  const usage = async (at: Date = now) =>
    (
      await db.creditUsage.findUnique({
        where: { accountId_periodStart: { accountId: owner.accountId, periodStart: periodOf(at).start } },
      })
    )?.used ?? 0;
  const ledgerSum = async () =>
    (await db.creditLedger.aggregate({ where: { accountId: owner.accountId }, _sum: { cost: true } }))._sum.cost ?? 0;
  return { owner, app, key, secret, call, usage, ledgerSum };
}

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('charging', () => {
  it('charges each endpoint its declared cost, with the ledger row and the headers', async () => {
    const { app, call, usage, ledgerSum, key } = await setup('solo');
    const costs: [string, RequestInit | undefined, number][] = [
      ['/apps', undefined, 1],
      [`/apps/${app.id}`, undefined, 1],
      [`/apps/${app.id}/opportunities`, undefined, 2],
      [`/apps/${app.id}/keywords/research?term=sleep`, undefined, 8],
      [`/apps/${app.id}/keywords`, post({ terms: ['sleep'] }), 2],
      [`/apps/${app.id}/competitors`, post({ storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' }), 2],
      ['/usage', undefined, 0],
    ];
    let expected = 0;
    for (const [path, init, cost] of costs) {
      const response = await call(path, init);
      expect(response.status, path).toBe(200);
      expected += cost;
      expect(response.headers.get('x-credits-cost'), path).toBe(String(cost));
      expect(response.headers.get('x-credits-used'), path).toBe(String(expected));
      expect(response.headers.get('x-credits-remaining'), path).toBe(String(1500 - expected));
      expect(response.headers.get('x-credits-limit')).toBe('1500');
      expect(response.headers.get('x-credits-reset')).toBe('2026-04-01T00:00:00.000Z');
      expect(response.headers.get('ratelimit-policy')).toBe(`"monthly";q=1500;w=${31 * 86400}`);
      expect(response.headers.get('ratelimit')).toBe(`"monthly";r=${1500 - expected};t=${17 * 86400 - 12 * 3600}`);
    }
    expect(await usage()).toBe(expected);
    expect(await ledgerSum()).toBe(expected);
    const rows = await db.creditLedger.findMany({ where: { keyId: key.id }, orderBy: { id: 'asc' } });
    expect(rows.map((row) => [row.endpoint, row.cost])).toEqual([
      ['GET /apps', 1],
      ['GET /apps/{id}', 1],
      ['GET /apps/{id}/opportunities', 2],
      ['GET /apps/{id}/keywords/research', 8],
      ['POST /apps/{id}/keywords', 2],
      ['POST /apps/{id}/competitors', 2],
    ]);
  });

  it('charges nothing for any failure, and still sends the headers', async () => {
    const { app, call, usage, ledgerSum, secret } = await setup('solo', 10);
    const readOnly = await createApiKey(
      { accountId: (await db.trackedApp.findUniqueOrThrow({ where: { id: app.id } })).accountId },
      { name: 'ro', scope: 'read-only' },
    );
    const failures: [string, RequestInit, number][] = [
      [`/apps/not-a-uuid`, {}, 400],
      [`/apps/${randomUUID()}`, {}, 404],
      [`/apps/${randomUUID()}/keywords`, post({ terms: ['x'] }), 404],
      [`/apps/${app.id}/keywords`, post({ terms: [] }), 400],
      [`/apps/${app.id}/keywords`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }, 415],
      [
        `/apps/${app.id}/keywords`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${readOnly.secret}` },
          body: '{"terms":["x"]}',
        },
        403,
      ],
      [`/apps/${app.id}`, { method: 'DELETE' }, 405],
      ['/nothing', {}, 404],
    ];
    for (const [path, init, status] of failures) {
      const response = await call(path, init);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('x-credits-cost'), path).toBe('0');
      expect(response.headers.get('x-credits-used'), path).toBe('10');
    }
    const unauthorized = await callPublicApi(
      new Request('http://api.test/api/public/v1/apps', { headers: { Authorization: `Bearer ${secret}x` } }),
    );
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-credits-used')).toBeNull(); // the account is not known
    expect(await usage()).toBe(10);
    expect(await ledgerSum()).toBe(0);
    // The refunded write (a POST to an unknown app) left nothing in the rollup either.
    const accountId = (await db.trackedApp.findUniqueOrThrow({ where: { id: app.id } })).accountId;
    expect((await usageReport(accountId, 1500, NOW)).byEndpoint).toEqual([]);
  });

  it('reports by endpoint, key and day exactly what the ledger holds', async () => {
    const { app, call, owner } = await setup('pro');
    for (const path of [`/apps/${app.id}`, `/apps/${app.id}`, `/apps/${app.id}/opportunities`, '/apps'])
      await call(path);
    await call(`/apps/${app.id}`, {}, new Date(NOW.getTime() + 86_400_000));
    const report = await usageReport(owner.accountId, 5000, new Date(NOW.getTime() + 86_400_000));
    const ledger = await db.creditLedger.groupBy({
      by: ['endpoint'],
      where: { accountId: owner.accountId },
      _count: true,
      _sum: { cost: true },
    });
    expect(report.byEndpoint.map((row) => [row.endpoint, row.calls, row.credits]).sort()).toEqual(
      ledger.map((row) => [row.endpoint, row._count, row._sum.cost]).sort(),
    );
    expect(report.used).toBe(6);
    expect(report.byKey).toEqual([expect.objectContaining({ name: 'metering', calls: 5, credits: 6 })]);
    expect(report.daily.filter((day) => day.calls).map((day) => [day.date, day.calls, day.credits])).toEqual([
      ['2026-03-15', 4, 5],
      ['2026-03-16', 1, 1],
    ]);
    expect(report.daily[0]!.date).toBe('2026-03-01');

    // Calls made with a session token are reported under the member who made them, next to the key.
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    const viaSession = await callPublicApi(
      new Request(`http://api.test/api/public/v1/apps/${app.id}`, { headers: { Authorization: `Bearer ${token}` } }),
      () => NOW,
    );
    expect(viaSession.status).toBe(200);
    const withSession = await usageReport(owner.accountId, 5000, NOW);
    expect(withSession.byKey).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          keyId: null,
          kind: 'session',
          name: `Session of ${owner.email}`,
          member: { userId: owner.userId, email: owner.email },
          key: null,
          calls: 1,
          credits: 1,
        }),
      ]),
    );
  });
});

describe('the usage ledger', () => {
  it('holds the rows of a range of days across periods, this month by default, and refuses a range outside the last year', async () => {
    const { app, call, owner } = await setup('pro');
    const lastMonth = new Date('2026-02-20T09:00:00.000Z');
    await call(`/apps/${app.id}`, {}, lastMonth);
    await call(`/apps/${app.id}/opportunities`, {}, lastMonth);
    await call(`/apps/${app.id}`);

    const thisMonth = await usageLedger(owner.accountId, NOW);
    expect(thisMonth).toMatchObject({ from: '2026-03-01', to: '2026-03-15' });
    expect(thisMonth.rows).toEqual([
      {
        date: '2026-03-15',
        endpoint: 'GET /apps/{id}',
        keyId: expect.any(String),
        keyName: 'metering',
        key: expect.stringMatching(/^svc_live_/),
        calls: 1,
        credits: 1,
      },
    ]);
    // The same rows GET /usage sums for its period.
    expect(thisMonth.rows.reduce((sum, row) => sum + row.credits, 0)).toBe(
      (await usageReport(owner.accountId, 5000, NOW)).used,
    );

    const both = await usageLedger(owner.accountId, NOW, { from: '2026-02-01', to: '2026-03-15' });
    expect(both.rows.map((row) => [row.date, row.endpoint, row.credits])).toEqual([
      ['2026-02-20', 'GET /apps/{id}', 1],
      ['2026-02-20', 'GET /apps/{id}/opportunities', 2],
      ['2026-03-15', 'GET /apps/{id}', 1],
    ]);

    for (const range of [{ from: '2026-03-10', to: '2026-03-01' }, { from: '2025-03-01' }, { to: '2026-03-16' }]) {
      await expect(usageLedger(owner.accountId, NOW, range), JSON.stringify(range)).rejects.toMatchObject({
        appCode: 'VALIDATION_ERROR',
      });
    }
  });
});

describe('exhaustion', () => {
  it('refuses a call that costs more than remains, even when a cheaper one passes', async () => {
    const { app, call, usage } = await setup('solo', 1495);
    const refused = await call(`/apps/${app.id}/keywords/research?term=sleep`);
    expect(refused.status).toBe(402);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const body = await refused.json();
    expect(body).toMatchObject({
      status: 402,
      creditsRequired: 8,
      creditsRemaining: 5,
      resetsAt: '2026-04-01T00:00:00.000Z',
    });
    expect(body.type).toMatch(/\/docs\/problems\/credits-exhausted$/);
    expect(refused.headers.get('x-credits-cost')).toBe('0');
    expect((await call(`/apps/${app.id}/opportunities`)).status).toBe(200);
    expect(await usage()).toBe(1497);
    expect((await call(`/apps/${app.id}/opportunities`)).status).toBe(200); // 1499
    expect((await call(`/apps/${app.id}/opportunities`)).status).toBe(402); // 2 > 1 remaining
    expect((await call(`/apps/${app.id}`)).status).toBe(200); // the last credit
    expect((await call(`/apps/${app.id}`)).status).toBe(402);
    expect((await call('/usage')).status).toBe(200); // free
    expect(await usage()).toBe(1500);
  });

  it('charges exactly the remaining credits under 300 concurrent requests', async () => {
    const { app, call, usage, ledgerSum } = await setup('solo', 1400);
    const responses = await Promise.all(Array.from({ length: 300 }, () => call(`/apps/${app.id}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 402)).toHaveLength(200);
    expect(await usage()).toBe(1500);
    expect(await ledgerSum()).toBe(100);
  });

  it('resets at the month boundary without any job', async () => {
    const endOfMonth = new Date('2026-03-31T23:59:59.000Z');
    const { app, call, usage } = await setup('solo', 1500, endOfMonth);
    expect((await call(`/apps/${app.id}`, {}, endOfMonth)).status).toBe(402);
    const nextMonth = new Date('2026-04-01T00:00:00.000Z');
    const response = await call(`/apps/${app.id}`, {}, nextMonth);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-credits-used')).toBe('1');
    expect(response.headers.get('x-credits-reset')).toBe('2026-05-01T00:00:00.000Z');
    expect(await usage(endOfMonth)).toBe(1500);
    expect(await usage(nextMonth)).toBe(1);
  });
});

describe('plans', () => {
  it('applies a plan change at once', async () => {
    const { app, call, owner } = await setup('solo', 1500);
    expect((await call(`/apps/${app.id}`)).status).toBe(402);
    await setPlanByEmail(owner.email, 'pro');
    const upgraded = await call(`/apps/${app.id}`);
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get('x-credits-limit')).toBe('5000');
    await setPlanByEmail(owner.email, 'free');
    const downgraded = await call(`/apps/${app.id}`);
    expect(downgraded.status).toBe(403);
    expect((await downgraded.json()).type).toMatch(/plan-required$/);
  });

  it('is unlimited on Enterprise, and still counted', async () => {
    const { app, call, usage } = await setup('enterprise', 1_000_000);
    const response = await call(`/apps/${app.id}/keywords/research?term=sleep`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-credits-limit')).toBe('unlimited');
    expect(response.headers.get('x-credits-remaining')).toBe('unlimited');
    expect(response.headers.get('x-credits-used')).toBe('1000008');
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(await usage()).toBe(1_000_008);
  });
});

describe('usage thresholds', () => {
  it('records usage.threshold_reached once at 80 % and once at 100 %', async () => {
    const { app, call, owner } = await setup('solo', 1195);
    for (let i = 0; i < 10; i++) await call(`/apps/${app.id}`); // 1195 → 1205 crosses 1200 (80 %)
    await db.creditUsage.update({
      where: { accountId_periodStart: { accountId: owner.accountId, periodStart: periodOf(NOW).start } },
      data: { used: 1497 },
    });
    for (let i = 0; i < 5; i++) await call(`/apps/${app.id}`); // 1497 → 1500, then refused
    const events = await db.domainEvent.findMany({
      where: { accountId: owner.accountId, type: 'usage.threshold_reached' },
    });
    // Every call runs at the test's fixed NOW, so the two events have the same time and no defined order.
    expect(events.map((event) => (event.data as { percent: number }).percent).sort((a, b) => a - b)).toEqual([80, 100]);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, charged once', async () => {
    const { app, call, ledgerSum } = await setup('solo');
    const request = () =>
      call(`/apps/${app.id}/keywords`, post({ terms: ['focus', 'calm'] }, { 'Idempotency-Key': 'order-123' }));
    const first = await request();
    const second = await request();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-credits-cost')).toBe('0');
    expect(await ledgerSum()).toBe(2);

    const conflict = await call(
      `/apps/${app.id}/keywords`,
      post({ terms: ['other'] }, { 'Idempotency-Key': 'order-123' }),
    );
    expect(conflict.status).toBe(422);
    expect((await conflict.json()).type).toMatch(/idempotency-conflict$/);

    // After 24 hours the key is forgotten: the request runs (and is charged) again.
    const later = await call(
      `/apps/${app.id}/keywords`,
      post({ terms: ['focus', 'calm'] }, { 'Idempotency-Key': 'order-123' }),
      new Date(NOW.getTime() + 24 * 3600_000 + 1000),
    );
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await ledgerSum()).toBe(4);
  });

  // Issue 18 §8: the key was bound to the body's bytes, so a client re-serialising the same JSON got 422.
  it('treats the same JSON with other white space or member order as the same request', async () => {
    const { app, call, ledgerSum } = await setup('solo');
    const send = (body: string) =>
      call(`/apps/${app.id}/keywords`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'reformatted' },
        body,
      });
    const first = await send('{"terms":["focus","calm"],"country":"us"}');
    expect(first.status).toBe(200);
    for (const same of [
      '{ "terms" : [ "focus", "calm" ],\n  "country": "us" }\n',
      '{"country":"us","terms":["focus","calm"]}',
    ]) {
      const again = await send(same);
      expect(again.status, same).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    // Another value is another request.
    expect((await send('{"terms":["calm","focus"],"country":"us"}')).status).toBe(422);
    expect(await ledgerSum()).toBe(2);
  });

  it('does not keep a failed request: a retry runs again', async () => {
    const { app, call } = await setup('solo');
    const bad = await call(`/apps/${app.id}/keywords`, post({ terms: [] }, { 'Idempotency-Key': 'retry-me' }));
    expect(bad.status).toBe(400);
    const retried = await call(`/apps/${app.id}/keywords`, post({ terms: [] }, { 'Idempotency-Key': 'retry-me' }));
    expect(retried.status).toBe(400);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('request-rate limit', () => {
  it('answers 429 with Retry-After past the plan’s requests per minute, free of charge', async () => {
    const { call, usage } = await setup('solo');
    const responses = await Promise.all(Array.from({ length: 601 }, () => call('/usage')));
    const statuses = responses.map((response) => response.status);
    const counted = JSON.stringify(
      Object.fromEntries(
        [...new Set(statuses)].map((status) => [status, statuses.filter((each) => each === status).length]),
      ),
    );
    const limited = responses.filter((response) => response.status === 429);
    const served = statuses.filter((status) => status === 200).length;
    // Never more than the limit served. On a machine this busy a call may instead meet 503 (the database's pool
    // waited for too long) before it is counted, and then one fewer is over the limit; every other call is counted.
    const unavailable = statuses.filter((status) => status === 503).length;
    expect(served, `statuses: ${counted}`).toBeLessThanOrEqual(600);
    expect(served + limited.length + unavailable, `statuses: ${counted}`).toBe(601);
    if (unavailable === 0) expect(limited, `statuses: ${counted}`).toHaveLength(1);
    for (const response of limited) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('x-credits-cost')).toBe('0');
    }
    expect(await usage()).toBe(0);
  });
});
