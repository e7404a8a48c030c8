import { z } from 'zod';
import {
  DIFFICULTY_METHOD,
  difficultyFigure,
  listedRankFigure,
  searchRankFigure,
  storeRatingCountFigure,
  storeRatingFigure,
  VOLUME_METHOD,
  volumeFigure,
  dataFreshness,
} from '@/server/api/figures';
import {
  appIdParam,
  countryQuery,
  isoDate,
  isoDateTime,
  keywordIdParam,
  queryEnum,
  queryIntWithDefault,
} from '@/server/api/schemas';
import { storefrontInput } from '@/server/domain/countries';
import type { TrackedKeywordView } from '@/server/services/apps/apps';

const MAX_TERMS_PER_REQUEST = 100;
const MAX_TERM_LENGTH = 100;

export const addKeywordsInput = z.strictObject({
  id: appIdParam,
  terms: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A term cannot be empty.')
        .max(MAX_TERM_LENGTH, `A term has at most ${MAX_TERM_LENGTH} characters.`),
    )
    .min(1, 'Give at least one term.')
    .max(MAX_TERMS_PER_REQUEST, `Give at most ${MAX_TERMS_PER_REQUEST} terms per request.`)
    .meta({
      description: `1 to ${MAX_TERMS_PER_REQUEST} search terms, each trimmed to 1–${MAX_TERM_LENGTH} characters. Duplicates (ignoring case) count once.`,
      example: ['meditation', 'sleep sounds'],
    }),
  country: storefrontInput(
    'Storefront to track the terms in; omitted or null: the app’s primary storefront. A storefront new to the app is tracked with them (its history observed during this call), within the plan’s storefronts per app.',
  ).nullish(),
});

export const trackedKeywordOutput = z
  .object({
    keywordId: z.uuid().meta({ description: 'Use with the keyword history endpoints.' }),
    term: z.string(),
    country: z.string().length(2),
    isFavorite: z.boolean(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'TrackedKeyword' });

export const addKeywordsOutput = z
  .object({
    appId: z.uuid(),
    country: z.string().length(2),
    added: z.array(trackedKeywordOutput).meta({ description: 'Terms that are now tracked and were not before.' }),
    alreadyTracked: z
      .array(trackedKeywordOutput)
      .meta({ description: 'Terms that were already tracked; nothing was duplicated.' }),
  })
  .meta({ id: 'AddKeywordsResult' });

export function toTrackedKeywordOutput(keyword: TrackedKeywordView): z.infer<typeof trackedKeywordOutput> {
  return { ...keyword, createdAt: keyword.createdAt.toISOString() };
}

export const listKeywordsInput = z.object({
  id: appIdParam,
  country: countryQuery,
  rankWindow: queryEnum(['1d', '7d', '30d', '90d'], '7d', 'Period over which rankDelta is measured.'),
});
/** Whether a rank was observed, for every answer that gives one (docs/api-decisions.md, "What the data knows"). */
const rankStatus = z.enum(['ranked', 'unranked', 'not_observed']).meta({
  id: 'RankStatus',
  description:
    '`ranked`: the rank is the app’s place in the store’s search results that day. `unranked`: the results were observed that day and the app was not in them (Apple shows at most 200, Google Play 100). `not_observed`: no one observed the search that day (before the term was tracked, the store failed, or the app is of the other store). A rank is null in both of the last two; this field says which.',
});

export const keywordListItemOutput = z
  .object({
    term: z.string(),
    rank: z.int().min(1).nullable().meta({
      description:
        'Position in search results on the last day of data; null when the app is not in the top 200 (the top 100 on Google Play), or when that day’s search was not observed (`rankStatus` says which).',
    }),
    rankStatus,
    observedOn: isoDate.nullable().meta({
      description: 'The day `rank` describes (the app’s last day of data); null when the search was not observed then.',
    }),
    rankDelta: z.int().nullable().meta({
      description:
        'Rank at the start of rankWindow minus rank now: positive = moved up. Since Aso-Version 2026-11-29, null when either end is not a rank (not in the results, or not observed); before it, 0 in that case.',
    }),
    volume: z
      .int()
      .nullable()
      .meta({ description: `${VOLUME_METHOD} null until the first data refresh of the term.` }),
    difficulty: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: `${DIFFICULTY_METHOD} null until the first data refresh of the term.` }),
    isFavorite: z.boolean(),
    keywordId: z.uuid(),
    country: z.string().length(2),
  })
  .meta({ id: 'KeywordListItem' });
export const listKeywordsOutput = z.array(keywordListItemOutput);

