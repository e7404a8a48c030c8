import { z } from 'zod';
import {
  appIdParam,
  countryQuery,
  isoDate,
  isoDateTime,
  queryIntWithDefault,
  storeUrlInput,
} from '@/server/api/schemas';
import {
  DIFFICULTY_METHOD,
  difficultyFigure,
  listedRankFigure,
  storeRatingFigure,
  VOLUME_METHOD,
  volumeFigure,
  dataFreshness,
} from '@/server/api/figures';
import { countrySchema, storefrontInput } from '@/server/domain/countries';
import type { AppView } from '@/server/services/apps/apps';

export const appOutput = z
  .object({
    id: z.uuid(),
    store: z.enum(['app_store', 'google_play']).meta({ description: 'The store the app is published in.' }),
    storeId: z
      .string()
      .meta({ description: 'App Store numeric id, or Google Play package name.', example: '1459969523' }),
    bundleId: z.string().meta({ example: 'com.calmlabs.breathe' }),
    name: z.string(),
    developer: z.string(),
    category: z.string(),
    primaryCountry: z
      .string()
      .length(2)
      .meta({ description: 'Default storefront for country-scoped endpoints (ISO 3166-1 alpha-2).' }),
    iconUrl: z.url().nullable(),
    storeUrl: z.url().meta({ description: 'Public store page of the app.' }),
    trackedKeywords: z.int().nonnegative().meta({ description: 'Number of tracked keywords, all countries.' }),
    storefronts: z.array(z.string().length(2)).meta({
      description:
        'Every storefront the app is tracked in: its primary one, those of its tracked keywords, and any added in the dashboard. Metadata, changelog, ASO score and category rank answer for each.',
      example: ['GB', 'US'],
    }),
    dataThrough: isoDate
      .nullable()
      .meta({ description: 'The last day with data; null until the first history backfill has finished.' }),
    lastObservedAt: isoDateTime.nullable().meta({
      description:
        'When the store last answered for the app (its primary storefront): the age of its data. The daily refresh observes every app once a day; while a store fails (an outage, a throttle), the app keeps its last data, served as before, and this time stops moving. null until the first observation.',
    }),
    backfill: z
      .object({
        status: z.enum(['queued', 'running', 'completed', 'failed']).meta({
          description:
            '`failed`: the history could not be loaded after several attempts; the daily refresh then tries again.',
        }),
        daysDone: z.int().nonnegative(),
        daysTotal: z.int().nonnegative().meta({ description: 'Days of history the backfill loads.' }),
      })
      .nullable()
      .meta({
        description:
          'The history backfill of an app just added: it runs in the background, and the per-app reads answer empty series until it completes. null for an app whose history was loaded otherwise.',
      }),
    owned: z.boolean().meta({
      description:
        'Whether one of your connected store accounts (Settings → Store accounts) publishes the app: its every review is then read with it (`GET /apps/{id}/reviews?source=store_account`) and can be answered.',
    }),
    createdAt: isoDateTime.meta({ description: 'When the app was added to the account.' }),
  })
  .meta({ id: 'App', description: 'An app tracked by your account.' });

function backfillStatus(backfill: NonNullable<AppView['backfill']>): 'queued' | 'running' | 'completed' | 'failed' {
  if (backfill.finishedAt) return backfill.lastError ? 'failed' : 'completed';
  return backfill.claimedAt ? 'running' : 'queued';
}

export function toAppOutput(app: AppView): z.infer<typeof appOutput> {
  const { refreshedThrough, lastObservedAt, backfill, ...rest } = app;
  return {
    ...rest,
    dataThrough: refreshedThrough && refreshedThrough.toISOString().slice(0, 10),
    lastObservedAt: lastObservedAt && lastObservedAt.toISOString(),
    backfill: backfill && {
      status: backfillStatus(backfill),
      daysDone: backfill.finishedAt && !backfill.lastError ? backfill.daysTotal : backfill.daysDone,
      daysTotal: backfill.daysTotal,
    },
    createdAt: app.createdAt.toISOString(),
  };
}

