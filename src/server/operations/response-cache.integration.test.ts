// The response cache through the REST pipeline, in-process on the real database: a replay is metered like a computed
// answer, and every kind of write (API, refresh job, any SQL) is seen by the next request, because the database's
// own triggers move the versions the cache keys answers by.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issueSessionToken } from '@/server/auth/session-token';
import { db, hotQuery } from '@/server/db';
import { dataVersionColumns, type DataVersionColumns } from '@/server/db/data-versions';
import { addDays } from '@/server/core/dates';
import { flushRequestLog } from '@/server/core/log';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { refreshApp } from '@/server/services/ingest/refresh';
import { periodOf, refundCharge } from '@/server/services/metering/credits';
import { FIXED_DAY, makeAsoApp } from '../../../test/aso-fixture';
import { makeAccount, makeApp } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';
import { resetResearchCache } from '@/server/services/aso/research';
import { resetResponseCache } from './response-cache';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  resetResponseCache();
  resetResearchCache();
});

/** Calls the pipeline and reads its log line: status, body and whether the cache answered. */
function client(secret: string) {
  return async (path: string, init: RequestInit = {}) => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    let response: Response;
    try {
      response = await callPublicApi(
        new Request(`http://api.test/api/public/v1${path}`, {
          ...init,
          headers: {
            Authorization: `Bearer ${secret}`,
            'Content-Type': 'application/json',
            ...(init.headers as Record<string, string>),
          },
        }),
      );
      // The request log's line waits for the end of the event loop's turn (core/log.ts).
      flushRequestLog();
    } finally {
      write.mockRestore();
    }
    const log = JSON.parse(
      lines
        .join('')
        .split('\n')
        .find((line) => line.includes('"msg":"request"'))!,
    ) as { cache?: string; credits?: number };
    return { status: response.status, headers: response.headers, body: await response.text(), cache: log.cache };
  };
}

async function setup(terms?: string[]) {
  const fixture = await makeAsoApp({ storeId: String(800_000_000 + Math.floor(Math.random() * 1e8)), terms });
  const { secret } = await createApiKey(fixture.owner, { name: 'cache', scope: 'read-write' });
  return { ...fixture, call: client(secret) };
}

const versionsOf = async (appId: string) => {
  // The versions the response cache keys an answer by, as the credential's statement reads them.
  const [row] = await hotQuery<DataVersionColumns>(
    `SELECT ${dataVersionColumns({ app: '$1', usage: 'u' })}
     FROM tracked_apps owned JOIN accounts a ON a.id = owned.account_id LEFT JOIN credit_usage u ON false WHERE owned.id = $1::uuid`,
    [appId],
  );
  return { app: row!.app_version!, account: row!.account_version, store: row!.store_version! };
};

