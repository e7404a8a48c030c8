// The default data provider: a deterministic generator of realistic store data for any app and any day.
// Volumes follow a Zipf-like law over terms, ranks and chart positions move like random walks, ratings drift,
// reviews arrive daily with real language, and listings change at each release.
import { epochDay } from '@/server/core/dates';
import { termKeyOf } from '@/server/services/apps/terms';
import type {
  AppDetails,
  AppObservation,
  CompetitorReference,
  DataProvider,
  Listing,
  ObservationRequest,
  ProviderApp,
  RatingHistogram,
  ResearchResult,
  StoreSearchResult,
  ReviewRecord,
  StoreReference,
} from '../provider';
import { clamp, hash32, remembered, SeededRandom, shuffled, smoothNoise, unit } from './random';
import { drawRating, writeReview } from './reviews';
import { FEATURES, GENERIC_FEATURES, vocabularyFor, vocabularyPlace } from './vocabulary';

/** Positions beyond this are "not ranked". */
const RANK_DEPTH = 200;
const CHART_DEPTH = 200;

/** Storefront size relative to the US, for volumes. */
const MARKET_SIZE: Record<string, number> = {
  US: 1,
  GB: 0.22,
  DE: 0.2,
  FR: 0.17,
  JP: 0.3,
  CA: 0.12,
  AU: 0.09,
  BR: 0.15,
  IN: 0.25,
  ES: 0.1,
  IT: 0.1,
};
const CURRENCY: Record<string, string> = {
  US: 'USD',
  GB: 'GBP',
  DE: 'EUR',
  FR: 'EUR',
  ES: 'EUR',
  IT: 'EUR',
  JP: 'JPY',
  CA: 'CAD',
  AU: 'AUD',
  BR: 'BRL',
  IN: 'INR',
};

/**
 * Zipf-like: volume ∝ 1/popularityRank^1.05. A category term's popularity rank follows its place in the
 * category vocabulary (listed head terms first); any other term's is log-uniform over 1…2,000, times its word
 * count (head terms are short).
 */
function popularityRank(key: string): number {
  const jitter = 1 + unit('popularity-jitter', key);
  const place = vocabularyPlace(key);
  if (place !== null) return (place + 1) * 2 * jitter;
  const words = key.split(' ').length;
  return Math.exp(unit('popularity', key) * Math.log(2_000)) * (1 + 0.8 * (words - 1));
}

/** What a term's volume and difficulty in a storefront are made of besides the day's noise. */
interface TermFacts {
  /** Before the season's noise. */
  volume: number;
  volumeNoise: string;
  competition: number;
  difficultyNoise: string;
}

/** termKeyOf, which a history asks of the same terms every day. */
const keyOf = remembered(10_000, termKeyOf);

const termFactsOf = remembered(10_000, (countryAndTerm): TermFacts => {
  const at = countryAndTerm.indexOf('\n');
  const country = countryAndTerm.slice(0, at);
  const key = keyOf(countryAndTerm.slice(at + 1));
  return {
    volume: (250_000 / Math.pow(popularityRank(key), 1.05)) * (MARKET_SIZE[country] ?? 0.05),
    volumeNoise: `volume|${country}|${key}`,
    competition: unit('competition', country, key) * 30 - 15,
    difficultyNoise: `difficulty|${country}|${key}`,
  };
});

function demoVolume(facts: TermFacts, day: number): number {
  const seasonal = 1 + 0.15 * smoothNoise(facts.volumeNoise, day, 14);
  return Math.max(5, Math.round(facts.volume * seasonal));
}

/** Harder for popular terms, with term-specific competition. */
function demoDifficulty(facts: TermFacts, volume: number, day: number): number {
  const drift = 3 * smoothNoise(facts.difficultyNoise, day, 30);
  return Math.round(clamp(12 + 14 * Math.log10(volume + 1) + facts.competition + drift, 1, 100));
}

/** A term's volume and difficulty in a storefront on a day. */
function demoMetrics(country: string, term: string, day: number): { volume: number; difficulty: number } {
  const facts = termFactsOf(`${country}\n${term}`);
  const volume = demoVolume(facts, day);
  return { volume, difficulty: demoDifficulty(facts, volume, day) };
}

