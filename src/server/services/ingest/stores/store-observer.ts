// What each store's half of the `stores` provider (./stores-provider.ts) answers, and what they share: how a search
// answer becomes ranks and keyword estimates, a place in a list, and which reviews are kept.
import type { Store } from '@/generated/prisma/enums';
import type {
  AppDetails,
  AppObservation,
  CompetitorReference,
  ObservationRequest,
  ProviderApp,
  ResearchResult,
  StoreReference,
  StoreSearchResult,
} from '../provider';
import { keywordMetrics, type SearchSignals } from './keyword-scores';

/** One store's half of the `stores` provider: the same questions, for that store's apps. */
export interface StoreObserver {
  readonly store: Store;
  observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation>;
  research(term: string, country: string, day: Date): Promise<ResearchResult>;
  describe(reference: StoreReference, country: string): Promise<AppDetails | null>;
  searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]>;
}

/** A request a customer waits on gets a turn under the store's rate within this, or fails (research then answers its last observation). */
export const REQUEST_MAX_WAIT_MS = 5_000;

/** The 1-based place of `id` among `ids` (a search answer, a chart, best first); null when it is not among them. */
export function placeOf(ids: readonly string[], id: string): number | null {
  const index = ids.indexOf(id);
  return index === -1 ? null : index + 1;
}

/** A review worth storing: a whole rating of 1 to 5 stars and a date that reads. */
export function isStorableReview(rating: number, reviewedAt: Date): boolean {
  return Number.isInteger(rating) && rating >= 1 && rating <= 5 && !Number.isNaN(reviewedAt.getTime());
}

/** A tracked term as one search answer shows it: the apps' ids in order, and the signals the estimates read. */
export interface TermSearch {
  ids: string[];
  signals: SearchSignals;
}

/**
 * A storefront's tracked terms, one search answer each: the app's rank, the keyword estimates, and the places of the
 * store's own competitors in the same answer (no call of their own; the other store's competitors are not in it).
 */
export async function observeTerms(
  store: Store,
  app: ProviderApp,
  request: ObservationRequest,
  country: string,
  into: AppObservation,
  searchTerm: (term: string) => Promise<TermSearch>,
): Promise<void> {
  for (const { term } of request.trackedTerms.filter((entry) => entry.country === country)) {
    const { ids, signals } = await searchTerm(term);
    into.searchAnswers.push({ country, term, storeIds: ids });
    addPlacesInAnswer(store, app.storeId, request.competitors, { country, term }, ids, into);
    into.keywordMetrics.push({ country, term, ...keywordMetrics(signals, request.day) });
  }
}

/**
 * The ranks a search answer (just searched, or stored by any account's refresh) gives the app and its competitors:
 * their places in the list. A store's search lists its own apps only: the other store's competitors are in none.
 */
export function addPlacesInAnswer(
  store: Store,
  appStoreId: string,
  competitors: CompetitorReference[],
  { country, term }: { country: string; term: string },
  ids: readonly string[],
  into: AppObservation,
): void {
  into.keywordRanks.push({ country, term, rank: placeOf(ids, appStoreId) });
  for (const competitor of competitors.filter((entry) => entry.store === store)) {
    into.competitorRanks.push({ country, term, ...competitor, rank: placeOf(ids, competitor.storeId) });
  }
}