describe('replaying an answer', () => {
  it('answers the same bytes again, metered each time like a computed answer', async () => {
    const { app, owner, call } = await setup();
    const first = await call(`/apps/${app.id}/keywords`);
    const second = await call(`/apps/${app.id}/keywords`);
    expect([first.status, first.cache]).toEqual([200, 'miss']);
    expect([second.status, second.cache]).toEqual([200, 'hit']);
    expect(second.body).toBe(first.body);
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(second.headers.get('x-credits-cost')).toBe('1');
    expect(Number(second.headers.get('x-credits-used'))).toBe(Number(first.headers.get('x-credits-used')) + 1);
    const ledger = await db.creditLedger.findMany({
      where: { accountId: owner.accountId },
      select: { endpoint: true, cost: true },
    });
    expect(ledger).toEqual([
      { endpoint: 'GET /apps/{id}/keywords', cost: 1 },
      { endpoint: 'GET /apps/{id}/keywords', cost: 1 },
    ]);
  });

  it('keys answers by the whole URL, not by the route', async () => {
    const { app, call } = await setup();
    expect((await call(`/apps/${app.id}/keywords?rankWindow=30d`)).cache).toBe('miss');
    expect((await call(`/apps/${app.id}/keywords?rankWindow=7d`)).cache).toBe('miss');
    const again = await call(`/apps/${app.id}/keywords?rankWindow=30d`);
    expect(again.cache).toBe('hit');
    expect(again.body).not.toBe((await call(`/apps/${app.id}/keywords?rankWindow=1d`)).body);
  });

  it('refuses the URL of a cached answer once the credits are spent, free of charge, without consulting the cache', async () => {
    const { app, owner, call } = await setup();
    expect((await call(`/apps/${app.id}/opportunities`)).status).toBe(200);
    // Pro allows 12,000 credits a month: leave 1, and opportunities cost 2.
    await db.creditUsage.update({
      where: { accountId_periodStart: { accountId: owner.accountId, periodStart: periodOf(new Date()).start } },
      data: { used: 11_999 },
    });
    const refused = await call(`/apps/${app.id}/opportunities`);
    expect([refused.status, refused.cache]).toEqual([402, undefined]);
    expect(refused.headers.get('x-credits-cost')).toBe('0');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
  });

  it('never caches a failure, another account’s app or an unknown app', async () => {
    const { app, call } = await setup();
    const stranger = await makeAccount('pro');
    const strangerCall = client((await createApiKey(stranger, { name: 'stranger', scope: 'read-only' })).secret);
    for (let i = 0; i < 2; i++) {
      expect(await strangerCall(`/apps/${app.id}/keywords`)).toMatchObject({ status: 404, cache: undefined });
      // Refused by validation, before the cache is consulted.
      expect(await call(`/apps/${app.id}/keywords?rankWindow=2d`)).toMatchObject({ status: 400, cache: undefined });
      expect(await call(`/apps/${randomUUID()}/keywords`)).toMatchObject({ status: 404, cache: undefined });
    }
  });

  it('serves session tokens too, keyed by the account', async () => {
    const { app, owner, call } = await setup();
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    const viaKey = await call(`/apps/${app.id}/aso-score`);
    const viaSession = await client(token)(`/apps/${app.id}/aso-score`);
    expect(viaSession).toMatchObject({ status: 200, cache: 'hit', body: viaKey.body });
  });

  it('is off with RESPONSE_CACHE_MB=0', async () => {
    vi.stubEnv('RESPONSE_CACHE_MB', '0');
    resetResponseCache();
    const { app, call } = await setup();
    expect((await call(`/apps/${app.id}`)).cache).toBeUndefined();
    expect((await call(`/apps/${app.id}`)).cache).toBeUndefined();
  });
});

describe('usage', () => {
  it('is replayed until a charge or a refund, of any key or session, or a change of plan', async () => {
    const { app, owner, call } = await setup();
    const usage = async () => {
      const answer = await call('/usage');
      return {
        cache: answer.cache,
        status: answer.status,
        report: JSON.parse(answer.body) as {
          used: number;
          limit: number;
          byEndpoint: { endpoint: string; calls: number }[];
        },
      };
    };
    await call(`/apps/${app.id}`);
    const first = await usage();
    expect(first).toMatchObject({ status: 200, cache: 'miss', report: { used: 1 } });
    // GET /usage is free: it changes nothing.
    expect(await usage()).toEqual({ ...first, cache: 'hit' });

    await client((await createApiKey(owner, { name: 'other', scope: 'read-only' })).secret)(
      `/apps/${app.id}/aso-score`,
    );
    const charged = await usage();
    expect(charged).toMatchObject({ cache: 'miss', report: { used: 2 } });
    expect(charged.report.byEndpoint.map((entry) => entry.endpoint).sort()).toEqual([
      'GET /apps/{id}',
      'GET /apps/{id}/aso-score',
    ]);

    // A refund of one call and a charge of another leave the usage where it was, but not the report.
    const [refunded] = await db.creditLedger.findMany({
      where: { accountId: owner.accountId, endpoint: 'GET /apps/{id}' },
      select: { requestId: true },
    });
    await refundCharge(owner.accountId, refunded!.requestId);
    expect(await usage()).toMatchObject({
      cache: 'miss',
      report: { used: 1, byEndpoint: [{ endpoint: 'GET /apps/{id}/aso-score' }] },
    });
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    await client(token)(`/apps/${app.id}/metadata`);
    const after = await usage();
    expect(after).toMatchObject({ cache: 'miss', report: { used: 2 } });
    expect(after.report.byEndpoint.map((entry) => entry.endpoint).sort()).toEqual([
      'GET /apps/{id}/aso-score',
      'GET /apps/{id}/metadata',
    ]);
    expect((await usage()).cache).toBe('hit');

    await db.account.update({ where: { id: owner.accountId }, data: { plan: 'business' } });
    const upgraded = await usage();
    expect(upgraded.cache).toBe('miss');
    expect(upgraded.report.limit).toBeGreaterThan(after.report.limit);
  });

  it('is the account’s own: another account’s report is never replayed', async () => {
    const { app, call } = await setup();
    await call(`/apps/${app.id}`);
    await call('/usage');
    const stranger = await makeAccount('pro');
    const theirs = await client((await createApiKey(stranger, { name: 'stranger', scope: 'read-only' })).secret)(
      '/usage',
    );
    expect(theirs.cache).toBe('miss');
    expect(JSON.parse(theirs.body)).toMatchObject({ used: 0, byEndpoint: [] });
  });
});

