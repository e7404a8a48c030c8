// The App Store half of the stores provider on stored payloads of Apple's endpoints (test/fixtures/app-store), no network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keywordMetrics } from '../keyword-scores';
import { AppStoreProvider, searchSignals, type FetchJson } from './app-store-provider';
import { softwareResults } from './itunes';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../test/fixtures/app-store');
const load = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));

/** Maps each requested URL to its stored answer; an unexpected URL fails the test. */
function storedFetch(requested: string[]): FetchJson {
  const routes: [RegExp, string][] = [
    [/\/lookup\?id=1459969523&country=us&entity=software$/, 'lookup-us-1459969523.json'],
    [/\/lookup\?id=404404404&country=us&entity=software$/, 'lookup-us-404404404.json'],
    [/\/search\?term=sleep%20sounds&country=us&entity=software&limit=200$/, 'search-us-sleep-sounds.json'],
    [/\/search\?term=meditation&country=us&entity=software&limit=(200|8)$/, 'search-us-meditation.json'],
    [/\/us\/rss\/customerreviews\/page=1\/id=1459969523\/sortby=mostrecent\/json$/, 'reviews-us-1459969523.json'],
    [/\/us\/rss\/topfreeapplications\/limit=200\/genre=6013\/json$/, 'chart-us-6013.json'],
  ];
  return async (url) => {
    requested.push(url);
    const route = routes.find(([pattern]) => pattern.test(url));
    if (!route) throw new Error(`no stored answer for ${url}`);
    return load(route[1]);
  };
}

const breathe = {
  store: 'app_store' as const,
  storeId: '1459969523',
  bundleId: 'com.calmlabs.breathe',
  name: 'Breathe: Sleep & Meditation',
  developer: 'Calm Labs Inc.',
  category: 'Health & Fitness',
  primaryCountry: 'US',
};

describe('AppStoreProvider', () => {
  it('observes rating, listing, chart position, keyword ranks, competitors’ ranks and reviews', async () => {
    const requested: string[] = [];
    const provider = new AppStoreProvider(storedFetch(requested));
    const observation = await provider.observe(breathe, {
      day: new Date('2026-11-21T00:00:00Z'),
      countries: ['US'],
      trackedTerms: [
        { country: 'US', term: 'sleep sounds' },
        { country: 'US', term: 'meditation' },
      ],
      competitors: [
        { store: 'app_store', storeId: '1000007919' },
        { store: 'google_play', storeId: 'com.calm.android' },
      ],
      scope: 'full',
    });
    expect(observation.rating).toEqual({ average: 4.15, count: 126745, histogram: null });
    expect(observation.keywordRanks).toEqual([
      { country: 'US', term: 'sleep sounds', rank: 3 },
      { country: 'US', term: 'meditation', rank: null },
    ]);
    // Read from the same two search answers; Apple's search has no Google Play app to place.
    expect(observation.competitorRanks).toEqual([
      { country: 'US', term: 'sleep sounds', store: 'app_store', storeId: '1000007919', rank: 2 },
      { country: 'US', term: 'meditation', store: 'app_store', storeId: '1000007919', rank: null },
    ]);
    expect(requested.filter((url) => url.includes('/search?'))).toHaveLength(2);
    expect(observation.keywordMetrics.map((metric) => metric.term)).toEqual(['sleep sounds', 'meditation']);
    expect(observation.categoryRanks).toEqual([{ country: 'US', category: 'Health & Fitness', rank: 42 }]);
    expect(observation.listings).toEqual([
      {
        country: 'US',
        listing: expect.objectContaining({
          title: 'Breathe: Sleep & Meditation',
          subtitle: null,
          keywordField: null,
          version: '4.9.2',
          whatsNew: 'Bug fixes and performance improvements.',
          screenshotsCount: 6,
          price: '0.00',
          currency: 'USD',
        }),
      },
    ]);
    // The app entry that opens the feed and an entry with an impossible rating are skipped.
    expect(observation.reviews.map((review) => [review.storeReviewId, review.rating, review.version])).toEqual([
      ['11001', 5, '4.9.2'],
      ['11002', 1, '4.9.2'],
      ['11003', 4, '4.9.1'],
    ]);
    expect(observation.reviews[0]!.reviewedAt.toISOString()).toBe('2026-11-21T05:14:03.000Z');
    expect(requested.every((url) => url.startsWith('https://itunes.apple.com/'))).toBe(true);
  });

  it('asks only for the keywords when a keyword was just added', async () => {
    const requested: string[] = [];
    const observation = await new AppStoreProvider(storedFetch(requested)).observe(breathe, {
      day: new Date(),
      countries: ['US'],
      trackedTerms: [{ country: 'US', term: 'sleep sounds' }],
      competitors: [],
      scope: 'keywords',
    });
    expect(requested).toHaveLength(1);
    expect(observation.listings).toEqual([]);
    expect(observation.keywordRanks).toEqual([{ country: 'US', term: 'sleep sounds', rank: 3 }]);
  });

  it('researches a term from the search results', async () => {
    const day = new Date('2026-11-21T00:00:00Z');
    const research = await new AppStoreProvider(storedFetch([])).research('sleep sounds', 'US', day);
    expect(research.topApps).toHaveLength(10);
    expect(research.topApps[2]).toMatchObject({ rank: 3, storeId: '1459969523', name: 'Breathe: Sleep & Meditation', developer: 'Calm Labs Inc.' });
    const results = softwareResults(load('search-us-sleep-sounds.json').results);
    expect({ volume: research.volume, difficulty: research.difficulty }).toEqual(keywordMetrics(searchSignals('sleep sounds', results), day));
  });

  it('describes an App Store app, and knows nothing of unknown ids', async () => {
    const provider = new AppStoreProvider(storedFetch([]));
    expect(await provider.describe({ store: 'app_store', storeId: '1459969523', country: 'US', slug: null }, 'US')).toMatchObject({
      name: 'Breathe: Sleep & Meditation',
      developer: 'Calm Labs Inc.',
      category: 'Health & Fitness',
      ratingCount: 126745,
    });
    expect(await provider.describe({ store: 'app_store', storeId: '404404404', country: 'US', slug: null }, 'US')).toBeNull();
  });

  it('searches the store by name for Add app: each result with the store page that adds it', async () => {
    const requested: string[] = [];
    const results = await new AppStoreProvider(storedFetch(requested)).searchApps('meditation', 'US', 8);
    expect(requested).toEqual([expect.stringMatching(/\/search\?term=meditation&country=us&entity=software&limit=8$/)]);
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(8);
    const stored = softwareResults(load('search-us-meditation.json').results)[0]!;
    expect(results[0]).toEqual({
      store: 'app_store',
      storeId: String(stored.trackId),
      name: stored.trackName,
      developer: stored.sellerName ?? stored.artistName ?? '',
      iconUrl: stored.artworkUrl100 ?? null,
      storeUrl: `https://apps.apple.com/us/app/id${stored.trackId}`,
    });
  });
});
