// Where the numbers come from. A DataProvider observes an app as the store shows it on a given day; the
// refresh job (refresh.ts) stores what it sees. Two implementations: `demo` (deterministic, with history) and
// `stores` (what the App Store and Google Play show today, ./stores/stores-provider.ts). Chosen by DATA_PROVIDER.
import type { TrackedApp } from '@/generated/prisma/client';
import type { Store } from '@/generated/prisma/enums';

/** What a provider needs to know of a tracked app. */
export type ProviderApp = Pick<
  TrackedApp,
  'store' | 'storeId' | 'bundleId' | 'name' | 'developer' | 'category' | 'primaryCountry'
>;

export interface Listing {
  title: string;
  subtitle: string | null;
  description: string;
  keywordField: string | null;
  promotionalText: string | null;
  whatsNew: string | null;
  screenshotsCount: number;
  hasVideo: boolean;
  price: string;
  currency: string;
  version: string;
}

export interface ReviewRecord {
  storeReviewId: string;
  country: string;
  rating: number;
  title: string;
  body: string;
  author: string;
  version: string | null;
  reviewedAt: Date;
}

/** Counts of ratings by stars, "1" to "5". */
export type RatingHistogram = Record<'1' | '2' | '3' | '4' | '5', number>;

export interface AppObservation {
  /** The store's rating, read in the app's primary storefront; the histogram where the store shows one (Google Play). */
  rating: { average: number; count: number; histogram: RatingHistogram | null } | null;
  categoryRanks: { country: string; category: string; rank: number | null }[];
  /**
   * Tracked terms (rank null when unranked) and every other term the app ranks for. `discovered`: the provider found
   * the app ranking for the term on its own (the demo's scan of its category's vocabulary), not only because the term
   * was asked about. Only discovered terms are shown to an account that does not track them: which terms an account
   * tracks is its own to know.
   */
  keywordRanks: { country: string; term: string; rank: number | null; discovered?: boolean }[];
  keywordMetrics: { country: string; term: string; volume: number; difficulty: number }[];
  /** Each competitor's rank (null when unranked) for each tracked term, from the same search answers. */
  competitorRanks: { country: string; term: string; store: Store; storeId: string; rank: number | null }[];
  /**
   * What the store's search answered for each term searched: the apps' store ids, best first. Stored once and shared by
   * every app and competitor that tracks the term there (docs/architecture.md, "Store facts"). None from the demo
   * provider, which models each app's rank on its own rather than the store's lists.
   */
  searchAnswers: { country: string; term: string; storeIds: string[] }[];
  listings: { country: string; listing: Listing }[];
  reviews: ReviewRecord[];
}

export function emptyObservation(): AppObservation {
  return {
    rating: null,
    categoryRanks: [],
    keywordRanks: [],
    keywordMetrics: [],
    competitorRanks: [],
    searchAnswers: [],
    listings: [],
    reviews: [],
  };
}

/** A competitor as a provider finds it in a store's answers. */
export type CompetitorReference = { store: Store; storeId: string };

export interface ObservationRequest {
  /** UTC day observed. */
  day: Date;
  /** Storefronts to observe: the app's primary country and those of its tracked keywords. */
  countries: string[];
  trackedTerms: { country: string; term: string }[];
  /** The app's competitors, whose ranks for the tracked terms are wanted. */
  competitors: CompetitorReference[];
  /** 'keywords': only ranks and metrics of the tracked terms are needed (a keyword was just added). */
  scope: 'full' | 'keywords';
  /**
   * Set when a customer's request waits on the observation (a storefront's first read): the longest wait for a turn
   * under the store's shared rate before a call fails (stores/store-calls.ts). Unset, the background's: as long as it takes.
   */
  maxWaitMs?: number;
}

export interface ResearchResult {
  term: string;
  country: string;
  volume: number;
  difficulty: number;
  topApps: {
    rank: number;
    store: Store;
    storeId: string;
    name: string;
    developer: string;
    rating: number | null;
    ratingCount: number | null;
    iconUrl: string | null;
  }[];
}

export interface StoreReference {
  store: Store;
  storeId: string;
  /** Storefront named in the URL, if any. */
  country: string | null;
  /** Slug of an App Store URL, a hint of the app's name. */
  slug: string | null;
}

export interface AppDetails {
  name: string;
  developer: string;
  category: string;
  iconUrl: string | null;
  rating: number | null;
  ratingCount: number | null;
}

/** An app the store's search answers, as the dashboard's Add app offers it. */
export interface StoreSearchResult {
  store: Store;
  storeId: string;
  name: string;
  developer: string;
  iconUrl: string | null;
  /** Its store page, which adds it. */
  storeUrl: string;
}

export interface DataProvider {
  readonly name: 'demo' | 'stores';
  /** Whether past days can be observed (backfill); the live store only shows today. */
  readonly hasHistory: boolean;
  observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation>;
  /** A term in a storefront of `store`, as that store's search shows it (the store of the app it is researched for). */
  research(term: string, country: string, day: Date, store: Store): Promise<ResearchResult>;
  describe(reference: StoreReference, country: string): Promise<AppDetails | null>;
  /** Apps whose name matches `term` in a storefront, best match first. */
  searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]>;
}