describe('live research', () => {
  it('is replayed, charged 8 each time, until the store’s answer is 5 minutes old or the app’s data changes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-07-01T08:00:00.000Z'));
      const { app, call } = await setup();
      const research = `/apps/${app.id}/keywords/research?term=sleep%20sounds`;
      const first = await call(research);
      expect([first.status, first.cache, first.headers.get('x-credits-cost')]).toEqual([200, 'miss', '8']);
      expect(JSON.parse(first.body)).toMatchObject({ term: 'sleep sounds', observedAt: '2026-07-01T08:00:00.000Z' });
      vi.setSystemTime(new Date('2026-07-01T08:04:00.000Z'));
      const replay = await call(research);
      expect([replay.cache, replay.body, replay.headers.get('x-credits-cost')]).toEqual(['hit', first.body, '8']);

      // The app's rank for the term is part of the answer: a write to the app's data is seen at once.
      await hotQuery(
        'UPDATE app_ranks SET "rank" = "rank" WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid) AND term_key = $2',
        [app.id, 'sleep sounds'],
      );
      const written = await call(research);
      expect(written.cache).toBe('miss');
      // The store's answer itself is still the one read at 08:00.
      expect(JSON.parse(written.body)).toMatchObject({ observedAt: '2026-07-01T08:00:00.000Z' });
      expect((await call(research)).cache).toBe('hit');

      vi.setSystemTime(new Date('2026-07-01T08:05:01.000Z'));
      const later = await call(research);
      expect(later.cache).toBe('miss');
      expect(JSON.parse(later.body)).toMatchObject({ observedAt: '2026-07-01T08:05:01.000Z' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('seeing every write', () => {
  it('adding keywords through the API changes the list, the app and the account’s list of apps', async () => {
    const { app, call } = await setup();
    const paths = [`/apps/${app.id}/keywords`, `/apps/${app.id}`, '/apps'];
    const before: Awaited<ReturnType<typeof call>>[] = [];
    for (const path of paths) before.push(await call(path));
    expect((await call(`/apps/${app.id}/keywords`)).cache).toBe('hit');
    expect((await call('/apps', { method: 'PUT' })).status).toBe(405);
    expect(
      (await call(`/apps/${app.id}/keywords`, { method: 'POST', body: JSON.stringify({ terms: ['cache busting'] }) }))
        .status,
    ).toBe(200);
    const after: Awaited<ReturnType<typeof call>>[] = [];
    for (const path of paths) after.push(await call(path));
    after.forEach((answer, index) => {
      expect(answer.cache).toBe('miss');
      expect(answer.body).not.toBe(before[index]!.body);
    });
    expect(after[0]!.body).toContain('"term":"cache busting"');
  });

  it('a refresh of new days changes every answer about the app', async () => {
    const { app, call } = await setup();
    const paths = [
      '',
      '/keywords',
      '/aso-score',
      '/category-rank',
      '/rating-history',
      '/reviews',
      '/reviews/insights',
      '/metadata',
      '/metadata/changelog',
      '/keyword-spy',
      '/opportunities',
    ].map((suffix) => `/apps/${app.id}${suffix}`);
    const before: Awaited<ReturnType<typeof call>>[] = [];
    for (const path of paths) before.push(await call(path));
    for (const path of paths) expect({ path, cache: (await call(path)).cache }).toEqual({ path, cache: 'hit' });
    await refreshApp(app.id, { through: addDays(FIXED_DAY, 14), days: 14 });
    for (const [index, path] of paths.entries()) {
      const answer = await call(path);
      expect({ path, status: answer.status, cache: answer.cache }).toEqual({ path, status: 200, cache: 'miss' });
      expect(before[index]!.status).toBe(200);
    }
  });

  it('each table an app’s answers are read from, written by any SQL, moves the app’s version; the app’s own row moves the account’s', async () => {
    const { app } = await setup();
    const writes: [string, string][] = [
      ['tracked_keywords', `UPDATE tracked_keywords SET is_favorite = NOT is_favorite WHERE app_id = $1::uuid`],
      [
        'app_ranks, the app’s',
        `DELETE FROM app_ranks WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid)
           AND date = (SELECT min(date) FROM app_ranks WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid))`,
      ],
      [
        'reviews',
        `UPDATE reviews SET title = title || '!' WHERE id = (SELECT id FROM reviews WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid) LIMIT 1)`,
      ],
      [
        'rating_snapshots',
        `UPDATE rating_snapshots SET count = count + 1 WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid)`,
      ],
      [
        'category_ranks',
        `DELETE FROM category_ranks WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid)
           AND date = (SELECT min(date) FROM category_ranks WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid))`,
      ],
      [
        'metadata_snapshots',
        `UPDATE metadata_snapshots SET title = title || '!' WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid)`,
      ],
      [
        'metadata_changes',
        `DELETE FROM metadata_changes WHERE id = (SELECT id FROM metadata_changes WHERE store_app_id = (SELECT store_app_id FROM tracked_apps WHERE id = $1::uuid) LIMIT 1)`,
      ],
      [
        'competitors',
        `INSERT INTO competitors (id, app_id, store_url, store, store_id) VALUES (gen_random_uuid(), $1::uuid, 'https://apps.apple.com/us/app/id1', 'app_store', '1')`,
      ],
      [
        'app_ranks, a competitor’s',
        `INSERT INTO app_ranks (store_app_id, country, term_key, term, date, rank) SELECT store_app_id, 'US', 'sleep', 'sleep', DATE '2026-06-30', 3 FROM competitors WHERE app_id = $1::uuid
         ON CONFLICT (store_app_id, country, term_key, date) DO UPDATE SET rank = app_ranks.rank % 200 + 1`,
      ],
    ];
    for (const [table, statement] of writes) {
      const before = await versionsOf(app.id);
      await hotQuery(statement, [app.id]);
      const after = await versionsOf(app.id);
      expect({ table, moved: after.app !== before.app, account: after.account }).toEqual({
        table,
        moved: true,
        account: before.account,
      });
    }
    const before = await versionsOf(app.id);
    await db.trackedApp.update({ where: { id: app.id }, data: { name: 'Renamed' } });
    expect(BigInt((await versionsOf(app.id)).account)).toBeGreaterThan(BigInt(before.account));
  });

  it('keyword metrics move the store’s version, only when a row was written', async () => {
    // Metrics are shared by every app of every account: a term of this test's own, so that no other test sees the change.
    const { app, call } = await setup([`cache metrics ${randomUUID()}`]);
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    const history = `/apps/${app.id}/keywords/${keyword.id}/metrics-history?days=30`;
    const before = await call(history);
    const existing = await db.keywordMetric.findFirstOrThrow({
      where: { store: app.store, country: keyword.country, termKey: keyword.termKey, date: FIXED_DAY },
    });
    const unchanged = await versionsOf(app.id);
    await db.keywordMetric.createMany({ data: [existing], skipDuplicates: true });
    expect((await versionsOf(app.id)).store).toBe(unchanged.store);
    expect((await call(history)).cache).toBe('hit');

    await db.keywordMetric.update({
      where: {
        livemode_store_country_termKey_date: {
          livemode: true,
          store: existing.store,
          country: keyword.country,
          termKey: keyword.termKey,
          date: FIXED_DAY,
        },
      },
      data: { volume: existing.volume + 1 },
    });
    const after = await call(history);
    expect(after.cache).toBe('miss');
    expect(after.body).not.toBe(before.body);
  });

  it('an app that was never refreshed is keyed by the day as well: keyword spy answers for today', async () => {
    const owner = await makeAccount('pro');
    const app = await makeApp(owner.accountId);
    const call = client((await createApiKey(owner, { name: 'day', scope: 'read-only' })).secret);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-15T23:59:00.000Z'));
      const today = await call(`/apps/${app.id}/keyword-spy`);
      expect((await call(`/apps/${app.id}/keyword-spy`)).cache).toBe('hit');
      vi.setSystemTime(new Date('2026-03-16T00:01:00.000Z'));
      const tomorrow = await call(`/apps/${app.id}/keyword-spy`);
      expect(tomorrow.cache).toBe('miss');
      expect(tomorrow.body).not.toBe(today.body);
    } finally {
      vi.useRealTimers();
    }
  });
});