export const createAppInput = z.strictObject({
  storeUrl: storeUrlInput('Give the app’s store URL.'),
  country: storefrontInput(
    'Primary storefront of the app; omitted or null: the storefront of an App Store URL, else US.',
  ).nullish(),
});
export const createAppOutput = appOutput
  .extend({
    created: z.boolean().meta({
      description: 'false: the account already tracked this app, which is answered as it is (nothing changed).',
    }),
  })
  .meta({ id: 'AppCreated', description: 'The app as GET /apps/{id} answers it, and whether this call added it.' });

export const removeAppInput = z.object({ id: appIdParam });
export const removeAppOutput = z.object({ removed: z.literal(true), appId: z.uuid(), name: z.string() });

export const addStorefrontInput = z.object({ id: appIdParam, country: countrySchema });
export const removeStorefrontInput = z.object({ id: appIdParam, country: countrySchema });
export const removeStorefrontOutput = z.object({
  removed: z.literal(true),
  country: z.string().length(2),
  keywords: z.int().nonnegative(),
});

export const searchStoreInput = z.object({
  term: z.string().trim().min(2, 'Type at least 2 characters.').max(100),
  country: countrySchema.default('US'),
});
export const searchStoreOutput = z.array(
  z.object({
    store: z.enum(['app_store', 'google_play']),
    storeId: z.string(),
    name: z.string(),
    developer: z.string(),
    iconUrl: z.string().nullable(),
    storeUrl: z.string(),
  }),
);

export const listAppsInput = z.object({});
export const listAppsOutput = z.array(appOutput);

export const getAppInput = z.object({ id: appIdParam });

const day = isoDate;

export const asoScoreInput = z.object({ id: appIdParam, country: countryQuery });
const pillar = <T extends z.ZodRawShape>(inputs: T) =>
  z
    .object({
      score: z.number().min(0).max(100).meta({ description: 'The pillar’s score, 0–100, from its inputs.' }),
      weight: z.number().meta({ description: 'Its share of the overall score (the four weights sum to 1).' }),
      inputs: z.object(inputs).meta({ description: 'What the score is computed from, as observed that day.' }),
    })
    .meta({ description: 'One pillar of the score: its value, its weight and what it is computed from.' });
export const asoScoreOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    date: day,
    score: z.int().min(0).max(100).meta({ description: 'Weighted sum of the pillar scores.' }),
    pillars: z.object({
      metadata: pillar({
        titleLength: z.int(),
        titleLimit: z.int(),
        subtitleLength: z.int(),
        subtitleLimit: z.int(),
        keywordFieldLength: z.int(),
        keywordFieldLimit: z.int(),
        descriptionLength: z.int(),
      }),
      keywords: pillar({
        trackedKeywords: z.int(),
        rankedKeywords: z.int().meta({
          description:
            'Tracked keywords the app was in the store’s search results for that day (top 200 on Apple, 100 on Google Play).',
        }),
        top10Keywords: z.int(),
        volumeWeightedVisibility: z.number().meta({
          description:
            'The tracked keywords’ estimated volumes, each counted in full when the app ranks in the top 10, at 0.4 up to 50, at 0.1 below, and not at all when out of the results or not observed, as a share (0–1) of their whole volume.',
        }),
        keywordsInTitleOrSubtitle: z.int(),
      }),
      ratingsAndReviews: pillar({
        averageRating: storeRatingFigure,
        ratingCount: z
          .int()
          .meta({ description: 'How many ratings the store’s average counts (0 when it shows none).' }),
        reviewsLast30Days: z.int().meta({ description: 'Reviews with text the store showed, over the last 30 days.' }),
        negativeShareLast30Days: z.number().meta({
          description: 'The share (0–1) of those reviews whose sentiment is negative; 0 when there are none.',
        }),
      }),
      creativesAndConversion: pillar({
        screenshots: z.int(),
        screenshotLimit: z.int(),
        hasVideo: z.boolean(),
        daysSinceLastRelease: z.int().nullable(),
      }),
    }),
    recommendations: z.array(
      z.object({
        pillar: z.enum(['metadata', 'keywords', 'ratings', 'creatives']),
        impact: z.enum(['high', 'medium', 'low']),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'AsoScore' });

export const opportunitiesInput = z.object({
  id: appIdParam,
  country: countryQuery,
  limit: queryIntWithDefault({ min: 1, max: 200, default: 50, description: 'Number of opportunities.' }),
});
export const opportunitiesOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    date: day,
    items: z.array(
      z.object({
        position: z.int().min(1),
        term: z.string(),
        country: z.string().length(2),
        score: z
          .number()
          .min(0)
          .max(100)
          .meta({ description: '100 × demand × ease × headroom (see the endpoint description).' }),
        volume: z.int().meta({ description: VOLUME_METHOD }),
        difficulty: z.int().meta({ description: DIFFICULTY_METHOD }),
        rank: z.int().nullable().meta({
          description:
            'This app’s place in the store’s search results for the term on its last day of data; null when it was not in them (Apple shows at most 200, Google Play 100). Every opportunity was observed that day.',
        }),
        rankStatus: z.enum(['ranked', 'unranked']).meta({
          description:
            '`ranked`: `rank` is the place. `unranked`: the search was observed that day and the app was not in the results (an opportunity is always a term observed that day).',
        }),
        tracked: z.boolean(),
        keywordId: z.uuid().nullable(),
        reason: z.string(),
      }),
    ),
  })
  .meta({ id: 'KeywordOpportunities' });

