// The `stores` provider's Google Play half, on google-play-scraper (./google-play-client.ts): app details (listing,
// rating, rating histogram and count), search ranks for tracked terms per country and language, reviews, and the
// top free chart of the app's category. No history: each refresh observes the current day. Google Play has no
// keyword field, promotional text or review title; its short description is the listing's `subtitle`.
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import {
  emptyObservation,
  type AppDetails,
  type AppObservation,
  type Listing,
  type ObservationRequest,
  type ProviderApp,
  type RatingHistogram,
  type ResearchResult,
  type ReviewRecord,
  type StoreReference,
  type StoreSearchResult,
} from '../../provider';
import { keywordMetrics, type SearchSignals } from '../keyword-scores';
import { statusOf, storeGate, storePolicy, type StoreCallOptions, type StoreGate } from '../store-calls';
import { isStorableReview, observeTerms, placeOf, REQUEST_MAX_WAIT_MS, type StoreObserver } from '../store-observer';
import {
  playAppDetails,
  playListItem,
  playLocale,
  playReview,
  playReviews,
  scraperClient,
  type GooglePlayClient,
  type PlayAppDetails,
  type PlayListItem,
  type PlayLocale,
} from './google-play-client';

/** Search results read for ranks: each page past the first is another request to Google, so ranks end at 100. */
export const PLAY_SEARCH_DEPTH = 100;
const CHART_DEPTH = 200;
const REVIEWS_PER_OBSERVATION = 100;
/** Top results whose details (installs) the keyword estimates read; aso reads 10, each one more call. */
const DETAILED_TOP_RESULTS = 3;

function playStoreUrl(appId: string): string {
  return `https://play.google.com/store/apps/details?id=${encodeURIComponent(appId)}`;
}

function listingOf(details: PlayAppDetails): Listing {
  return {
    title: details.title,
    subtitle: details.summary ?? null,
    description: details.description ?? '',
    keywordField: null,
    promotionalText: null,
    whatsNew: details.recentChanges ?? null,
    screenshotsCount: (details.screenshots ?? []).length,
    hasVideo: Boolean(details.video),
    price: (details.price ?? 0).toFixed(2),
    currency: details.currency ?? 'USD',
    version: details.version ?? '',
  };
}

/** The rating histogram as stored: counts of 1 to 5 stars, or null when Google Play's page had none. */
function histogramOf(details: PlayAppDetails): RatingHistogram | null {
  const histogram = details.histogram;
  if (!histogram) return null;
  const stars = ['1', '2', '3', '4', '5'] as const;
  if (stars.some((star) => typeof histogram[star] !== 'number')) return null;
  return Object.fromEntries(stars.map((star) => [star, histogram[star]!])) as RatingHistogram;
}

export class GooglePlayProvider implements StoreObserver {
  readonly store = 'google_play' as const;
  /** Details and suggestions shared by the terms of a refresh (the same top apps come back for many terms). */
  private readonly memo = new LRUCache<string, Promise<unknown>>({ max: 5_000, ttl: 6 * 3_600_000 });

  constructor(
    private readonly client: GooglePlayClient = scraperClient(storePolicy('google_play').timeoutMs),
    private readonly gate: StoreGate = storeGate('google_play'),
  ) {}

  /** One call through the gate, its answer checked: an answer the library could not read is not retried. */
  private async ask<T extends z.ZodType>(
    what: string,
    schema: T,
    run: () => Promise<unknown>,
    options?: StoreCallOptions,
  ): Promise<z.output<T>> {
    const answer = await this.gate.call(what, run, options);
    const parsed = schema.safeParse(answer);
    if (!parsed.success)
      throw new Error(
        `${what}: Google Play's answer could not be read (${parsed.error.issues[0]?.message ?? 'unexpected shape'})`,
      );
    return parsed.data;
  }

  private async search(
    term: string,
    num: number,
    locale: PlayLocale,
    options?: StoreCallOptions,
  ): Promise<PlayListItem[]> {
    const answer = await this.ask(
      `search '${term}' in ${locale.country}`,
      playListItem.array(),
      () => this.client.search(term, num, locale),
      options,
    );
    return answer.slice(0, num);
  }

  /** The answer asked under `key` within the memo's time, or `ask()`'s; a failed answer is not kept. */
  private remembered<T>(key: string, ask: () => Promise<T>, { fresh = false } = {}): Promise<T> {
    const cached = fresh ? undefined : (this.memo.get(key) as Promise<T> | undefined);
    if (cached) return cached;
    const asked = ask();
    this.memo.set(key, asked);
    asked.catch(() => this.memo.delete(key));
    return asked;
  }

  /** `fresh`: today's details, not those the keyword estimates may have read hours ago. */
  private details(
    appId: string,
    locale: PlayLocale,
    { fresh = false, ...options }: StoreCallOptions & { fresh?: boolean } = {},
  ): Promise<PlayAppDetails> {
    return this.remembered(
      `app|${locale.country}|${appId}`,
      () =>
        this.ask(`app ${appId} in ${locale.country}`, playAppDetails, () => this.client.app(appId, locale), options),
      { fresh },
    );
  }

  private suggestions(prefix: string, locale: PlayLocale): Promise<string[]> {
    return this.remembered(`suggest|${locale.country}|${locale.lang}|${prefix}`, () =>
      this.ask(`suggest '${prefix}' in ${locale.country}`, z.array(z.string()), () =>
        this.client.suggest(prefix, locale),
      ),
    );
  }

