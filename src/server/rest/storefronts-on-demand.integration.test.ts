// Any storefront on demand (issue 41), through the public API: a storefront-scoped read naming a storefront the app was
// never observed in observes it at once and answers 200, the storefront is tracked from then on (GET /apps/{id} lists
// it, the next day's refresh observes it), concurrent first reads observe it once and are each charged once, a store
// that fails gives 503 with nothing stored or charged and the next call tries again, a store that does not sell the
// app there gives 404 saying so, and a tier's storefronts per app are capped.
//
// On the demo provider, then on recorded store answers for both stores. There is no recording of the GB storefront
// (these machines cannot reach the stores): the US answers stand in for GB's, which have the same shape, under GB's
// addresses; a storefront where the app is not sold replays the store's recorded answer for an app it does not have
// (Apple's empty lookup, Google Play's 404), which is how each store says so.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { trackApp } from '@/server/services/apps/apps';
import { removeStorefront } from '@/server/services/apps/storefronts';
import { creditsUsed } from '@/server/services/metering/credits';
import { DemoProvider } from '@/server/services/ingest/demo/demo-provider';
import type { DataProvider, ObservationRequest, ProviderApp, StoreReference } from '@/server/services/ingest/provider';
import { useDataProvider } from '@/server/services/ingest/providers';
import { BACKFILL_DAYS, refreshApp } from '@/server/services/ingest/refresh';
import { AppStoreProvider } from '@/server/services/ingest/stores/app-store/app-store-provider';
import { GooglePlayProvider } from '@/server/services/ingest/stores/google-play/google-play-provider';
import {
  playLocale,
  type GooglePlayClient,
  type PlayLocale,
} from '@/server/services/ingest/stores/google-play/google-play-client';
import { createStoreGate, StoreCallError } from '@/server/services/ingest/stores/store-calls';
import { StoresProvider } from '@/server/services/ingest/stores/stores-provider';
import { makeAccount, storeAppOf } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';
import { APP_STORE_PLAN, loadAppStoreFixture, recordedFetch } from '../../../test/stores/recorded-app-store';
import { GOOGLE_PLAY_PLAN, recordedPlayClient, recordedPlayDays } from '../../../test/stores/recorded-google-play';

const ORIGIN = 'http://api.test';
const today = startOfUtcDay(new Date());

/** The demo provider, counting each storefront's observations (one per day observed), failing where told. */
class CountingProvider implements DataProvider {
  readonly name = 'demo' as const;
  readonly hasHistory = true;
  readonly observed = new Map<string, number>();
  private readonly inner = new DemoProvider();
  constructor(private readonly failure: (country: string) => Error | undefined = () => undefined) {}
  async observe(app: ProviderApp, request: ObservationRequest) {
    for (const country of request.countries) this.observed.set(country, (this.observed.get(country) ?? 0) + 1);
    const failure = request.countries.map(this.failure).find(Boolean);
    if (failure) throw failure;
    return this.inner.observe(app, request);
  }
  research(term: string, country: string, day: Date) {
    return this.inner.research(term, country, day);
  }
  describe(reference: StoreReference) {
    return this.inner.describe(reference);
  }
  searchApps(term: string, country: string, limit: number) {
    return this.inner.searchApps(term, country, limit);
  }
}

let restore: (() => void) | undefined;
function provide(provider: DataProvider) {
  restore?.();
  restore = useDataProvider(provider);
}
afterEach(() => {
  restore?.();
  restore = undefined;
});
afterAll(() => restore?.());