export const researchInput = z.object({
  id: appIdParam,
  term: z
    .string('Give the term to research.')
    .trim()
    .min(1, 'Give the term to research.')
    .max(MAX_TERM_LENGTH, `A term has at most ${MAX_TERM_LENGTH} characters.`)
    .meta({ description: 'Search term to research.', example: 'sleep sounds' }),
  country: storefrontInput('Storefront; default US.')
    .optional()
    .transform((value) => value ?? 'US'),
});
export const researchOutput = z
  .object({
    term: z.string(),
    country: z.string().length(2),
    volume: z.int().meta({ description: VOLUME_METHOD }),
    difficulty: z.int().min(0).max(100).meta({ description: DIFFICULTY_METHOD }),
    yourRank: z.int().nullable().optional().meta({
      description:
        'Where this app ranked for the term on its last day of data. Since Aso-Version 2026-11-29: null when that day was observed and the app was not in the results; left out when that day was not observed for the term. Before it: null in both cases.',
    }),
    yourRankStatus: z.enum(['ranked', 'unranked', 'not_observed']).meta({
      description:
        '`ranked`: `yourRank` is the rank. `unranked`: the store’s results for the term were observed on the app’s last day of data, and the app was not in them (Apple shows at most 200, Google Play 100). `not_observed`: no one observed the term in this storefront that day (the term is not tracked there, or the store failed).',
    }),
    topApps: z.array(
      z.object({
        rank: listedRankFigure,
        store: z.enum(['app_store', 'google_play']),
        storeId: z.string(),
        name: z.string(),
        developer: z.string(),
        rating: storeRatingFigure,
        ratingCount: storeRatingCountFigure,
        iconUrl: z.string().nullable(),
      }),
    ),
    observedAt: isoDateTime.meta({
      description:
        'When the store was read for this term and storefront (see the endpoint’s description for how long an answer is shared).',
    }),
    // Of the app's rank (`yourRank`): its last day of data. The store's own answer is as of `observedAt`.
    freshness: dataFreshness,
  })
  .meta({ id: 'KeywordResearch' });

export const keywordHistoryInput = z.object({
  id: appIdParam,
  keywordId: keywordIdParam,
  days: queryIntWithDefault({
    min: 1,
    max: 365,
    default: 30,
    description: 'Days of history, ending with the last day of data.',
  }),
});
/** What both per-keyword series answer besides their points. */
const keywordSeries = z.object({
  freshness: dataFreshness,
  keywordId: z.uuid(),
  term: z.string(),
  country: z.string().length(2),
  from: isoDate,
  to: isoDate,
});

const rankPoints = z.array(z.object({ date: isoDate, rank: searchRankFigure, status: rankStatus }));
export const keywordHistoryOutput = keywordSeries
  .extend({
    points: rankPoints,
    competitors: z
      .array(
        z.object({
          competitorId: z.uuid(),
          name: z.string().nullable(),
          store: z.enum(['app_store', 'google_play']),
          storeId: z.string(),
          points: rankPoints.meta({
            description:
              'The competitor’s rank for the same term on the same days, from the same search results as the app’s. `rank` is null when it was not in the top 200 (the top 100 on Google Play), and on days it was not observed: before it was added (unless the data provider has history), and always for a competitor from the other store.',
          }),
        }),
      )
      .meta({ description: 'Every competitor of the app, in the order they were added.' }),
  })
  .meta({ id: 'KeywordRankHistory' });

export const recentRanksInput = z.object({
  id: appIdParam,
  country: countryQuery,
  days: z.int().min(1).max(30).default(7),
});
/** The sparklines' ranks: a line, where an unranked and an unobserved day are both a gap. */
export const recentRanksOutput = z.array(
  z.object({ keywordId: z.uuid(), points: z.array(z.object({ date: isoDate, rank: z.int().nullable() })) }),
);

export const metricsHistoryInput = keywordHistoryInput.extend({
  days: queryIntWithDefault({
    min: 1,
    max: 365,
    default: 180,
    description: 'Days of history, ending with the last day of data.',
  }),
});
export const metricsHistoryOutput = keywordSeries
  .extend({
    points: z.array(
      z.object({
        date: isoDate,
        volume: volumeFigure,
        difficulty: difficultyFigure,
        status: z.enum(['observed', 'not_observed']).meta({
          description: '`not_observed`: the term’s metrics were not read that day (volume and difficulty are null).',
        }),
      }),
    ),
  })
  .meta({ id: 'KeywordMetricsHistory' });