export const categoryRankInput = z.object({
  id: appIdParam,
  country: countryQuery,
  days: queryIntWithDefault({
    min: 1,
    max: 365,
    default: 30,
    description: 'Days of history, ending with the last day of data.',
  }),
});
export const categoryRankOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    category: z.string(),
    chart: z.literal('top-free'),
    observedSince: day.nullable().meta({
      description:
        'The first day this storefront’s chart history holds; days before it are null because they were never observed, not because the app was out of the chart. Its first call in a storefront new to the app observes it, and the history starts then. null: never observed there yet.',
    }),
    from: day,
    to: day,
    points: z.array(
      z.object({
        date: day,
        rank: z
          .int()
          .nullable()
          .meta({ description: 'Position in the chart; null outside the top 200, and on a day not observed.' }),
        status: z.enum(['ranked', 'unranked', 'not_observed']).meta({
          description:
            '`ranked`: `rank` is the app’s place in the chart that day. `unranked`: the chart was observed and the app was not in its top 200. `not_observed`: the chart was not observed that day (before `observedSince`, or the store failed).',
        }),
      }),
    ),
  })
  .meta({ id: 'CategoryRankHistory' });

export const ratingHistoryInput = z.object({ id: appIdParam });
export const ratingHistoryOutput = z
  .object({
    freshness: dataFreshness,
    from: day.nullable(),
    to: day.nullable(),
    points: z.array(
      z.object({
        date: day,
        average: z.number().min(0).max(5).meta({
          description:
            'The store’s average star rating that day, in the app’s primary storefront, over every rating it counts (with or without a review). A day the store was not read has no point.',
        }),
        count: z.int().nonnegative().meta({ description: 'How many ratings that average counted.' }),
        histogram: z
          .object({
            '1': z.int().nonnegative(),
            '2': z.int().nonnegative(),
            '3': z.int().nonnegative(),
            '4': z.int().nonnegative(),
            '5': z.int().nonnegative(),
          })
          .nullable()
          .meta({
            description:
              'Ratings by number of stars. Google Play shows them; null for App Store apps, whose public answers have no histogram.',
          }),
      }),
    ),
  })
  .meta({ id: 'RatingHistory' });

export const storefrontHealthInput = z.object({ id: appIdParam });
export const storefrontHealthOutput = z.array(
  z.object({
    country: z.string().length(2),
    lastObservedAt: isoDateTime.nullable(),
    lastError: z.string().nullable(),
    lastErrorAt: isoDateTime.nullable(),
  }),
);

export const keywordSpyInput = z.object({ id: appIdParam, country: countryQuery });
export const keywordSpyOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    date: day,
    keywords: z.array(
      z.object({
        term: z.string(),
        rank: listedRankFigure,
        volume: volumeFigure,
        difficulty: difficultyFigure,
        tracked: z.boolean(),
        keywordId: z.uuid().nullable(),
      }),
    ),
  })
  .meta({ id: 'KeywordSpy' });
