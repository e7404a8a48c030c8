import { z } from 'zod';
import { appIdParam, isoDate, isoDateTime, queryEnum, queryInt, queryIntWithDefault } from '@/server/api/schemas';
import { REVIEW_SORTS, SENTIMENT_LABELS } from '@/server/services/aso/reviews';
import { reviewAverageFigure, reviewStarsFigure, dataFreshness } from '@/server/api/figures';

/** Pages of reviews a request may ask for: 10 million reviews at the largest page size. */
const MAX_REVIEW_PAGE = 100_000;

export const listReviewsInput = z.object({
  id: appIdParam,
  page: queryIntWithDefault({
    min: 1,
    max: MAX_REVIEW_PAGE,
    default: 1,
    description: 'Page number; a page past the last one is empty.',
  }),
  pageSize: queryIntWithDefault({ min: 1, max: 100, default: 20, description: 'Reviews per page.' }),
  rating: queryInt({ min: 1, max: 5, description: 'Only reviews with this many stars.' }),
  sentiment: z
    .enum(SENTIMENT_LABELS, `Must be one of: ${SENTIMENT_LABELS.join(', ')}.`)
    .meta({
      description: `Only reviews of this sentiment label (see \`sentiment.label\`). One of ${SENTIMENT_LABELS.join(', ')}.`,
    })
    .optional(),
  sort: queryEnum(
    REVIEW_SORTS,
    'newest',
    'Order: newest or oldest first, or highest or lowest rating first (newest first among equals).',
  ),
});

const sentiment = z.object({
  score: z.number().min(-1).max(1).meta({ description: 'Lexicon sentiment of title and body, −1 to 1.' }),
  label: z
    .enum(['positive', 'neutral', 'negative'])
    .meta({ description: 'positive ≥ 0.05, negative ≤ −0.05, else neutral.' }),
});

const reviewOutput = z
  .object({
    id: z.uuid(),
    rating: reviewStarsFigure,
    title: z.string(),
    body: z.string(),
    author: z.string(),
    version: z.string().nullable(),
    country: z.string().length(2),
    reviewedAt: isoDateTime,
    sentiment,
  })
  .meta({ id: 'Review' });

export const listReviewsOutput = z
  .object({
    freshness: dataFreshness,
    items: z.array(reviewOutput),
    page: z.int(),
    pageSize: z.int(),
    total: z.int(),
    totalPages: z.int(),
  })
  .meta({ id: 'ReviewPage' });

const theme = z.object({
  name: z.string(),
  count: z.int().meta({ description: 'Reviews of the period that mention it.' }),
  averageRating: reviewAverageFigure,
  exampleReviewIds: z.array(z.uuid()).max(3),
});
const share = z.object({ count: z.int(), share: z.number().min(0).max(1) });

export const insightsInput = z.object({ id: appIdParam });
export const insightsOutput = z
  .object({
    freshness: dataFreshness,
    period: z.object({ from: isoDate, to: isoDate }),
    reviewCount: z.int(),
    averageRating: reviewAverageFigure.nullable().meta({
      description:
        'Average stars (1–5) of the period’s reviews (reviews with text the store showed, not every rating: the store’s own average is the app’s rating); null when the period has none.',
    }),
    sentiment: z.object({ positive: share, neutral: share, negative: share }),
    topTopics: z
      .array(theme)
      .meta({ description: 'What reviews talk about most (noun lemmas), by number of reviews.' }),
    bugReports: share.extend({ themes: z.array(theme), exampleReviewIds: z.array(z.uuid()) }),
    featureRequests: share.extend({
      requests: z.array(theme).meta({ description: 'Requested features, by number of reviews asking.' }),
    }),
  })
  .meta({ id: 'ReviewInsights' });