/** A customer with a key, on `plan`. */
async function customer(plan: 'solo' | 'pro' = 'pro') {
  const owner = await makeAccount(plan);
  const { secret } = await createApiKey(owner, { name: 'storefronts', scope: 'read-write' });
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await callPublicApi(
      new Request(`${ORIGIN}/api/public/v1${path}`, {
        method: init.method ?? 'GET',
        headers: {
          Authorization: `Bearer ${secret}`,
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    );
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return { owner, call, used: () => creditsUsed(owner.accountId, new Date()) };
}

const storefrontsOf = async (appId: string) =>
  (await db.appStorefront.findMany({ where: { appId }, orderBy: { country: 'asc' } })).map((row) => row.country);

describe('on the demo provider', () => {
  it('answers a new storefront’s metadata on the first call, lists it, starts its history, and the next day’s refresh observes it', async () => {
    const provider = new CountingProvider();
    provide(provider);
    const { owner, call, used } = await customer();
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004101' });
    expect(app.storefronts).toEqual(['US']);

    const listing = await call(`/apps/${app.id}/metadata?country=gb`);
    expect(listing.status, JSON.stringify(listing.body)).toBe(200);
    expect(listing.body).toMatchObject({ country: 'GB', title: expect.any(String) });
    expect(listing.headers.get('x-credits-cost')).toBe('1');
    expect(await used()).toBe(1);
    expect((await call(`/apps/${app.id}`)).body.storefronts).toEqual(['GB', 'US']);

    // Its history starts when it was first observed: the demo provider has the same history as a new app's.
    const firstDay = isoDay(addDays(today, -(BACKFILL_DAYS - 1)));
    const changelog = await call(`/apps/${app.id}/metadata/changelog?country=GB`);
    expect(changelog.body).toMatchObject({ country: 'GB', observedSince: firstDay });
    const chart = await call(`/apps/${app.id}/category-rank?country=GB&days=365`);
    expect(chart.body).toMatchObject({ country: 'GB', observedSince: firstDay });
    expect(chart.body.points.find((point: { date: string }) => point.date < firstDay)).toMatchObject({ rank: null });
    expect(provider.observed.get('GB')).toBe(BACKFILL_DAYS);

    // The next day's refresh observes GB with the app's other storefronts.
    const tomorrow = addDays(today, 1);
    const refreshed = await refreshApp(app.id, { through: tomorrow });
    expect(refreshed.failures).toEqual([]);
    expect(
      await db.categoryRank.count({ where: { storeAppId: await storeAppOf(app.id), country: 'GB', date: tomorrow } }),
    ).toBe(1);
    expect(provider.observed.get('GB')).toBe(BACKFILL_DAYS + 1);
  });

  it('observes a storefront once for 20 concurrent first calls, and charges each call once', async () => {
    const provider = new CountingProvider();
    provide(provider);
    const { owner, call, used } = await customer();
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004102' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`/apps/${app.id}/metadata?country=DE`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers.map((answer) => answer.headers.get('x-credits-cost'))).toEqual(Array(20).fill('1'));
    expect(await used()).toBe(20);
    expect(provider.observed.get('DE')).toBe(BACKFILL_DAYS);
    expect(await storefrontsOf(app.id)).toEqual(['DE', 'US']);
  });

  it('answers 503 when the store fails, storing and charging nothing, and observes it on the next call', async () => {
    let failing = true;
    provide(
      new CountingProvider((country) =>
        failing && country === 'FR'
          ? new StoreCallError('app_store', 'lookup in FR: the App Store answered 503', 503)
          : undefined,
      ),
    );
    const { owner, call, used } = await customer();
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004103' });
    const before = await db.metadataSnapshot.count({ where: { storeAppId: await storeAppOf(app.id) } });

    for (const path of [
      'metadata',
      'aso-score',
      'keyword-spy',
      'opportunities',
      'keywords',
      'competitors',
      'category-rank',
      'metadata/changelog',
    ]) {
      const refused = await call(`/apps/${app.id}/${path}?country=FR`);
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'store-unavailable',
        detail: expect.stringContaining('FR storefront'),
      });
      expect(refused.headers.get('retry-after')).toBe('60');
    }
    expect(await used()).toBe(0);
    expect(await storefrontsOf(app.id)).toEqual(['US']);
    expect(await db.metadataSnapshot.count({ where: { storeAppId: await storeAppOf(app.id) } })).toBe(before);

    failing = false;
    const served = await call(`/apps/${app.id}/aso-score?country=FR`);
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(await storefrontsOf(app.id)).toEqual(['FR', 'US']);
  });

  it('answers 404 saying so when the store does not sell the app in the storefront', async () => {
    provide(
      new CountingProvider((country) =>
        country === 'IT'
          ? new StoreCallError('app_store', 'the App Store has no app in the IT storefront', 404)
          : undefined,
      ),
    );
    const { owner, call, used } = await customer();
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004104' });
    const refused = await call(`/apps/${app.id}/metadata?country=IT`);
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe('The App Store says this app is not sold in the IT storefront.');
    expect(await used()).toBe(0);
    expect(await storefrontsOf(app.id)).toEqual(['US']);
  });

  it('caps the storefronts per app by tier, on a first read and on keywords in a new storefront alike', async () => {
    provide(new CountingProvider());
    const { owner, call, used } = await customer('solo');
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004105' });
    // Solo's five: the primary one, three first read, and one of keywords.
    for (const country of ['JP', 'DE', 'FR'])
      expect((await call(`/apps/${app.id}/metadata?country=${country}`)).status).toBe(200);
    expect(
      (await call(`/apps/${app.id}/keywords`, { method: 'POST', body: { terms: ['sleep'], country: 'KR' } })).status,
    ).toBe(200);
    const spent = await used();

    const refused = await call(`/apps/${app.id}/metadata?country=BR`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'limit-reached', cap: 'storefronts', limit: 5 });
    const keywords = await call(`/apps/${app.id}/keywords`, {
      method: 'POST',
      body: { terms: ['sleep'], country: 'BR' },
    });
    expect(keywords.status).toBe(403);
    expect(keywords.body).toMatchObject({ code: 'limit-reached', cap: 'storefronts' });
    expect(await used()).toBe(spent);
    expect(await storefrontsOf(app.id)).toEqual(['DE', 'FR', 'JP', 'KR', 'US']);
    expect(await db.trackedKeyword.count({ where: { appId: app.id, country: 'BR' } })).toBe(0);
  });
});

