// A Google Play app through the public API, on the `stores` provider replaying google-play-scraper's recorded answers
// (test/fixtures/google-play, two days): added by its store page's address, it gets keywords, ranks, competitors'
// ranks, reviews with insights, rating history with the histogram, category rank, and metadata with a changelog,
// through the same endpoints as an App Store app. Then Google Play goes down (503s, then calls that hang): the app
// keeps its data, served with its age, and nothing answers 5xx but a live answer never observed (503, not charged).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { addDays } from '@/server/core/dates';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { resetResearchCache } from '@/server/services/aso/research';
import { useDataProvider } from '@/server/services/ingest/providers';
import { refreshApp } from '@/server/services/ingest/refresh';
import { AppStoreProvider } from '@/server/services/ingest/stores/app-store/app-store-provider';
import {
  GooglePlayProvider,
  PLAY_SEARCH_DEPTH,
} from '@/server/services/ingest/stores/google-play/google-play-provider';
import { playLocale, type GooglePlayClient } from '@/server/services/ingest/stores/google-play/google-play-client';
import { createStoreGate } from '@/server/services/ingest/stores/store-calls';
import { StoresProvider } from '@/server/services/ingest/stores/stores-provider';
import { makeAccount } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';
import {
  failingPlayClient,
  GOOGLE_PLAY_PLAN as PLAN,
  playFixturePath,
  recordedPlayClient,
  recordedPlayDays,
} from '../../../test/stores/recorded-google-play';

const ORIGIN = 'http://api.test';
const [DAY_1, DAY_2] = recordedPlayDays().slice(-2) as [string, string];
const US = playLocale(PLAN.country);
const recorded = <T>(day: string, method: Parameters<typeof playFixturePath>[1], key: string): T =>
  JSON.parse(readFileSync(playFixturePath(day, method, US, key), 'utf8')) as T;
type Item = { appId: string };
type Details = {
  title: string;
  summary: string;
  score: number;
  ratings: number;
  histogram: Record<string, number>;
  genre: string;
  genreId: string;
  version: string;
  recentChanges: string;
};
const rankIn = (items: Item[], appId: string) => {
  const index = items.slice(0, PLAY_SEARCH_DEPTH).findIndex((item) => item.appId === appId);
  return index === -1 ? null : index + 1;
};

/** The stores provider with Google Play on `client`; the App Store is not asked here (no network in tests). */
function storesOn(client: GooglePlayClient): StoresProvider {
  const gate = createStoreGate(
    'google_play',
    { callsPerMinute: 60, concurrency: 2, timeoutMs: 300, retries: 1, minBackoffMs: 1, maxBackoffMs: 2 },
    async () => 0,
  );
  const offline = new AppStoreProvider(() => Promise.reject(new Error('the App Store is not asked in this test')));
  return new StoresProvider({ google_play: new GooglePlayProvider(client, gate), app_store: offline });
}

