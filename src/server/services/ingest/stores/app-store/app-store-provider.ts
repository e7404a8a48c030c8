// The `stores` provider's App Store half: what Apple's public iTunes endpoints show today (./itunes.ts). No history
// (each refresh observes the current day). Subtitle, keyword field, promotional text and preview video are not in
// Apple's public answers, nor is a rating histogram.
//
// Written against the endpoints rather than on app-store-scraper: that library is built on the same endpoints, but
// on `request`, deprecated since 2020 and carrying advisories (form-data, tough-cookie) it will not be rid of, and
// without timeouts or a way to share a rate across processes; these four calls are short, checked with zod, and
// recorded answers replay through exactly this code.
import {
  emptyObservation,
  type AppDetails,
  type AppObservation,
  type Listing,
  type ObservationRequest,
  type ProviderApp,
  type ResearchResult,
  type ReviewRecord,
  type StoreReference,
  type StoreSearchResult,
} from '../../provider';
import { keywordMetrics, type SearchSignals } from '../keyword-scores';
import { StoreCallError, storeGate, type StoreCallOptions, type StoreGate } from '../store-calls';
import { isStorableReview, observeTerms, placeOf, REQUEST_MAX_WAIT_MS, type StoreObserver } from '../store-observer';
import {
  chartEntry,
  chartFeed,
  chartUrl,
  entriesOf,
  lookupUrl,
  reviewEntry,
  reviewsFeed,
  reviewsUrl,
  searchResponse,
  searchUrl,
  softwareResults,
  type SoftwareResult,
} from './itunes';

export type FetchJson = (url: string, options?: StoreCallOptions) => Promise<unknown>;

/** Results Apple's search answers at most. */
const MAX_SEARCH_RESULTS = 200;

async function fetchJsonFromNetwork(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { Accept: 'application/json' },
  });
  if (!response.ok)
    throw new StoreCallError('app_store', `${new URL(url).pathname} answered ${response.status}`, response.status);
  return response.json();
}

/** Apple's endpoints through a gate: paced, timed and retried (../store-calls.ts). */
export function fetchJsonThrough(gate: () => StoreGate): FetchJson {
  return (url, options) =>
    gate().call(new URL(url).pathname, (timeoutMs) => fetchJsonFromNetwork(url, timeoutMs), options);
}

/** Through the App Store's gate in this process (made at the first call: it reads the configuration). */
const fetchJsonThroughGate = fetchJsonThrough(() => storeGate('app_store'));

/** The search answer as keyword-scores reads it: aso reads the rating counts of the App Store's top results. */
export function searchSignals(term: string, results: SoftwareResult[]): SearchSignals {
  return {
    term,
    resultCount: results.length,
    maxResults: MAX_SEARCH_RESULTS,
    popularityCeiling: 100_000,
    top: results.slice(0, 10).map((result) => ({
      title: result.trackName,
      rating: result.averageUserRating ?? null,
      popularity: result.userRatingCount ?? null,
      updatedAt: result.currentVersionReleaseDate ? new Date(result.currentVersionReleaseDate) : null,
    })),
  };
}

function listingOf(result: SoftwareResult): Listing {
  return {
    title: result.trackName,
    subtitle: null,
    description: result.description ?? '',
    keywordField: null,
    promotionalText: null,
    whatsNew: result.releaseNotes ?? null,
    screenshotsCount: (result.screenshotUrls ?? []).length,
    hasVideo: false,
    price: (result.price ?? 0).toFixed(2),
    currency: result.currency ?? 'USD',
    version: result.version ?? '',
  };
}

export class AppStoreProvider implements StoreObserver {
  readonly store = 'app_store' as const;

  constructor(private readonly fetchJson: FetchJson = fetchJsonThroughGate) {}

  private async lookup(id: string, country: string, options?: StoreCallOptions): Promise<SoftwareResult | null> {
    const answer = searchResponse.parse(await this.fetchJson(lookupUrl(id, country), options));
    return softwareResults(answer.results)[0] ?? null;
  }

  private async search(
    term: string,
    country: string,
    limit = MAX_SEARCH_RESULTS,
    options?: StoreCallOptions,
  ): Promise<SoftwareResult[]> {
    return softwareResults(
      searchResponse.parse(await this.fetchJson(searchUrl(term, country, limit), options)).results,
    );
  }

