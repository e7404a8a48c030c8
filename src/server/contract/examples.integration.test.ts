// The examples of the published contract: a real answer of every endpoint for the demo app on its fixed day, produced by
// the REST pipeline and kept in ./examples.json, which the document attaches to each operation's success. A change of
// an answer shows up here as a diff to review (`npx vitest run src/server/contract/examples.integration.test.ts -u`
// rewrites it). Lists are cut to their first three items; ids and the instants of this run are replaced by fixed ones.
// The examples are the newest dated version's. ./examples-2026-11-21.json keeps those of the original version, as they
// were committed before dated versions: an account and key from before then, sending no Aso-Version, must still get
// every field of them with the same value (issue 65); fields added since are allowed.
import { readFileSync } from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { isApiVersion, LATEST_VERSION, ORIGINAL_VERSION } from '@/server/domain/api-versions';
import { appRouter } from '@/server/api/root';
import { db } from '@/server/db';
import { issueSessionToken } from '@/server/auth/session-token';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { createWebhookEndpoint, sendTestEvent } from '@/server/services/webhooks/endpoints';
import { DemoProvider } from '@/server/services/ingest/demo/demo-provider';
import { useDataProvider } from '@/server/services/ingest/providers';
import { resetResearchCache } from '@/server/services/aso/research';
import { makeAsoApp } from '../../../test/aso-fixture';
import { callPublicApi } from '../../../test/public-api';
import { buildOperations, type Operation } from '@/server/operations/routes';
import { seal } from '@/server/core/data-encryption';
import { draftReply } from '@/server/services/store-accounts/reply-drafts';
import { successStatus } from '@/server/api/trpc';

const ORIGIN = 'http://api.test';
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['calm breathing', 'sleep sounds'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /apps': { storeUrl: 'https://apps.apple.com/us/app/sleep-sounds/id1500000077' },
  'POST /keys': {
    name: 'Nightly export',
    scope: 'read-only',
    expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    restrictions: { allowedCidrs: ['203.0.113.0/24'], monthlyBudget: 5000 },
  },
  'PATCH /keys/{keyId}': { name: 'Nightly export (warehouse)', restrictions: { monthlyBudget: 2000 } },
  'POST /keys/{keyId}/roll': { gracePeriod: '24h' },
  'POST /webhook-endpoints': {
    url: 'http://127.0.0.1:9/hooks/aso',
    description: 'Warehouse loader',
    eventTypes: ['keyword.rank_changed', 'review.created'],
  },
  'PATCH /webhook-endpoints/{endpointId}': { description: 'Warehouse loader (production)' },
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': {
    body: 'Thank you! Offline mode is coming in the next version.',
  },
  'POST /exports': { datasets: ['keyword_ranks', 'ratings'], from: '2026-01-01', to: '2026-06-30', format: 'parquet' },
};
const QUERIES: Record<string, string> = {
  '/apps/{id}/keywords/research': '?term=sleep%20sounds',
  '/search': '?query=sleep',
};
const LIST_ITEMS = 3;
const RUN_INSTANT = '2026-07-01T09:30:00.000Z';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The demo store asked for research on the examples' day, whatever the day of the run: research asks the store about
 * today, and the demo store's volumes move with the day (the examples matched only the day they were written on).
 */
class DemoStoreOnExamplesDay extends DemoProvider {
  override research(term: string, country: string) {
    return super.research(term, country, new Date(RUN_INSTANT.slice(0, 10)));
  }
}