let key: string;
let accountId: string;
let restore: () => void;

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await callPublicApi(
    new Request(`${ORIGIN}/api/public/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: await response.json(), headers: response.headers };
}
const get = (path: string) => call('GET', path);

beforeAll(async () => {
  restore = useDataProvider(storesOn(recordedPlayClient(DAY_1)));
  const owner = await makeAccount('pro');
  accountId = owner.accountId;
  key = (await createApiKey(owner, { name: 'google play', scope: 'read-write' })).secret;
});

afterAll(() => {
  restore();
  resetResearchCache();
});

describe('a Google Play app through the public API, on recorded answers', () => {
  let appId: string;
  let keywordIds: Record<string, string>;

  it('is added by its store page’s address, with what Google Play says of it', async () => {
    const details = recorded<Details & { developer: string }>(DAY_1, 'app', PLAN.appId);
    const created = await call('POST', '/apps', {
      storeUrl: `https://play.google.com/store/apps/details?id=${PLAN.appId}&hl=en`,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      created: true,
      store: 'google_play',
      storeId: PLAN.appId,
      name: details.title,
      developer: details.developer,
      category: details.genre,
      lastObservedAt: null,
    });
    appId = created.body.id;
    const missing = await call('POST', '/apps', {
      storeUrl: `https://play.google.com/store/apps/details?id=${PLAN.missingId}`,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(new RegExp(`^Google Play has no app ${PLAN.missingId.replace(/\./g, '\\.')} `));

    const keywords = await call('POST', `/apps/${appId}/keywords`, { terms: PLAN.terms });
    expect(keywords.status).toBe(200);
    keywordIds = Object.fromEntries(
      keywords.body.added.map((keyword: { term: string; keywordId: string }) => [keyword.term, keyword.keywordId]),
    );
    const competitor = await call('POST', `/apps/${appId}/competitors`, {
      storeUrl: `https://play.google.com/store/apps/details?id=${PLAN.competitorId}`,
    });
    expect(competitor.status).toBe(200);
    expect(competitor.body.competitor).toMatchObject({
      storeId: PLAN.competitorId,
      name: recorded<Details>(DAY_1, 'app', PLAN.competitorId).title,
    });

    // Two days observed: the first (the backfill of a live store is its day), then the next.
    expect((await refreshApp(appId, { through: new Date(`${DAY_1}T00:00:00Z`) })).failures).toEqual([]);
    useDataProvider(storesOn(recordedPlayClient(DAY_2)));
    expect((await refreshApp(appId, { through: new Date(`${DAY_2}T00:00:00Z`) })).failures).toEqual([]);
    const app = await get(`/apps/${appId}`);
    expect(app.body).toMatchObject({ dataThrough: DAY_2, lastObservedAt: expect.any(String) });
  });

  it('gets its keywords’ ranks, volume and difficulty, and their history beside the competitor’s', async () => {
    const list = await get(`/apps/${appId}/keywords?rankWindow=1d`);
    expect(list.status).toBe(200);
    for (const term of PLAN.terms) {
      const item = list.body.find((entry: { term: string }) => entry.term === term);
      const [then, now] = [DAY_1, DAY_2].map((day) => rankIn(recorded<Item[]>(day, 'search', term), PLAN.appId));
      expect(item).toMatchObject({
        rank: now,
        rankDelta: then! - now!,
        volume: expect.any(Number),
        difficulty: expect.any(Number),
      });
      const history = await get(`/apps/${appId}/keywords/${keywordIds[term]}/history?days=30`);
      expect(history.body.points.filter((point: { rank: number | null }) => point.rank !== null)).toEqual([
        { date: DAY_1, rank: then, status: 'ranked' },
        { date: DAY_2, rank: now, status: 'ranked' },
      ]);
      const competitorPoints: { date: string; rank: number | null }[] = history.body.competitors[0].points;
      expect([DAY_1, DAY_2].map((day) => competitorPoints.find((point) => point.date === day)?.rank)).toEqual(
        [DAY_1, DAY_2].map((day) => rankIn(recorded<Item[]>(day, 'search', term), PLAN.competitorId)),
      );
      const metrics = await get(`/apps/${appId}/keywords/${keywordIds[term]}/metrics-history?days=30`);
      expect(metrics.body.points.filter((point: { volume: number | null }) => point.volume !== null)).toHaveLength(2);
    }
  });

  it('gets its reviews, analysed, and their insights', async () => {
    const stored = [DAY_1, DAY_2].flatMap((day) =>
      recorded<{ data: { id: string }[] }>(day, 'reviews', PLAN.appId).data.map((review) => review.id),
    );
    const reviews = await get(`/apps/${appId}/reviews?pageSize=100`);
    expect(reviews.status).toBe(200);
    const items = reviews.body.items;
    expect(items).toHaveLength(new Set(stored).size);
    expect(items[0]).toMatchObject({ rating: expect.any(Number), sentiment: expect.anything() });
    const insights = await get(`/apps/${appId}/reviews/insights`);
    expect(insights.status).toBe(200);
    // The recorded reviews report crashes and ask for an offline mode.
    expect(insights.body.bugReports.count).toBeGreaterThan(0);
    expect(insights.body.featureRequests.count).toBeGreaterThan(0);
  });

  it('gets its rating history with Google Play’s histogram, and its category rank', async () => {
    const ratings = await get(`/apps/${appId}/rating-history`);
    expect(ratings.body.points).toEqual(
      [DAY_1, DAY_2].map((day) => {
        const details = recorded<Details>(day, 'app', PLAN.appId);
        return {
          date: day,
          average: Math.round(details.score * 100) / 100,
          count: details.ratings,
          histogram: details.histogram,
        };
      }),
    );
    const chart = await get(`/apps/${appId}/category-rank`);
    const genreId = recorded<Details>(DAY_2, 'app', PLAN.appId).genreId;
    expect(
      chart.body.points
        .filter((point: { rank: number | null }) => point.rank !== null)
        .map((point: { rank: number }) => point.rank),
    ).toEqual([DAY_1, DAY_2].map((day) => rankIn(recorded<Item[]>(day, 'topFree', genreId), PLAN.appId)));
  });

  it('gets its metadata, and the changelog of what changed between the two days', async () => {
    const [before, after] = [DAY_1, DAY_2].map((day) => recorded<Details>(day, 'app', PLAN.appId));
    const metadata = await get(`/apps/${appId}/metadata`);
    expect(metadata.status).toBe(200);
    expect(JSON.stringify(metadata.body)).toContain(after!.version);
    const changelog = await get(`/apps/${appId}/metadata/changelog`);
    const changes = changelog.body.changes;
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'version', before: before!.version, after: after!.version }),
        expect.objectContaining({ field: 'subtitle', before: before!.summary, after: after!.summary }),
        expect.objectContaining({ field: 'whatsNew', before: before!.recentChanges, after: after!.recentChanges }),
      ]),
    );
  });

  it('researches a term live in Google Play', async () => {
    const research = await get(`/apps/${appId}/keywords/research?term=${encodeURIComponent(PLAN.searchTerm)}`);
    expect(research.status).toBe(200);
    expect(research.body.topApps[0]).toMatchObject({
      store: 'google_play',
      storeId: recorded<Item[]>(DAY_2, 'search', PLAN.searchTerm)[0]!.appId,
    });
    expect(research.body.yourRank).toBe(rankIn(recorded<Item[]>(DAY_2, 'search', PLAN.searchTerm), PLAN.appId));
  });

  describe('while Google Play is down', () => {
    const reads = () =>
      [
        '',
        '/keywords',
        '/reviews',
        '/rating-history',
        '/category-rank',
        '/metadata',
        '/metadata/changelog',
        '/aso-score',
        '/keyword-spy',
      ].map((path) => `/apps/${appId}${path}`);

    it('keeps the last data, served with its age, and answers no 5xx', async () => {
      const before = await Promise.all(reads().map(get));
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      for (const failure of [{ status: 503 }, 'hang'] as const) {
        useDataProvider(storesOn(failingPlayClient(failure)));
        // A day not observed yet: one already stored is not asked of the store again.
        const summary = await refreshApp(appId, { through: addDays(new Date(`${DAY_2}T00:00:00Z`), 1) });
        expect(summary.failures).toEqual([
          {
            country: PLAN.country,
            error: expect.stringMatching(failure === 'hang' ? /did not answer within/ : /Google Play answered 503/),
            notSold: false,
          },
        ]);
        const during = await Promise.all(reads().map(get));
        expect(during.map((answer) => answer.status)).toEqual(reads().map(() => 200));
        expect(during.map((answer) => answer.body)).toEqual(before.map((answer) => answer.body));
        // The age: when the store last answered, unchanged.
        expect(during[0]!.body.lastObservedAt).toBe(before[0]!.body.lastObservedAt);
      }
      const app = await db.trackedApp.findUniqueOrThrow({ where: { id: appId }, include: { storefronts: true } });
      expect(app.lastProviderError).toMatch(/did not answer within/);
      expect(app.storefronts[0]).toMatchObject({
        lastError: expect.stringMatching(/did not answer within/),
        lastObservedAt: app.lastObservedAt,
      });
    });

    it('answers research with the store’s last answer and when it was read; a term never observed, 503 store-unavailable, not charged', async () => {
      useDataProvider(storesOn(failingPlayClient({ status: 503 })));
      const live = await get(`/apps/${appId}/keywords/research?term=${encodeURIComponent(PLAN.searchTerm)}`);
      expect(live.status).toBe(200);
      expect(live.body.topApps.length).toBeGreaterThan(0);
      const usage = async () => (await db.creditUsage.findFirst({ where: { accountId } }))?.used ?? 0;
      const spent = await usage();
      const never = await get(`/apps/${appId}/keywords/research?term=never%20observed%20anywhere`);
      expect(never.status).toBe(503);
      expect(never.body).toMatchObject({ code: 'store-unavailable', status: 503 });
      expect(never.headers.get('retry-after')).toBe('60');
      expect(await usage()).toBe(spent);
      const adding = await call('POST', '/apps', {
        storeUrl: 'https://play.google.com/store/apps/details?id=com.example.new.app',
      });
      expect(adding.status).toBe(503);
      expect(adding.body.code).toBe('store-unavailable');
      expect(await db.trackedApp.count({ where: { accountId, storeId: 'com.example.new.app' } })).toBe(0);
      vi.restoreAllMocks();
    });
  });
});
