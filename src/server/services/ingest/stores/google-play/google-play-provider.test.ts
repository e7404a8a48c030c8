// The Google Play half of the stores provider on recorded answers of google-play-scraper (test/fixtures/google-play),
// no network. Expected values are read from the recorded answers, so that a new recording keeps the tests true.
import { describe, expect, it } from 'vitest';
import {
  failingPlayClient,
  GOOGLE_PLAY_PLAN as PLAN,
  playFixturePath,
  recordedPlayClient,
  recordedPlayDays,
} from '../../../../../../test/stores/recorded-google-play';
import { readFileSync } from 'node:fs';
import { createStoreGate, StoreCallError, type StorePolicy } from '../store-calls';
import { playLocale, type GooglePlayClient } from './google-play-client';
import { GooglePlayProvider, PLAY_SEARCH_DEPTH } from './google-play-provider';

const DAY = recordedPlayDays().at(-1)!;
const US = playLocale(PLAN.country);
const recorded = <T>(method: Parameters<typeof playFixturePath>[1], key: string): T =>
  JSON.parse(readFileSync(playFixturePath(DAY, method, US, key), 'utf8')) as T;
type Item = { appId: string; title: string };
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
  screenshots: string[];
  video: string | null;
};

const policy: StorePolicy = {
  callsPerMinute: 60,
  concurrency: 1,
  timeoutMs: 200,
  retries: 2,
  minBackoffMs: 1,
  maxBackoffMs: 2,
};
const provider = (client: GooglePlayClient = recordedPlayClient(DAY)) =>
  new GooglePlayProvider(
    client,
    createStoreGate('google_play', policy, async () => 0),
  );
const app = {
  store: 'google_play' as const,
  storeId: PLAN.appId,
  bundleId: PLAN.appId,
  name: 'Calm',
  developer: 'Calm.com, Inc.',
  category: 'Health & Fitness',
  primaryCountry: PLAN.country,
};
const request = {
  day: new Date(`${DAY}T00:00:00Z`),
  countries: [PLAN.country],
  trackedTerms: PLAN.terms.map((term) => ({ country: PLAN.country, term })),
  competitors: [
    { store: 'google_play' as const, storeId: PLAN.competitorId },
    { store: 'app_store' as const, storeId: '571800810' },
  ],
  scope: 'full' as const,
};
const rankIn = (items: Item[], appId: string) => {
  const index = items.slice(0, PLAY_SEARCH_DEPTH).findIndex((item) => item.appId === appId);
  return index === -1 ? null : index + 1;
};