it('answers every endpoint as the committed examples show, and as the original version’s did to an older key', async () => {
  const restoreProvider = useDataProvider(new DemoStoreOnExamplesDay());
  onTestFinished(restoreProvider);
  // The store's answers another file of this worker researched (today's, not the examples' day) are not replayed.
  resetResearchCache();
  const { owner, app } = await makeAsoApp({ storeId: '1459969523' });
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id, term: 'meditation' } });
  const { secret } = await createApiKey(owner, { name: 'examples', scope: 'read-write' });
  // The settings endpoints take a session token of the account (an API key is refused), and ids of its own.
  const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
  const session = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
  const expiresAt = new Date(Date.now() + 30 * 86_400_000);
  const managed = await createApiKey(owner, { name: 'CI pipeline', scope: 'read-only', expiresAt });
  const toRevoke = await createApiKey(owner, { name: 'Old laptop', scope: 'read-only' });
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
  // Subscribed to a kind of event nothing here causes: another file's fan-out (dispatchEvents takes every account's
  // events) would otherwise add deliveries of this test's writes to its list, or not, by timing.
  const { endpoint } = await createWebhookEndpoint(owner.accountId, {
    url: 'http://127.0.0.1:9/hooks/aso',
    description: 'Warehouse loader',
    eventTypes: ['plan.changed'],
  });
  const { endpoint: toDelete } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hooks/old' });
  const { deliveryId } = await sendTestEvent(owner, endpoint.id);
  // The app is owned through a (simulated) store account, with reviews read with it and two replies drafted: one the
  // examples discard, one they approve (sent at once).
  const reviews = await ownedReviews(owner.accountId, app.id);
  const drafter = { accountId: owner.accountId, kind: 'session' as const, userId: user.id };
  const toDiscard = await draftReply(drafter, {
    appId: app.id,
    reviewId: reviews[1]!,
    action: 'reply',
    body: 'Sorry about the crash: 4.2.1 fixes it.',
  });
  const toApprove = await draftReply(drafter, {
    appId: app.id,
    reviewId: reviews[2]!,
    action: 'reply',
    body: 'Thanks for the kind words!',
  });
  // An export asked for before (queued: no worker runs here), which the examples read and cancel; written as the
  // service writes one, uncharged (the usage example counts the calls of the original version only).
  const exported = await db.export.create({
    data: {
      accountId: owner.accountId,
      request: { datasets: ['keyword_ranks'], appIds: null, storefronts: null, from: '2026-06-01', to: '2026-06-30' },
      format: 'csv',
      state: 'queued',
      rowsEstimated: 150n,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    },
  });
  const ids: Record<string, string> = {
    exportId: exported.id,
    id: app.id,
    keywordId: keyword.id,
    keyId: managed.key.id,
    endpointId: endpoint.id,
    deliveryId,
    reviewId: reviews[0]!,
    draftId: toApprove.id,
  };
  // As an account from before dated versions is (its migration pinned it to the original) with keys naming none.
  await db.account.update({ where: { id: owner.accountId }, data: { apiVersion: ORIGINAL_VERSION } });
  const routeIds: Record<string, Record<string, string>> = {
    'POST /keys/{keyId}/revoke': { keyId: toRevoke.key.id },
    'DELETE /webhook-endpoints/{endpointId}': { endpointId: toDelete.id },
    'GET /search/{id}': { id: `keyword:${keyword.id}` },
    'POST /apps/{id}/reply-drafts/{draftId}/discard': { draftId: toDiscard.id },
  };
  const examples: Record<string, unknown> = {};
  const original: Record<string, unknown> = {};
  const readsAgain: [string, (version?: string) => Promise<Response>][] = [];
  // Writes first (the lists then show what they added), reads in the order of the router, usage last (it counts them);
  // then the settings endpoints, again writes first.
  // An operation added since the original version is called after the usage, which then counts what it counted then.
  const frozen = JSON.parse(readFileSync(new URL('./examples-2026-11-21.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
  const rank = (route: Operation) =>
    (route.meta.scope === 'admin' ? 3 : 0) +
    (route.meta.scope !== 'admin' && !(`${route.method} ${route.template}` in frozen)
      ? 2.5
      : route.method !== 'GET'
        ? 0
        : route.template === '/usage'
          ? 2
          : 1);
  const routes = buildOperations(appRouter).sort((a, b) => rank(a) - rank(b));
  for (const route of routes) {
    const name = `${route.method} ${route.template}`;
    const values = { ...ids, ...routeIds[name] };
    const path =
      route.template.replace(/\{(\w+)\}/g, (_, param: string) => values[param]!) + (QUERIES[route.template] ?? '');
    const body = BODIES[name];
    const call = (version?: string) =>
      callPublicApi(
        new Request(`${ORIGIN}/api/public/v1${path}`, {
          method: route.method,
          headers: {
            Authorization: `Bearer ${route.meta.scope === 'admin' ? session : secret}`,
            ...(version ? { 'Aso-Version': version } : {}),
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    // Every call as the older key gets it (the original version); then each read again, as the newest version shapes
    // it, once the usage was read (a read costs a credit: the usage example counts the first pass only). No version
    // has changed what a write or the usage answers.
    const asBefore = await call();
    expect(asBefore.status, `${name}`).toBe(successStatus(route.meta));
    expect(asBefore.headers.get('aso-version'), name).toBe(ORIGINAL_VERSION);
    original[name] = examples[name] = shorten(await asBefore.json());
    if (route.method === 'GET' && route.template !== '/usage') readsAgain.push([name, call]);
  }
  for (const [name, call] of readsAgain) {
    const newest = await call(LATEST_VERSION);
    expect(newest.status, `${name} (${LATEST_VERSION})`).toBe(200);
    expect(newest.headers.get('aso-version'), name).toBe(LATEST_VERSION);
    examples[name] = shorten(await newest.json());
  }
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
  // The operations of the original version, in its order: ids are numbered by where they first appear.
  const originalOnes = Object.fromEntries(Object.keys(frozen).map((name) => [name, original[name]]));
  expectSameFields(frozen, JSON.parse(normalise(JSON.stringify(originalOnes, null, 2))), '');
  await expect(normalise(JSON.stringify(examples, null, 2)) + '\n').toMatchFileSnapshot('./examples.json');
});

/** Three reviews of the app, read with a store account of the account's that owns it: their ids, newest first. */
async function ownedReviews(accountId: string, appId: string): Promise<string[]> {
  const storeAccount = await db.storeAccount.create({
    data: {
      accountId,
      store: 'app_store',
      label: 'Key 2X9R4HXF34 of issuer 57246542-96fe-1a63-e053-0824d011072a',
      credential: seal('{}'),
      lastCheckedAt: new Date(RUN_INSTANT),
      // Simulated, as the demo's: the approval sends it at once, in its call, so no file's sender (which takes any
      // account's due replies) sends it meanwhile with a credential that is none.
      simulated: true,
    },
  });
  await db.trackedApp.update({ where: { id: appId }, data: { ownedByStoreAccountId: storeAccount.id } });
  const written = [
    { rating: 4, title: 'Lovely, one wish', body: 'Would be great if you could add an offline mode for flights.' },
    { rating: 2, title: 'Crashes on launch', body: 'Since the last update the app crashes when I open it.' },
    { rating: 5, title: 'Calm every evening', body: 'The breathing exercises helped my anxiety a lot.' },
  ];
  const ids: string[] = [];
  for (const [index, review] of written.entries()) {
    const row = await db.storeAccountReview.create({
      data: {
        accountId,
        trackedAppId: appId,
        storeReviewId: `00000042-0001-0000-0000-00000000000${index}`,
        ...review,
        author: `reviewer${index}`,
        territory: 'USA',
        sentiment: 0,
        writtenAt: new Date(Date.parse('2026-06-28T08:00:00.000Z') - index * 86_400_000),
        firstSeenAt: new Date(RUN_INSTANT),
        lastSeenAt: new Date(RUN_INSTANT),
      },
    });
    ids.push(row.id);
  }
  return ids;
}

/** Every field of `expected`, at any depth, is in `actual` with the same value; `actual` may have more. */
function expectSameFields(expected: unknown, actual: unknown, at: string): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), at).toBe(true);
    expected.forEach((item, index) => expectSameFields(item, (actual as unknown[])[index], `${at}[${index}]`));
  } else if (expected && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', at).toBe(true);
    for (const [key, value] of Object.entries(expected))
      expectSameFields(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
  } else expect(actual, at).toEqual(expected);
}

function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, LIST_ITEMS).map(shorten);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, shorten(member)]));
  return value;
}

