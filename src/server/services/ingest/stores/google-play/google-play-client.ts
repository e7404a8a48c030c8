// Google Play as google-play-scraper reads it: the five of its methods the provider uses, each answer checked against
// the members we read (the library scrapes pages Google changes without notice; a page it can no longer read must
// fail the storefront's observation, not store nonsense). The recorded answers under test/fixtures/google-play are
// what these methods returned; scripts/record-store-fixtures.ts records them again.
import type gplayModule from 'google-play-scraper';
import { z } from 'zod';

/** google-play-scraper's IAppItem: an app in a search answer or a chart. */
export const playListItem = z.object({
  appId: z.string().min(1),
  title: z.string(),
  developer: z.string().optional(),
  icon: z.string().nullish(),
  score: z.number().nullish(),
  free: z.boolean().optional(),
});
export type PlayListItem = z.infer<typeof playListItem>;

/** google-play-scraper's IAppItemFullDetail, the members we read. */
export const playAppDetails = z.object({
  appId: z.string().min(1),
  title: z.string(),
  summary: z.string().nullish(),
  description: z.string().nullish(),
  installs: z.string().nullish(),
  minInstalls: z.number().nullish(),
  score: z.number().nullish(),
  ratings: z.number().nullish(),
  reviews: z.number().nullish(),
  histogram: z.record(z.enum(['1', '2', '3', '4', '5']), z.number().nullish()).nullish(),
  price: z.number().nullish(),
  currency: z.string().nullish(),
  free: z.boolean().optional(),
  developer: z.string().nullish(),
  genre: z.string().nullish(),
  genreId: z.string().nullish(),
  icon: z.string().nullish(),
  screenshots: z.array(z.string()).nullish(),
  video: z.string().nullish(),
  updated: z.number().nullish(),
  version: z.string().nullish(),
  recentChanges: z.string().nullish(),
});
export type PlayAppDetails = z.infer<typeof playAppDetails>;

export const playReview = z.object({
  id: z.string().min(1),
  userName: z.string().nullish(),
  date: z.string(),
  score: z.number(),
  title: z.string().nullish(),
  text: z.string().nullish(),
  version: z.string().nullish(),
});
export const playReviews = z.object({ data: z.array(z.unknown()), nextPaginationToken: z.string().nullish() });

type ListOptions = Parameters<typeof gplayModule.list>[0];

/** Where a call is made: Google Play answers per country and in a language. */
export interface PlayLocale {
  country: string;
  lang: string;
}

/** The library's methods the provider calls, as plain data in and out (recorded answers replay through this). */
export interface GooglePlayClient {
  app(appId: string, locale: PlayLocale): Promise<unknown>;
  search(term: string, num: number, locale: PlayLocale): Promise<unknown>;
  reviews(appId: string, num: number, locale: PlayLocale): Promise<unknown>;
  /** The top free chart of a category (a genreId such as HEALTH_AND_FITNESS). */
  topFree(category: string, num: number, locale: PlayLocale): Promise<unknown>;
  suggest(prefix: string, locale: PlayLocale): Promise<unknown>;
}

/**
 * google-play-scraper itself. Its own throttle and got's retries are off: the store gate (../store-calls.ts) paces,
 * times and retries every call, across processes.
 */
export function scraperClient(timeoutMs: number): GooglePlayClient {
  // Loaded at the first call: the library and what it brings (got, cheerio) are the heaviest of the process's imports,
  // and most processes never call Google Play (the operator CLI, the demo data, any process before its first refresh).
  let library: Promise<typeof gplayModule> | undefined;
  const gplay = () => (library ??= import('google-play-scraper').then((module) => module.default));
  const requestOptions = { timeout: { request: timeoutMs }, retry: { limit: 0 } };
  const where = (locale: PlayLocale) => ({ country: locale.country.toLowerCase(), lang: locale.lang, requestOptions });
  return {
    app: async (appId, locale) => (await gplay()).app({ appId, ...where(locale) }),
    search: async (term, num, locale) => (await gplay()).search({ term, num, ...where(locale) }),
    // The library's typings declare its constants as types only: its values are passed as they are (sort 2: newest first).
    reviews: async (appId, num, locale) => (await gplay()).reviews({ appId, num, sort: 2, ...where(locale) }),
    topFree: async (category, num, locale) =>
      (await gplay()).list({
        collection: 'TOP_FREE' as ListOptions['collection'],
        category: category as ListOptions['category'],
        num,
        ...where(locale),
      }),
    suggest: async (prefix, locale) => (await gplay()).suggest({ term: prefix, ...where(locale) }),
  };
}

/** Google Play's language for a storefront: its reviews, suggestions and search are per language too. */
const LANGUAGE: Record<string, string> = {
  US: 'en',
  GB: 'en',
  CA: 'en',
  AU: 'en',
  IE: 'en',
  NZ: 'en',
  IN: 'en',
  SG: 'en',
  ZA: 'en',
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  IT: 'it',
  PT: 'pt',
  BR: 'pt',
  NL: 'nl',
  SE: 'sv',
  NO: 'no',
  DK: 'da',
  FI: 'fi',
  PL: 'pl',
  CZ: 'cs',
  TR: 'tr',
  RU: 'ru',
  UA: 'uk',
  JP: 'ja',
  KR: 'ko',
  CN: 'zh',
  TW: 'zh',
  HK: 'zh',
  TH: 'th',
  VN: 'vi',
  ID: 'id',
  MY: 'ms',
  PH: 'en',
  SA: 'ar',
  AE: 'ar',
  EG: 'ar',
  IL: 'he',
  GR: 'el',
  HU: 'hu',
  RO: 'ro',
};

export function playLocale(country: string): PlayLocale {
  return { country, lang: LANGUAGE[country.toUpperCase()] ?? 'en' };
}