describe('GooglePlayProvider', () => {
  it('observes rating with its histogram, listing, category rank, keyword ranks per country and language, competitors’ ranks and reviews', async () => {
    const observation = await provider().observe(app, request);
    const details = recorded<Details>('app', PLAN.appId);

    expect(observation.rating).toEqual({
      average: Math.round(details.score * 100) / 100,
      count: details.ratings,
      histogram: details.histogram,
    });
    expect(observation.keywordRanks).toEqual(
      PLAN.terms.map((term) => ({
        country: PLAN.country,
        term,
        rank: rankIn(recorded<Item[]>('search', term), PLAN.appId),
      })),
    );
    expect(observation.keywordRanks.every((entry) => entry.rank !== null)).toBe(true);
    // Read from the same search answers; Google Play's search has no App Store app to place.
    expect(observation.competitorRanks).toEqual(
      PLAN.terms.map((term) => ({
        country: PLAN.country,
        term,
        store: 'google_play',
        storeId: PLAN.competitorId,
        rank: rankIn(recorded<Item[]>('search', term), PLAN.competitorId),
      })),
    );
    for (const metric of observation.keywordMetrics) {
      expect(metric.volume).toBeGreaterThan(0);
      expect(metric.difficulty).toBeGreaterThanOrEqual(0);
      expect(metric.difficulty).toBeLessThanOrEqual(100);
    }
    expect(observation.categoryRanks).toEqual([
      {
        country: PLAN.country,
        category: details.genre,
        rank: rankIn(recorded<Item[]>('topFree', details.genreId), PLAN.appId),
      },
    ]);
    expect(observation.listings).toEqual([
      {
        country: PLAN.country,
        listing: expect.objectContaining({
          title: details.title,
          subtitle: details.summary,
          keywordField: null,
          promotionalText: null,
          whatsNew: details.recentChanges,
          version: details.version,
          screenshotsCount: details.screenshots.length,
          hasVideo: Boolean(details.video),
          price: '0.00',
        }),
      },
    ]);
    const reviews = recorded<{ data: { id: string; score: number; text: string; date: string }[] }>(
      'reviews',
      PLAN.appId,
    ).data;
    expect(
      observation.reviews.map((review) => [
        review.storeReviewId,
        review.rating,
        review.body,
        review.reviewedAt.toISOString(),
        review.title,
      ]),
    ).toEqual(reviews.map((review) => [review.id, review.score, review.text, new Date(review.date).toISOString(), '']));
  });

  it('asks in the storefront’s language, and only for the keywords when a keyword was just added', async () => {
    const client = recordedPlayClient(DAY);
    await provider(client).observe(app, {
      ...request,
      trackedTerms: request.trackedTerms.slice(0, 1),
      competitors: [],
      scope: 'keywords',
    });
    expect(client.calls.every((call) => call.includes(`${PLAN.country}-${US.lang}`))).toBe(true);
    expect(client.calls.filter((call) => call.startsWith('search'))).toEqual([
      `search ${PLAN.country}-${US.lang} ${PLAN.terms[0]}`,
    ]);
    expect(client.calls.some((call) => call.startsWith('reviews') || call.startsWith('topFree'))).toBe(false);
    expect(playLocale('DE')).toEqual({ country: 'DE', lang: 'de' });
    expect(playLocale('BR')).toEqual({ country: 'BR', lang: 'pt' });
  });

  it('describes an app by its package name, and knows nothing of one Google Play does not have', async () => {
    const details = recorded<Details & { developer: string; icon: string }>('app', PLAN.competitorId);
    expect(
      await provider().describe(
        { store: 'google_play', storeId: PLAN.competitorId, country: null, slug: null },
        PLAN.country,
      ),
    ).toEqual({
      name: details.title,
      developer: details.developer,
      category: details.genre,
      iconUrl: details.icon,
      rating: details.score,
      ratingCount: details.ratings,
    });
    expect(
      await provider().describe(
        { store: 'google_play', storeId: PLAN.missingId, country: null, slug: null },
        PLAN.country,
      ),
    ).toBeNull();
  });

  it('researches a term: its top 10 from the search answer, rating counts where the details were read', async () => {
    const research = await provider().research(PLAN.searchTerm, PLAN.country, request.day);
    const items = recorded<Item[]>('search', PLAN.searchTerm);
    expect(research.topApps.map((entry) => entry.storeId)).toEqual(items.slice(0, 10).map((item) => item.appId));
    expect(research.topApps[0]).toMatchObject({
      rank: 1,
      store: 'google_play',
      ratingCount: recorded<Details>('app', items[0]!.appId).ratings,
    });
    expect(research.topApps[9]!.ratingCount).toBeNull();
    expect(research.volume).toBeGreaterThan(0);
  });

  it('searches by name for Add app: each result with the store page that adds it', async () => {
    const results = await provider().searchApps(PLAN.searchTerm, PLAN.country, 8);
    expect(results).toHaveLength(8);
    expect(results[0]).toMatchObject({
      store: 'google_play',
      storeUrl: `https://play.google.com/store/apps/details?id=${results[0]!.storeId}`,
    });
  });

  it('retries 503s with backoff, then fails with the store’s status; a 404 is not retried; a hung call times out', async () => {
    let calls = 0;
    const down = failingPlayClient({ status: 503 });
    const counting: GooglePlayClient = { ...down, search: (...args) => (calls++, down.search(...args)) };
    const failure = await provider(counting)
      .research('meditation', 'US', request.day)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreCallError);
    expect(failure).toMatchObject({ store: 'google_play', status: 503 });
    expect(calls).toBe(policy.retries + 1);

    calls = 0;
    const missing: GooglePlayClient = {
      ...down,
      app: () => (calls++, Promise.reject(Object.assign(new Error('App not found (404)'), { status: 404 }))),
    };
    expect(
      await provider(missing).describe(
        { store: 'google_play', storeId: 'com.nowhere', country: null, slug: null },
        'US',
      ),
    ).toBeNull();
    expect(calls).toBe(1);

    const hung = await provider(failingPlayClient('hang'))
      .searchApps('meditation', 'US', 8)
      .catch((error: unknown) => error);
    expect(hung).toMatchObject({
      name: 'StoreCallError',
      status: null,
      message: expect.stringContaining('did not answer within 0.2 s'),
    });
  });
});
