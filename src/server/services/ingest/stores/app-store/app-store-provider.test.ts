// The App Store half of the stores provider on recorded answers of Apple's endpoints (test/fixtures/app-store), no
// network. Expected values are read from the recorded answers, so that a new recording keeps the tests true.
import { describe, expect, it } from 'vitest';
import {
  APP_STORE_PLAN as PLAN,
  loadAppStoreFixture,
  recordedFetch,
} from '../../../../../../test/stores/recorded-app-store';
import { keywordMetrics } from '../keyword-scores';
import { AppStoreProvider, searchSignals } from './app-store-provider';
import {
  chartEntry,
  chartFeed,
  entriesOf,
  reviewEntry,
  reviewsFeed,
  searchResponse,
  softwareResults,
  type SoftwareResult,
} from './itunes';

const country = PLAN.country.toLowerCase();
const lookup = () =>
  softwareResults(searchResponse.parse(loadAppStoreFixture(`lookup-${country}-${PLAN.appId}.json`)).results)[0]!;
const search = (term: string) =>
  softwareResults(
    searchResponse.parse(loadAppStoreFixture(`search-${country}-${term.replace(/ /g, '-')}.json`)).results,
  );
const rankIn = (results: SoftwareResult[], id: string) => {
  const index = results.findIndex((result) => String(result.trackId) === id);
  return index === -1 ? null : index + 1;
};

const app = {
  store: 'app_store' as const,
  storeId: PLAN.appId,
  bundleId: 'com.calm.calmapp',
  name: 'Calm',
  developer: 'Calm.com, Inc.',
  category: 'Health & Fitness',
  primaryCountry: PLAN.country,
};
const day = new Date('2026-11-21T00:00:00Z');