  /**
   * aso's strongest traffic signal: the shortest prefix whose suggestions hold the term. aso tries every length from
   * one letter up (as many calls as letters); a third, two thirds and the whole term are tried here.
   */
  private async suggestion(term: string, locale: PlayLocale): Promise<SearchSignals['suggestion']> {
    const wanted = term.toLowerCase();
    const lengths = [
      ...new Set([Math.ceil(wanted.length / 3), Math.ceil((2 * wanted.length) / 3), wanted.length]),
    ].filter((length) => length > 0);
    for (const length of lengths) {
      const index = (await this.suggestions(wanted.slice(0, length), locale))
        .map((entry) => entry.toLowerCase())
        .indexOf(wanted);
      if (index !== -1) return { prefixLength: length, index };
    }
    return null;
  }

  private async signals(
    term: string,
    results: PlayListItem[],
    locale: PlayLocale,
    options?: StoreCallOptions,
  ): Promise<{ signals: SearchSignals; detailed: PlayAppDetails[] }> {
    const detailed = await Promise.all(
      results.slice(0, DETAILED_TOP_RESULTS).map((result) => this.details(result.appId, locale, options)),
    );
    return {
      detailed,
      signals: {
        term,
        resultCount: results.length,
        maxResults: PLAY_SEARCH_DEPTH,
        popularityCeiling: 1_000_000,
        top: detailed.map((details) => ({
          title: details.title,
          rating: details.score ?? null,
          popularity: details.minInstalls ?? null,
          updatedAt: details.updated ? new Date(details.updated) : null,
        })),
        suggestion: await this.suggestion(term, locale),
      },
    };
  }

  async observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation> {
    const observation = emptyObservation();
    const options = { maxWaitMs: request.maxWaitMs };
    for (const country of request.countries) {
      const locale = playLocale(country);
      await observeTerms(this.store, app, request, country, observation, async (term) => {
        const results = await this.search(term, PLAY_SEARCH_DEPTH, locale, options);
        return {
          ids: results.map((result) => result.appId),
          signals: (await this.signals(term, results, locale, options)).signals,
        };
      });
      if (request.scope === 'keywords') continue;
      const details = await this.details(app.storeId, locale, { fresh: true, ...options });
      if (country === app.primaryCountry && typeof details.score === 'number') {
        observation.rating = {
          average: Math.round(details.score * 100) / 100,
          count: details.ratings ?? 0,
          histogram: histogramOf(details),
        };
      }
      observation.listings.push({ country, listing: listingOf(details) });
      if (details.genreId) {
        const chart = await this.ask(
          `top free ${details.genreId} in ${country}`,
          playListItem.array(),
          () => this.client.topFree(details.genreId!, CHART_DEPTH, locale),
          options,
        );
        observation.categoryRanks.push({
          country,
          category: details.genre ?? app.category,
          rank: placeOf(
            chart.map((entry) => entry.appId),
            app.storeId,
          ),
        });
      }
      observation.reviews.push(...(await this.reviews(app.storeId, locale, options)));
    }
    return observation;
  }

  private async reviews(appId: string, locale: PlayLocale, options?: StoreCallOptions): Promise<ReviewRecord[]> {
    const answer = await this.ask(
      `reviews of ${appId} in ${locale.country}`,
      playReviews,
      () => this.client.reviews(appId, REVIEWS_PER_OBSERVATION, locale),
      options,
    );
    return answer.data.flatMap((entry) => {
      const parsed = playReview.safeParse(entry);
      if (!parsed.success) return [];
      const review = parsed.data;
      const reviewedAt = new Date(review.date);
      if (!isStorableReview(review.score, reviewedAt)) return [];
      return [
        {
          storeReviewId: review.id,
          country: locale.country,
          rating: review.score,
          // Google Play reviews have no title.
          title: review.title ?? '',
          body: review.text ?? '',
          author: review.userName ?? '',
          version: review.version ?? null,
          reviewedAt,
        },
      ];
    });
  }

  async research(term: string, country: string, day: Date): Promise<ResearchResult> {
    const locale = playLocale(country);
    const options = { maxWaitMs: REQUEST_MAX_WAIT_MS };
    const results = await this.search(term, PLAY_SEARCH_DEPTH, locale, options);
    const { signals, detailed } = await this.signals(term, results, locale, options);
    return {
      term,
      country,
      ...keywordMetrics(signals, day),
      topApps: results.slice(0, 10).map((result, index) => ({
        rank: index + 1,
        store: 'google_play' as const,
        storeId: result.appId,
        name: result.title,
        developer: result.developer ?? '',
        rating: result.score ?? null,
        // Search answers carry no rating count: the top apps whose details were read have one.
        ratingCount: detailed[index]?.ratings ?? null,
        iconUrl: result.icon ?? null,
      })),
    };
  }

  async searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]> {
    const results = await this.search(term, limit, playLocale(country), { maxWaitMs: REQUEST_MAX_WAIT_MS });
    return results.map((result) => ({
      store: 'google_play' as const,
      storeId: result.appId,
      name: result.title,
      developer: result.developer ?? '',
      iconUrl: result.icon ?? null,
      storeUrl: playStoreUrl(result.appId),
    }));
  }

  async describe(reference: StoreReference, country: string): Promise<AppDetails | null> {
    try {
      const details = await this.details(reference.storeId, playLocale(reference.country ?? country), {
        maxWaitMs: REQUEST_MAX_WAIT_MS,
      });
      return {
        name: details.title,
        developer: details.developer ?? '',
        category: details.genre ?? '',
        iconUrl: details.icon ?? null,
        rating: details.score ?? null,
        ratingCount: details.ratings ?? null,
      };
    } catch (error) {
      // Google Play answers 404 for an app it does not have, or does not offer in that country.
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }
}