describe('stopping tracking a storefront', () => {
  it('frees it with its keywords there, keeps its history, refuses the primary one and one not tracked', async () => {
    provide(new CountingProvider());
    const { owner, call } = await customer('solo');
    const app = await trackApp(owner.accountId, { storeUrl: 'https://apps.apple.com/us/app/storefronts/id1500004106' });
    expect(
      (await call(`/apps/${app.id}/keywords`, { method: 'POST', body: { terms: ['sleep'], country: 'GB' } })).status,
    ).toBe(200);
    const history = await db.categoryRank.count({ where: { storeAppId: await storeAppOf(app.id), country: 'GB' } });
    expect(history).toBeGreaterThan(0);

    expect(await removeStorefront(owner.accountId, { appId: app.id, country: 'GB' })).toEqual({
      removed: true,
      country: 'GB',
      keywords: 1,
    });
    expect(await storefrontsOf(app.id)).toEqual(['US']);
    expect(await db.trackedKeyword.count({ where: { appId: app.id, country: 'GB' } })).toBe(0);
    expect(await db.categoryRank.count({ where: { storeAppId: await storeAppOf(app.id), country: 'GB' } })).toBe(
      history,
    );
    await expect(removeStorefront(owner.accountId, { appId: app.id, country: 'US' })).rejects.toMatchObject({
      appCode: 'VALIDATION_ERROR',
    });
    await expect(removeStorefront(owner.accountId, { appId: app.id, country: 'DE' })).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
    });
    const other = await makeAccount('solo');
    await expect(removeStorefront(other.accountId, { appId: app.id, country: 'US' })).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
    });
  });
});

