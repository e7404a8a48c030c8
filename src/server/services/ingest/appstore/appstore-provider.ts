// DATA_PROVIDER=appstore: what Apple's public endpoints show today. No history (each refresh observes the
// current day), App Store apps only (Google Play apps get empty observations), and estimates where Apple
// publishes no number: search volume and difficulty come from the popularity (rating counts) of a term's top
// results. Subtitle, keyword field, promotional text and preview video are not in Apple's public answers.
import type { AppDetails, AppObservation, DataProvider, Listing, ObservationRequest, ProviderApp, ResearchResult, ReviewRecord, StoreReference, StoreSearchResult } from '../provider';
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

export type FetchJson = (url: string) => Promise<unknown>;

const TIMEOUT_MS = 10_000;

export class ProviderError extends Error {}

export const fetchJsonFromNetwork: FetchJson = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { Accept: 'application/json' } });
  if (!response.ok) throw new ProviderError(`${new URL(url).pathname} answered ${response.status}`);
  return response.json();
};

/**
 * Volume and difficulty estimates from a term's top results. Popular terms surface apps with many ratings:
 * difficulty = 10 × mean log10(rating count + 1) of the top 10 (capped at 100); volume = the median rating count
 * of the top 10 divided by 50, scaled by result count (a term with few results has little demand).
 */
export function estimateMetrics(results: SoftwareResult[]): { volume: number; difficulty: number } {
  const top = results.slice(0, 10);
  if (!top.length) return { volume: 0, difficulty: 0 };
  const counts = top.map((result) => result.userRatingCount ?? 0).sort((a, b) => a - b);
  const median = counts[Math.floor(counts.length / 2)]!;
  const difficulty = Math.min(100, Math.round((10 * counts.reduce((sum, count) => sum + Math.log10(count + 1), 0)) / counts.length));
  const volume = Math.round((median / 50) * Math.min(1, results.length / 100));
  return { volume, difficulty };
}

export function listingOf(result: SoftwareResult): Listing {
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

export class AppStoreProvider implements DataProvider {
  readonly name = 'appstore' as const;
  readonly hasHistory = false;

  constructor(private readonly fetchJson: FetchJson = fetchJsonFromNetwork) {}

  private async lookup(id: string, country: string): Promise<SoftwareResult | null> {
    const answer = searchResponse.parse(await this.fetchJson(lookupUrl(id, country)));
    return softwareResults(answer.results)[0] ?? null;
  }

  private async search(term: string, country: string, limit = 200): Promise<SoftwareResult[]> {
    return softwareResults(searchResponse.parse(await this.fetchJson(searchUrl(term, country, limit))).results);
  }

  async observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation> {
    const empty: AppObservation = { rating: null, categoryRanks: [], keywordRanks: [], keywordMetrics: [], competitorRanks: [], listings: [], reviews: [] };
    if (app.store !== 'app_store') return empty;
    const observation = empty;
    for (const country of request.countries) {
      for (const { term } of request.trackedTerms.filter((entry) => entry.country === country)) {
        const results = await this.search(term, country);
        const rankOf = (storeId: string) => {
          const position = results.findIndex((result) => String(result.trackId) === storeId);
          return position === -1 ? null : position + 1;
        };
        observation.keywordRanks.push({ country, term, rank: rankOf(app.storeId) });
        observation.keywordMetrics.push({ country, term, ...estimateMetrics(results) });
        // The competitors' places in the same answer: no call of their own. Google Play competitors are not in it.
        for (const competitor of request.competitors.filter((entry) => entry.store === 'app_store')) {
          observation.competitorRanks.push({ country, term, ...competitor, rank: rankOf(competitor.storeId) });
        }
      }
      if (request.scope === 'keywords') continue;
      const result = await this.lookup(app.storeId, country);
      if (!result) continue;
      if (country === app.primaryCountry && result.averageUserRating !== undefined) {
        observation.rating = { average: Math.round(result.averageUserRating * 100) / 100, count: result.userRatingCount ?? 0 };
      }
      observation.listings.push({ country, listing: listingOf(result) });
      if (result.primaryGenreId) {
        const chart = chartFeed.parse(await this.fetchJson(chartUrl(result.primaryGenreId, country)));
        const ids = entriesOf(chart.feed.entry).flatMap((entry) => {
          const parsed = chartEntry.safeParse(entry);
          return parsed.success ? [parsed.data.id.attributes['im:id']] : [];
        });
        const position = ids.indexOf(app.storeId);
        observation.categoryRanks.push({ country, category: result.primaryGenreName ?? app.category, rank: position === -1 ? null : position + 1 });
      }
      observation.reviews.push(...(await this.reviews(app.storeId, country)));
    }
    return observation;
  }

  private async reviews(id: string, country: string): Promise<ReviewRecord[]> {
    const feed = reviewsFeed.parse(await this.fetchJson(reviewsUrl(id, country)));
    return entriesOf(feed.feed.entry).flatMap((entry) => {
      // Older feeds open with an entry describing the app itself; it has no rating and is skipped.
      const parsed = reviewEntry.safeParse(entry);
      if (!parsed.success) return [];
      const review = parsed.data;
      const rating = Number(review['im:rating'].label);
      const reviewedAt = new Date(review.updated.label);
      if (!Number.isInteger(rating) || rating < 1 || rating > 5 || Number.isNaN(reviewedAt.getTime())) return [];
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

  async research(term: string, country: string): Promise<ResearchResult> {
    const results = await this.search(term, country);
    return {
      term,
      country,
      ...estimateMetrics(results),
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
    return (await this.search(term, country, limit)).slice(0, limit).map((result) => ({
      store: 'app_store' as const,
      storeId: String(result.trackId),
      name: result.trackName,
      developer: result.sellerName ?? result.artistName ?? '',
      iconUrl: result.artworkUrl100 ?? null,
      storeUrl: `https://apps.apple.com/${country.toLowerCase()}/app/id${result.trackId}`,
    }));
  }

  async describe(reference: StoreReference, country: string): Promise<AppDetails | null> {
    if (reference.store !== 'app_store') return null;
    const result = await this.lookup(reference.storeId, reference.country ?? country);
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