/**
 * Ids and key prefixes are random per run, and some instants are the run's own (when a row was created, the usage
 * period): each becomes a fixed value, the same one each run. The run's month becomes July 2026, after the demo day.
 */
function normalise(text: string): string {
  const ids = new Map<string, string>();
  const now = Date.now();
  const month = (offset: number) =>
    new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + offset, 1))
      .toISOString()
      .slice(0, 7);
  return (
    text
      .replace(UUID, (uuid) => {
        if (!ids.has(uuid)) ids.set(uuid, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`);
        return ids.get(uuid)!;
      })
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (instant) => {
        // The run's instants, and those it set ahead (expiries, grace periods), keep their distance from it in hours.
        const offset = Date.parse(instant) - now;
        if (Math.abs(offset) < 3_600_000) return RUN_INSTANT;
        if (offset > 0 && offset < 400 * 86_400_000 && !instant.endsWith('-01T00:00:00.000Z'))
          return new Date(Date.parse(RUN_INSTANT) + Math.round(offset / 3_600_000) * 3_600_000).toISOString();
        return instant;
      })
      // A day or instant of the run's month moves to July, of the next month to August; a version's name stays.
      .replace(
        new RegExp(`"(${month(0)}|${month(1)})-(\\d{2})(")?`, 'g'),
        (all, yearMonth: string, day: string, end: string | undefined) =>
          end && isApiVersion(`${yearMonth}-${day}`)
            ? all
            : `"${yearMonth === month(0) ? '2026-07' : '2026-08'}-${day}${end ?? ''}`,
      )
      .replace(/svc_live_[A-Za-z0-9]{4}…[A-Za-z0-9]{4}/g, 'svc_live_Ab3d…x9Yz')
      .replace(/svc_live_[A-Za-z0-9]{4}…(?![A-Za-z0-9])/g, 'svc_live_Ab3d…')
      .replace(/"displayPrefix": "svc_live_[A-Za-z0-9]{4}"/g, '"displayPrefix": "svc_live_Ab3d"')
      .replace(/"lastFour": "[A-Za-z0-9]{4}"/g, '"lastFour": "x9Yz"')
      .replace(/svc_live_[A-Za-z0-9]{38}/g, 'svc_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe')
      .replace(/whsec_[A-Za-z0-9_-]{43}…?/g, (secret) =>
        secret.endsWith('…') ? 'whsec_Zm9y…' : 'whsec_Zm9yX2V4YW1wbGVzX29ubHlfbm90X2FfcmVhbF9zZWNyZXQ',
      )
      .replace(/"secretHint": "whsec_[A-Za-z0-9_-]{4}…"/g, '"secretHint": "whsec_Zm9y…"')
      .replaceAll('http://127.0.0.1:9/hooks/', 'https://hooks.example.com/')
      .replace(/"lastUsedIp": "[^"]*"/g, '"lastUsedIp": "203.0.113.7"')
  );
}