/** The App Store on Apple's recorded answers; GB is answered with the US recording, FR as Apple answers an app it does not have. */
function appStoreRecorded(): StoresProvider {
  const replay = recordedFetch();
  const fetchJson = async (url: string) => {
    const asked = new URL(url);
    const country = asked.searchParams.get('country') ?? asked.pathname.split('/')[1];
    if (country === 'fr' && asked.pathname === '/lookup')
      return loadAppStoreFixture(`lookup-us-${APP_STORE_PLAN.missingId}.json`);
    if (country !== 'gb') return replay(url);
    if (asked.searchParams.has('country')) asked.searchParams.set('country', 'us');
    else asked.pathname = asked.pathname.replace(/^\/gb\//, '/us/');
    return replay(asked.toString());
  };
  const offline = new GooglePlayProvider(
    { app: failing, search: failing, reviews: failing, topFree: failing, suggest: failing },
    createStoreGate(
      'google_play',
      { callsPerMinute: 60, concurrency: 1, timeoutMs: 300, retries: 0, minBackoffMs: 1, maxBackoffMs: 1 },
      async () => 0,
    ),
  );
  return new StoresProvider({ app_store: new AppStoreProvider(fetchJson), google_play: offline });
}

function failing(): Promise<never> {
  return Promise.reject(new Error('the other store is not asked in this test'));
}

/** Google Play on its recorded answers; GB is answered with the US recording, FR as Google Play answers an app it does not offer. */
function googlePlayRecorded(): StoresProvider {
  const [day] = recordedPlayDays().slice(-1) as [string];
  const recorded = recordedPlayClient(day);
  const US = playLocale('US');
  const stand = (locale: PlayLocale) => (locale.country.toUpperCase() === 'GB' ? US : locale);
  const client: GooglePlayClient = {
    app: (appId, locale) =>
      locale.country.toUpperCase() === 'FR'
        ? recorded.app(GOOGLE_PLAY_PLAN.missingId, US)
        : recorded.app(appId, stand(locale)),
    search: (term, num, locale) => recorded.search(term, num, stand(locale)),
    reviews: (appId, num, locale) => recorded.reviews(appId, num, stand(locale)),
    topFree: (category, num, locale) => recorded.topFree(category, num, stand(locale)),
    suggest: (prefix, locale) => recorded.suggest(prefix, stand(locale)),
  };
  const gate = createStoreGate(
    'google_play',
    { callsPerMinute: 60, concurrency: 2, timeoutMs: 1_000, retries: 0, minBackoffMs: 1, maxBackoffMs: 1 },
    async () => 0,
  );
  return new StoresProvider({
    google_play: new GooglePlayProvider(client, gate),
    app_store: new AppStoreProvider(failing),
  });
}

describe.each([
  {
    store: 'the App Store',
    provider: appStoreRecorded,
    storeUrl: `https://apps.apple.com/us/app/calm/id${APP_STORE_PLAN.appId}`,
    notSold: 'The App Store says this app is not sold in the FR storefront.',
  },
  {
    store: 'Google Play',
    provider: googlePlayRecorded,
    storeUrl: `https://play.google.com/store/apps/details?id=${GOOGLE_PLAY_PLAN.appId}`,
    notSold: 'Google Play says this app is not sold in the FR storefront.',
  },
])('on $store’s recorded answers', ({ provider, storeUrl, notSold }) => {
  it('answers a US app’s GB metadata on the first call, lists GB, the next day’s refresh observes it; FR, where it is not sold, is a 404', async () => {
    provide(provider());
    const { call, used } = await customer();
    const created = await call('/apps', { method: 'POST', body: { storeUrl } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const appId = created.body.id as string;
    // The app's first observation, as its backfill makes it (the live stores show today only).
    expect((await refreshApp(appId)).failures).toEqual([]);
    const spent = await used();

    const listing = await call(`/apps/${appId}/metadata?country=GB`);
    expect(listing.status, JSON.stringify(listing.body)).toBe(200);
    const us = await call(`/apps/${appId}/metadata`);
    expect(listing.body).toMatchObject({ country: 'GB', title: us.body.title, version: us.body.version });
    expect(await used()).toBe(spent + 2);
    expect((await call(`/apps/${appId}`)).body.storefronts).toEqual(['GB', 'US']);
    expect((await call(`/apps/${appId}/metadata/changelog?country=GB`)).body).toMatchObject({
      observedSince: isoDay(today),
      changes: [],
    });

    const tomorrow = addDays(today, 1);
    expect((await refreshApp(appId, { through: tomorrow })).failures).toEqual([]);
    expect(
      await db.categoryRank.findMany({
        where: { storeAppId: await storeAppOf(appId), country: 'GB' },
        orderBy: { date: 'asc' },
        select: { date: true },
      }),
    ).toEqual([{ date: today }, { date: tomorrow }]);

    const refused = await call(`/apps/${appId}/metadata?country=FR`);
    expect(refused.status, JSON.stringify(refused.body)).toBe(404);
    expect(refused.body.detail).toBe(notSold);
    expect(await storefrontsOf(appId)).toEqual(['GB', 'US']);
  });
});
