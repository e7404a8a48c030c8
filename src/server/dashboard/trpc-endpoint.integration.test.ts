// /api/trpc against cross-site request forgery: a signed-in user's browser, led by another site to post a mutation,
// gets 403 and nothing happens; the same mutation from the app's own pages (or a non-browser client) goes through.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { issueSessionToken } from '@/server/auth/session-token';
import { makeAccount, makeApp } from '../../../test/factories';
import { parseCookies } from '@/server/auth/cookies';
import { isCrossSiteWrite } from '@/server/auth/cross-site';
import { responseCacheLookups } from '@/server/core/metrics';
import { SKIPPED_STEPS } from '@/server/operations/runner';
import { handleDashboardTrpcRequest } from './trpc-endpoint';

const ORIGIN = 'http://app.test';

/** A new account's owner (on `plan`), and the Cookie header of their dashboard session. */
async function signedInCookie(plan?: Parameters<typeof makeAccount>[0]) {
  const owner = await makeAccount(plan);
  const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
  return { owner, cookie: `next-auth.session-token=${token}` };
}

function createKey(cookie: string, headers: Record<string, string>) {
  return handleDashboardTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/apiKeys.create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'csrf', scope: 'read-write' }),
    }),
  );
}

describe('cross-site requests to the dashboard API', () => {
  it('refuses a mutation posted from another site and creates nothing', async () => {
    const { owner, cookie } = await signedInCookie();
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const response = await createKey(cookie, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  it('lets the app’s own pages and non-browser clients through', async () => {
    const { owner, cookie } = await signedInCookie();
    expect((await createKey(cookie, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await createKey(cookie, { origin: ORIGIN })).status).toBe(200);
    expect((await createKey(cookie, {})).status).toBe(200);
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(3);
    // Reads are never refused (they change nothing).
    expect(
      isCrossSiteWrite(new Request(`${ORIGIN}/api/trpc/apiKeys.list`, { headers: { 'sec-fetch-site': 'cross-site' } })),
    ).toBe(false);
  });
});

// Issue 18 §1: /api/trpc used to serve the whole app router, a free and unlimited copy of the paid API.
describe('what the dashboard endpoint serves', () => {
  const call = (cookie: string, path: string, input: unknown, method: 'GET' | 'POST' = 'GET') =>
    handleDashboardTrpcRequest(
      method === 'GET'
        ? new Request(`${ORIGIN}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
            headers: { cookie },
          })
        : new Request(`${ORIGIN}/api/trpc/${path}`, {
            method,
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          }),
    );

  it('has no API-only procedure: a Free account gets no live research; a Pro account neither', async () => {
    for (const plan of ['free', 'pro'] as const) {
      const { owner, cookie } = await signedInCookie(plan);
      const app = await makeApp(owner.accountId);
      const attempts = [
        call(cookie, 'keywords.research', { id: app.id, term: 'sleep' }),
        call(cookie, 'keywords.metricsHistory', { id: app.id, keywordId: app.id }),
      ];
      for (const response of await Promise.all(attempts))
        expect(response.status, `${plan}: ${await response.text()}`).toBe(404);
    }
  });

  // Issue 64: competitors are chosen where they are shown, as keywords are: uncharged, within the plan's cap.
  it('adds a competitor for any plan, uncharged, and refuses one past the plan’s cap', async () => {
    const { owner, cookie } = await signedInCookie('free');
    const app = await makeApp(owner.accountId);
    const add = (n: number) =>
      call(
        cookie,
        'competitors.add',
        { id: app.id, storeUrl: `https://apps.apple.com/us/app/rival/id7200000${n}` },
        'POST',
      );
    for (const n of [10, 11, 12, 13, 14]) expect((await add(n)).status).toBe(200);
    const refused = await add(15);
    expect(refused.status).toBe(403);
    expect(await db.competitor.count({ where: { appId: app.id } })).toBe(5);
    expect(await db.creditUsageDaily.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  // Issue 21: the app page's views read the account's stored data through the API's own procedures, uncharged.
  it('serves the stored views of the account’s own apps to any plan, uncharged, and another account’s as 404', async () => {
    const { owner, cookie: own } = await signedInCookie('free');
    const app = await makeApp(owner.accountId);
    const { owner: stranger, cookie: other } = await signedInCookie('pro');
    const views = [
      'apps.opportunities',
      'apps.keywordSpy',
      'apps.categoryRank',
      'apps.ratingHistory',
      'metadata.changelog',
      'reviews.insights',
      'keywords.recentRanks',
    ];
    for (const view of views) expect((await call(own, view, { id: app.id })).status, view).toBe(200);
    for (const view of views) expect((await call(other, view, { id: app.id })).status, view).toBe(404);
    expect(
      await db.creditUsageDaily.count({ where: { accountId: { in: [owner.accountId, stranger.accountId] } } }),
    ).toBe(0);
  });

  it('tracks keywords for any plan, within the plan’s cap (Free: 25), uncharged', async () => {
    const { owner, cookie } = await signedInCookie('free');
    const app = await makeApp(owner.accountId);
    const terms = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => `free term ${from + index}`);
    expect((await call(cookie, 'keywords.add', { id: app.id, terms: terms(0, 25) }, 'POST')).status).toBe(200);
    const over = await call(cookie, 'keywords.add', { id: app.id, terms: terms(25, 1) }, 'POST');
    expect(over.status).toBe(403);
    expect((await over.json()).error.data.problem).toMatchObject({
      code: 'LIMIT_REACHED',
      cap: 'tracked-keywords',
      limit: 25,
    });
    expect(await db.trackedKeyword.count({ where: { appId: app.id } })).toBe(25);
    expect(await db.creditUsageDaily.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  it('refuses a batch of more than 10 calls and counts every call of a batch against the per-user limit', async () => {
    const { cookie } = await signedInCookie();
    const batch = (size: number) =>
      handleDashboardTrpcRequest(
        new Request(
          `${ORIGIN}/api/trpc/${Array(size).fill('account.get').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: size }, (_, index) => [index, null]))))}`,
          { headers: { cookie } },
        ),
      );
    expect((await batch(11)).status).toBe(400);
    // 600 calls a minute: 60 batches of 10 pass, the next call is refused with Retry-After.
    for (let round = 0; round < 60; round++) expect((await batch(10)).status, `round ${round}`).toBe(200);
    const refused = await call(cookie, 'account.get', null);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the session cookie, read one way everywhere (issue 63)', () => {
  const accountGet = (cookie: string) =>
    handleDashboardTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/account.get?input=${encodeURIComponent('null')}`, { headers: { cookie } }),
    );

  it('a value that is not percent-encoding is a cookie like any other, never a 5xx', async () => {
    const { cookie } = await signedInCookie();
    const response = await accountGet(`theme=%E0%A4%A; ${cookie}; other=%`);
    expect(response.status).toBe(200);
    expect((await accountGet('next-auth.session-token=%E0%A4%A')).status).toBe(401);
  });

  it('of a name sent twice, the first is read, as every reader of the Cookie header reads it', async () => {
    const { owner, cookie } = await signedInCookie();
    const other = await signedInCookie();
    const first = (await (await accountGet(`${cookie}; ${other.cookie}`)).json()) as {
      result: { data: { id: string } };
    };
    expect(first.result.data.id).toBe(owner.accountId);
    expect(parseCookies(`${cookie}; ${other.cookie}`).get('next-auth.session-token')).toBe(cookie.split('=')[1]);
  });
});

// Issue 63: the dashboard is a channel of the runner of a call's steps, less the steps its table says it skips. Each
// has what a dashboard call shows of it, where a public API call with the same input would differ.
describe('the steps a dashboard call skips', () => {
  const send = (cookie: string, path: string, input: unknown, headers: Record<string, string> = {}) =>
    handleDashboardTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(input),
      }),
    );
  const read = (cookie: string, path: string, input: unknown, headers: Record<string, string> = {}) =>
    handleDashboardTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
        headers: { cookie, ...headers },
      }),
    );
  const cacheLookups = async () => (await responseCacheLookups.get()).values.reduce((sum, { value }) => sum + value, 0);

  const shown: Record<(typeof SKIPPED_STEPS.dashboard)[number], () => Promise<void>> = {
    // The dashboard's pages read the newest shapes: a version sent is not read, nor echoed.
    version: async () => {
      const { cookie } = await signedInCookie();
      const response = await read(cookie, 'account.get', null, { 'aso-version': 'not a version' });
      expect(response.status).toBe(200);
      expect(response.headers.get('aso-version')).toBeNull();
    },
    // A session has no client addresses of a key to keep to, from wherever it calls.
    address: async () => {
      const { cookie } = await signedInCookie();
      const response = await read(cookie, 'account.get', null, { 'x-forwarded-for': '198.51.100.7' });
      expect(response.status).toBe(200);
    },
    // X-Test-Trigger in live mode is a public API call's 400; the dashboard does not read it.
    trigger: async () => {
      const { cookie } = await signedInCookie();
      expect((await read(cookie, 'account.get', null, { 'x-test-trigger': 'rate_limited' })).status).toBe(200);
    },
    // The same Idempotency-Key twice: two keys made, not one answer replayed.
    idempotency: async () => {
      const { owner, cookie } = await signedInCookie();
      for (const _ of [1, 2])
        expect(
          (await send(cookie, 'apiKeys.create', { name: 'twice', scope: 'read-only' }, { 'idempotency-key': 'k' }))
            .status,
        ).toBe(200);
      expect(await db.apiKey.count({ where: { accountId: owner.accountId, name: 'twice' } })).toBe(2);
    },
    // A read that costs the public API a credit costs the dashboard none.
    metering: async () => {
      const { owner, cookie } = await signedInCookie('pro');
      const app = await makeApp(owner.accountId);
      expect((await read(cookie, 'apps.get', { id: app.id })).status).toBe(200);
      expect(await db.creditUsageDaily.count({ where: { accountId: owner.accountId } })).toBe(0);
    },
    // A read the response cache replays on the public API is read afresh, without a lookup.
    cache: async () => {
      const { owner, cookie } = await signedInCookie('pro');
      const app = await makeApp(owner.accountId);
      const before = await cacheLookups();
      for (const _ of [1, 2]) expect((await read(cookie, 'apps.get', { id: app.id })).status).toBe(200);
      expect(await cacheLookups()).toBe(before);
    },
  };

  it.each(SKIPPED_STEPS.dashboard)('%s', (step) => shown[step]());
});