  async observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation> {
    const observation = emptyObservation();
    const options = { maxWaitMs: request.maxWaitMs };
    for (const country of request.countries) {
      await observeTerms(this.store, app, request, country, observation, async (term) => {
        const results = await this.search(term, country, MAX_SEARCH_RESULTS, options);
        return { ids: results.map((result) => String(result.trackId)), signals: searchSignals(term, results) };
      });
      if (request.scope === 'keywords') continue;
      const result = await this.lookup(app.storeId, country, options);
      if (!result)
        throw new StoreCallError(
          'app_store',
          `the App Store has no app ${app.storeId} in the ${country} storefront any more`,
          404,
        );
      if (country === app.primaryCountry && result.averageUserRating !== undefined) {
        observation.rating = {
          average: Math.round(result.averageUserRating * 100) / 100,
          count: result.userRatingCount ?? 0,
          histogram: null,
        };
      }
      observation.listings.push({ country, listing: listingOf(result) });
      if (result.primaryGenreId) {
        const chart = chartFeed.parse(await this.fetchJson(chartUrl(result.primaryGenreId, country), options));
        const ids = entriesOf(chart.feed.entry).flatMap((entry) => {
          const parsed = chartEntry.safeParse(entry);
          return parsed.success ? [parsed.data.id.attributes['im:id']] : [];
        });
        observation.categoryRanks.push({
          country,
          category: result.primaryGenreName ?? app.category,
          rank: placeOf(ids, app.storeId),
        });
      }
      observation.reviews.push(...(await this.reviews(app.storeId, country, options)));
    }
    return observation;
  }

  private async reviews(id: string, country: string, options?: StoreCallOptions): Promise<ReviewRecord[]> {
    const feed = reviewsFeed.parse(await this.fetchJson(reviewsUrl(id, country), options));
    return entriesOf(feed.feed.entry).flatMap((entry) => {
      // Older feeds open with an entry describing the app itself; it has no rating and is skipped.
      const parsed = reviewEntry.safeParse(entry);
      if (!parsed.success) return [];
      const review = parsed.data;
      const rating = Number(review['im:rating'].label);
      const reviewedAt = new Date(review.updated.label);
      if (!isStorableReview(rating, reviewedAt)) return [];
      return [
        {
          storeReviewId: review.id.label,
          country,
          rating,
          title: review.title.label,
          body: review.content.label,
          author: review.author.name.label,
          version: review['im:version']?.label ?? null,
          reviewedAt,
        },
      ];
    });
  }

  async research(term: string, country: string, day: Date): Promise<ResearchResult> {
    const results = await this.search(term, country, MAX_SEARCH_RESULTS, { maxWaitMs: REQUEST_MAX_WAIT_MS });
    return {
      term,
      country,
      ...keywordMetrics(searchSignals(term, results), day),
      topApps: results.slice(0, 10).map((result, index) => ({
        rank: index + 1,
        store: 'app_store' as const,
        storeId: String(result.trackId),
        name: result.trackName,
        developer: result.sellerName ?? result.artistName ?? '',
        rating: result.averageUserRating ?? null,
        ratingCount: result.userRatingCount ?? null,
        iconUrl: result.artworkUrl100 ?? null,
      })),
    };
  }

  async searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]> {
    return (await this.search(term, country, limit, { maxWaitMs: REQUEST_MAX_WAIT_MS }))
      .slice(0, limit)
      .map((result) => ({
        store: 'app_store' as const,
        storeId: String(result.trackId),
        name: result.trackName,
        developer: result.sellerName ?? result.artistName ?? '',
        iconUrl: result.artworkUrl100 ?? null,
        storeUrl: `https://apps.apple.com/${country.toLowerCase()}/app/id${result.trackId}`,
      }));
  }

  async describe(reference: StoreReference, country: string): Promise<AppDetails | null> {
    const result = await this.lookup(reference.storeId, reference.country ?? country, {
      maxWaitMs: REQUEST_MAX_WAIT_MS,
    });
    if (!result) return null;
    return {
      name: result.trackName,
      developer: result.sellerName ?? result.artistName ?? '',
      category: result.primaryGenreName ?? '',
      iconUrl: result.artworkUrl512 ?? result.artworkUrl100 ?? null,
      rating: result.averageUserRating ?? null,
      ratingCount: result.userRatingCount ?? null,
    };
  }
}