/** Where an app usually ranks for a term in a storefront, and the keys of its walk around it. */
const rankFactsOf = remembered(20_000, (key) => ({
  base: 1 + Math.pow(unit('relevance', key), 1.4) * 260,
  walk: `rank|${key}`,
  jitter: `jitter|${key}`,
}));

function demoRank(app: CompetitorReference, country: string, term: string, day: number): number | null {
  // Relevance decides the usual position: the square skews towards the top, some terms sit beyond the depth.
  const facts = rankFactsOf(`${app.store}|${app.storeId}|${country}|${keyOf(term)}`);
  const walk = facts.base * (1 + 0.35 * smoothNoise(facts.walk, day, 9)) + 3 * smoothNoise(facts.jitter, day, 2);
  const rank = Math.round(clamp(walk, 1, 999));
  return rank > RANK_DEPTH ? null : rank;
}

function demoRating(app: ProviderApp, day: number): { average: number; count: number } {
  const key = `${app.store}|${app.storeId}`;
  const average = clamp(3.9 + unit('rating', key) * 0.8 + 0.08 * smoothNoise(`rating|${key}`, day, 30), 1, 5);
  const growth = 5 + Math.floor(unit('growth', key) * 60);
  const count = 2_000 + Math.floor(unit('initial', key) * 40_000) + growth * (day - 19_000);
  return { average: Math.round(average * 100) / 100, count: Math.max(0, count) };
}