describe('AppStoreProvider', () => {
  it('observes rating, listing, chart position, keyword ranks, competitors’ ranks and reviews', async () => {
    const requested: string[] = [];
    const observation = await new AppStoreProvider(recordedFetch(requested)).observe(app, {
      day,
      countries: [PLAN.country],
      trackedTerms: PLAN.terms.map((term) => ({ country: PLAN.country, term })),
      competitors: [
        { store: 'app_store', storeId: PLAN.competitorId },
        { store: 'google_play', storeId: 'com.calm.android' },
      ],
      scope: 'full',
    });
    const details = lookup();
    expect(observation.rating).toEqual({
      average: Math.round(details.averageUserRating! * 100) / 100,
      count: details.userRatingCount,
      histogram: null,
    });
    expect(observation.keywordRanks).toEqual(
      PLAN.terms.map((term) => ({ country: PLAN.country, term, rank: rankIn(search(term), PLAN.appId) })),
    );
    // Read from the same search answers; Apple's search has no Google Play app to place.
    expect(observation.competitorRanks).toEqual(
      PLAN.terms.map((term) => ({
        country: PLAN.country,
        term,
        store: 'app_store',
        storeId: PLAN.competitorId,
        rank: rankIn(search(term), PLAN.competitorId),
      })),
    );
    expect(requested.filter((url) => url.includes('/search?'))).toHaveLength(PLAN.terms.length);
    expect(observation.keywordMetrics).toEqual(
      PLAN.terms.map((term) => ({
        country: PLAN.country,
        term,
        ...keywordMetrics(searchSignals(term, search(term)), day),
      })),
    );
    const chart = entriesOf(
      chartFeed.parse(loadAppStoreFixture(`chart-${country}-${details.primaryGenreId}.json`)).feed.entry,
    ).map((entry) => chartEntry.parse(entry).id.attributes['im:id']);
    expect(observation.categoryRanks).toEqual([
      { country: PLAN.country, category: details.primaryGenreName, rank: chart.indexOf(PLAN.appId) + 1 || null },
    ]);
    expect(observation.listings).toEqual([
      {
        country: PLAN.country,
        listing: expect.objectContaining({
          title: details.trackName,
          subtitle: null,
          keywordField: null,
          version: details.version,
          whatsNew: details.releaseNotes,
          screenshotsCount: details.screenshotUrls!.length,
          price: details.price!.toFixed(2),
          currency: details.currency,
        }),
      },
    ]);
    // An entry describing the app itself (older feeds open with one) and an entry with an impossible rating are skipped.
    const entries = entriesOf(
      reviewsFeed.parse(loadAppStoreFixture(`reviews-${country}-${PLAN.appId}.json`)).feed.entry,
    );
    const valid = entries.flatMap((entry) => {
      const parsed = reviewEntry.safeParse(entry);
      return parsed.success && /^[1-5]$/.test(parsed.data['im:rating'].label) ? [parsed.data] : [];
    });
    expect(valid.length).toBeLessThan(entries.length);
    expect(
      observation.reviews.map((review) => [
        review.storeReviewId,
        review.rating,
        review.version,
        review.reviewedAt.toISOString(),
      ]),
    ).toEqual(
      valid.map((review) => [
        review.id.label,
        Number(review['im:rating'].label),
        review['im:version']?.label ?? null,
        new Date(review.updated.label).toISOString(),
      ]),
    );
    expect(requested.every((url) => url.startsWith('https://itunes.apple.com/'))).toBe(true);
  });

  it('asks only for the keywords when a keyword was just added', async () => {
    const requested: string[] = [];
    const [term] = PLAN.terms as [string];
    const observation = await new AppStoreProvider(recordedFetch(requested)).observe(app, {
      day,
      countries: [PLAN.country],
      trackedTerms: [{ country: PLAN.country, term }],
      competitors: [],
      scope: 'keywords',
    });
    expect(requested).toHaveLength(1);
    expect(observation.listings).toEqual([]);
    expect(observation.keywordRanks).toEqual([{ country: PLAN.country, term, rank: rankIn(search(term), PLAN.appId) }]);
  });

  it('researches a term from the search results', async () => {
    const [term] = PLAN.terms as [string];
    const research = await new AppStoreProvider(recordedFetch()).research(term, PLAN.country, day);
    const results = search(term);
    expect(research.topApps.map((entry) => entry.storeId)).toEqual(
      results.slice(0, 10).map((result) => String(result.trackId)),
    );
    expect(research.topApps[0]).toMatchObject({
      rank: 1,
      name: results[0]!.trackName,
      ratingCount: results[0]!.userRatingCount ?? null,
    });
    expect({ volume: research.volume, difficulty: research.difficulty }).toEqual(
      keywordMetrics(searchSignals(term, results), day),
    );
  });

  it('describes an App Store app, and knows nothing of unknown ids', async () => {
    const provider = new AppStoreProvider(recordedFetch());
    const details = lookup();
    expect(
      await provider.describe(
        { store: 'app_store', storeId: PLAN.appId, country: PLAN.country, slug: null },
        PLAN.country,
      ),
    ).toEqual({
      name: details.trackName,
      developer: details.sellerName,
      category: details.primaryGenreName,
      iconUrl: details.artworkUrl512,
      rating: details.averageUserRating,
      ratingCount: details.userRatingCount,
    });
    expect(
      await provider.describe(
        { store: 'app_store', storeId: PLAN.missingId, country: PLAN.country, slug: null },
        PLAN.country,
      ),
    ).toBeNull();
  });

  it('searches the store by name for Add app: each result with the store page that adds it', async () => {
    const requested: string[] = [];
    const results = await new AppStoreProvider(recordedFetch(requested)).searchApps(PLAN.searchTerm, PLAN.country, 8);
    expect(requested).toEqual([expect.stringMatching(/\/search\?term=meditation&country=us&entity=software&limit=8$/)]);
    const stored = search(PLAN.searchTerm);
    expect(results).toHaveLength(Math.min(8, stored.length));
    expect(results[0]).toEqual({
      store: 'app_store',
      storeId: String(stored[0]!.trackId),
      name: stored[0]!.trackName,
      developer: stored[0]!.sellerName ?? stored[0]!.artistName ?? '',
      iconUrl: stored[0]!.artworkUrl100 ?? null,
      storeUrl: `https://apps.apple.com/us/app/id${stored[0]!.trackId}`,
    });
  });
});