/** Google Play shows how many ratings have each number of stars (the App Store's public answers do not): a shape that leans to the average. */
function demoHistogram(app: ProviderApp, rating: { average: number; count: number }): RatingHistogram | null {
  if (app.store !== 'google_play') return null;
  const lean = (rating.average - 3) * 1.1;
  const weights = [1, 2, 3, 4, 5].map((stars) => Math.exp(lean * (stars - 3)) * (stars === 1 ? 1.6 : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((weight) => Math.floor((rating.count * weight) / total));
  counts[4]! += rating.count - counts.reduce((a, b) => a + b, 0);
  return { '1': counts[0]!, '2': counts[1]!, '3': counts[2]!, '4': counts[3]!, '5': counts[4]! };
}

function demoCategoryRank(app: ProviderApp, country: string, day: number): number | null {
  const key = `${app.store}|${app.storeId}|${country}`;
  const base = 3 + unit('chart', key) * 140;
  const rank = Math.round(base * (1 + 0.4 * smoothNoise(`chart|${key}`, day, 10)));
  return rank >= 1 && rank <= CHART_DEPTH ? rank : null;
}

const SUBTITLES: Record<string, string[]> = {
  'Health & Fitness': [
    'Sleep better, stress less',
    'Meditate, sleep & relax',
    'Sleep sounds & meditation',
    'Calm mind, deep sleep',
  ],
  Finance: [
    'Budget & expense tracker',
    'Plan your money simply',
    'Spending tracker & budget',
    'Bills, budgets & savings',
  ],
  Games: ['Relaxing match 3 puzzles', 'Match, merge & explore', 'Cozy puzzle adventure', 'Match 3 by the sea'],
};
const WHATS_NEW = [
  'Bug fixes and performance improvements.',
  'New home screen widgets and a refreshed design.',
  'Faster start-up and fixes for rare crashes.',
  'New content every week, plus stability improvements.',
  'Dark mode refinements and accessibility improvements.',
  'You can now export your data. Thanks for the feedback!',
];
const PROMOTIONS = [
  'New this month: fresh content every day.',
  'Try Premium free for 7 days.',
  'Winter update: new themes and sounds.',
  null,
];

/** A release roughly every four weeks, at an app-specific phase. */
const RELEASES_SINCE_DAY = 19_700; // 2023-12-08: the demo apps' version history starts here
function releaseIndex(app: ProviderApp, day: number): number {
  return Math.floor((day - RELEASES_SINCE_DAY + (hash32(app.storeId) % 28)) / 28);
}

function demoListing(app: ProviderApp, country: string, day: number): Listing {
  const release = releaseIndex(app, day);
  const appStore = app.store === 'app_store';
  const subtitles = SUBTITLES[app.category] ?? ['Simple and powerful'];
  const vocabulary = vocabularyFor(app.category);
  // The keyword field changes every other release: a rotating selection of category terms (100 characters max).
  const keywords: string[] = [];
  for (const term of shuffled(vocabulary, new SeededRandom('keywords', app.storeId, Math.floor(release / 2)))) {
    if ([...keywords, term].join(',').length > 100) break;
    keywords.push(term);
  }
  const month = Math.floor(day / 30);
  return {
    title: app.name,
    subtitle: subtitles[Math.floor(release / 3) % subtitles.length]!,
    description:
      `${app.name}, from ${app.developer}: ` +
      (subtitles[0] ?? '') +
      '. Join millions of people who use it every day. Features: ' +
      (FEATURES[app.category] ?? GENERIC_FEATURES).slice(0, 3 + (release % 3)).join(', ') +
      '. Subscription terms apply; cancel anytime.',
    keywordField: appStore ? keywords.join(',') : null,
    promotionalText: appStore ? (PROMOTIONS[(month + hash32(app.storeId)) % PROMOTIONS.length] ?? null) : null,
    whatsNew: WHATS_NEW[release % WHATS_NEW.length]!,
    screenshotsCount: 5 + ((Math.floor(release / 4) + hash32(app.storeId)) % 6),
    hasVideo: (Math.floor(release / 5) + hash32(app.bundleId)) % 3 !== 0,
    price: '0.00',
    currency: CURRENCY[country] ?? 'USD',
    version: `${1 + Math.floor(release / 10)}.${release % 10}.${Math.floor(unit('patch', app.storeId, release) * 3)}`,
  };
}

function demoReviews(app: ProviderApp, country: string, day: number, average: number): ReviewRecord[] {
  const random = new SeededRandom('reviews', app.store, app.storeId, country, day);
  const perDay = country === app.primaryCountry ? 4 : 1;
  const count = Math.floor(random.next() * (perDay + 1));
  const features = FEATURES[app.category] ?? GENERIC_FEATURES;
  const listing = demoListing(app, country, day);
  const reviews: ReviewRecord[] = [];
  for (let i = 0; i < count; i++) {
    const rating = drawRating(random, average);
    const text = writeReview(random, rating, features);
    reviews.push({
      storeReviewId: String(hash32(`${app.storeId}|${country}|${day}|${i}`) * 10 + (i % 10)),
      country,
      rating,
      ...text,
      version: listing.version,
      reviewedAt: new Date(day * 86_400_000 + random.int(0, 86_399) * 1000),
    });
  }
  return reviews;
}

const TOP_APP_NAMES = [
  'Daily',
  'Smart',
  'Simple',
  'Pocket',
  'Bright',
  'Zen',
  'Pro',
  'Easy',
  'Happy',
  'Tiny',
  'Mighty',
  'Clever',
];

export class DemoProvider implements DataProvider {
  readonly name = 'demo' as const;
  readonly hasHistory = true;

  async observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation> {
    const day = epochDay(request.day);
    const rating = demoRating(app, day);
    const keywordRanks: AppObservation['keywordRanks'] = [];
    const keywordMetrics: AppObservation['keywordMetrics'] = [];
    const competitorRanks: AppObservation['competitorRanks'] = [];
    for (const country of request.countries) {
      const tracked = request.trackedTerms.filter((entry) => entry.country === country).map((entry) => entry.term);
      const trackedKeys = new Set(tracked.map(keyOf));
      for (const term of tracked) {
        // A store's search lists its own apps only.
        for (const competitor of request.competitors.filter((entry) => entry.store === app.store)) {
          competitorRanks.push({ country, term, ...competitor, rank: demoRank(competitor, country, term, day) });
        }
      }
      const vocabulary = request.scope === 'full' ? vocabularyFor(app.category) : [];
      const scanned = new Set(vocabulary.map(keyOf));
      const terms = [...tracked, ...vocabulary.filter((term) => !trackedKeys.has(keyOf(term)))];
      for (const term of terms) {
        const rank = demoRank(app, country, term, day);
        // A term of the scanned vocabulary is found ranking whether or not it was asked about.
        if (rank !== null || trackedKeys.has(keyOf(term)))
          keywordRanks.push({
            country,
            term,
            rank,
            ...(rank !== null && scanned.has(keyOf(term)) && { discovered: true }),
          });
        keywordMetrics.push({ country, term, ...demoMetrics(country, term, day) });
      }
    }
    return {
      rating: { ...rating, histogram: demoHistogram(app, rating) },
      categoryRanks: request.countries.map((country) => ({
        country,
        category: app.category,
        rank: demoCategoryRank(app, country, day),
      })),
      keywordRanks,
      keywordMetrics,
      competitorRanks,
      searchAnswers: [],
      listings:
        request.scope === 'full'
          ? request.countries.map((country) => ({ country, listing: demoListing(app, country, day) }))
          : [],
      reviews:
        request.scope === 'full'
          ? request.countries.flatMap((country) => demoReviews(app, country, day, rating.average))
          : [],
    };
  }

  async research(term: string, country: string, on: Date): Promise<ResearchResult> {
    const day = epochDay(on);
    const random = new SeededRandom('research', country, termKeyOf(term));
    const words = term.split(' ').map((word) => word.charAt(0).toUpperCase() + word.slice(1));
    const topApps = Array.from({ length: 10 }, (_, index) => {
      const name = `${random.pick(TOP_APP_NAMES)} ${words.join(' ')}${index % 3 === 0 ? '' : ` ${random.pick(['Pro', 'Plus', 'Lite', 'HD', 'Go'])}`}`;
      const storeId = String(1_000_000_000 + (hash32(`${country}|${term}|${index}`) % 800_000_000));
      return {
        rank: index + 1,
        store: 'app_store' as const,
        storeId,
        name,
        developer: `${random.pick(['Blue', 'Nimbus', 'Orchard', 'Pixel', 'Summit', 'Harbor'])} ${random.pick(['Labs', 'Studio', 'Apps', 'Software'])}`,
        rating: Math.round((3.6 + random.next() * 1.3) * 10) / 10,
        ratingCount: Math.round(Math.pow(10, 5.5 - index * 0.25 + random.next())),
        iconUrl: null,
      };
    });
    return { term, country, ...demoMetrics(country, term, day), topApps };
  }

  /** The apps `research` shows on top for the term: their slugged addresses describe to the same names. */
  async searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]> {
    const { topApps } = await this.research(term, country, new Date());
    return topApps.slice(0, limit).map((app) => {
      const slug = app.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      return {
        store: app.store,
        storeId: app.storeId,
        name: app.name,
        developer: app.developer,
        iconUrl: app.iconUrl,
        storeUrl: `https://apps.apple.com/${country.toLowerCase()}/app/${slug}/id${app.storeId}`,
      };
    });
  }

  async describe(reference: StoreReference): Promise<AppDetails | null> {
    const fromSlug = reference.slug
      ?.split('-')
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
    const fromPackage = reference.store === 'google_play' ? reference.storeId.split('.').at(-1) : undefined;
    const name =
      fromSlug ||
      (fromPackage ? fromPackage.charAt(0).toUpperCase() + fromPackage.slice(1) : `App ${reference.storeId}`);
    const random = new SeededRandom('describe', reference.store, reference.storeId);
    return {
      name,
      developer: `${random.pick(['Blue', 'Nimbus', 'Orchard', 'Pixel', 'Summit'])} ${random.pick(['Labs', 'Studio', 'Apps'])}`,
      category: random.pick(['Health & Fitness', 'Finance', 'Games', 'Productivity', 'Lifestyle']),
      iconUrl: null,
      rating: Math.round((3.5 + random.next() * 1.4) * 10) / 10,
      ratingCount: Math.round(Math.pow(10, 3 + random.next() * 3)),
    };
  }
}
