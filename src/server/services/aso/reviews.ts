// Reviews, paginated, and the insights computed from their analysis (sentiment, topics, bugs, requests).
import { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { readReviewInsightRows, type ThemeRow } from '@/server/db/review-statements';
import { addDays, isoDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { listOwnedReviews } from '@/server/services/store-accounts/owned-reviews';
import { appIsOwned } from '@/server/services/store-accounts/store-accounts';
import { type AppContext, loadApp, freshnessOf } from './app-context';

export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const;
/** Where reviews come from: the store's public feed (everyone's), or the account's own store account (its whole history). */
export const REVIEW_SOURCES = ['public', 'store_account'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/** Sentiment scores (−1…1) at or beyond these count as positive / negative. */
const POSITIVE_FROM = 0.05;
const NEGATIVE_TO = -0.05;
/** Insights look at the reviews of this many days before the app's last day of data. */
export const INSIGHTS_DAYS = 90;

export const SENTIMENT_LABELS = ['positive', 'neutral', 'negative'] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];

function sentimentLabel(score: number): SentimentLabel {
  return score >= POSITIVE_FROM ? 'positive' : score <= NEGATIVE_TO ? 'negative' : 'neutral';
}

/** The scores of each label, as sentimentLabel draws them, for a filter in the database. */
const SENTIMENT_RANGES: Record<SentimentLabel, Prisma.FloatFilter> = {
  positive: { gte: POSITIVE_FROM },
  neutral: { gt: NEGATIVE_TO, lt: POSITIVE_FROM },
  negative: { lte: NEGATIVE_TO },
};

const ORDER: Record<ReviewSort, Prisma.ReviewOrderByWithRelationInput[]> = {
  newest: [{ reviewedAt: 'desc' }, { id: 'asc' }],
  oldest: [{ reviewedAt: 'asc' }, { id: 'asc' }],
  highest: [{ rating: 'desc' }, { reviewedAt: 'desc' }, { id: 'asc' }],
  lowest: [{ rating: 'asc' }, { reviewedAt: 'desc' }, { id: 'asc' }],
};

export async function listReviews(
  accountId: string,
  input: {
    appId: string;
    page: number;
    pageSize: number;
    rating?: number;
    sentiment?: SentimentLabel;
    sort: ReviewSort;
    source?: ReviewSource;
  },
) {
  const app = await loadApp(accountId, input.appId);
  if (input.source === 'store_account') return listStoreAccountReviews(app, input);
  // The store app's reviews in the app's own storefronts (another follower's storefronts are theirs to know).
  const where: Prisma.ReviewWhereInput = {
    storeAppId: app.storeAppId,
    country: { in: app.storefronts },
    ...(input.rating ? { rating: input.rating } : {}),
    ...(input.sentiment ? { sentiment: SENTIMENT_RANGES[input.sentiment] } : {}),
  };
  const [total, rows] = await Promise.all([
    db.review.count({ where }),
    db.review.findMany({
      where,
      orderBy: ORDER[input.sort],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      select: {
        id: true,
        rating: true,
        title: true,
        body: true,
        author: true,
        version: true,
        country: true,
        reviewedAt: true,
        sentiment: true,
      },
    }),
  ]);
  return {
    freshness: freshnessOf(app, null, ['reviews']),
    items: rows.map((row) => ({
      ...row,
      source: 'public' as const,
      sentiment: { score: row.sentiment, label: sentimentLabel(row.sentiment) },
    })),
    page: input.page,
    pageSize: input.pageSize,
    total,
    totalPages: Math.ceil(total / input.pageSize),
  };
}

/**
 * The reviews read with the account's own store account: every review the store keeps, with the developer's answer.
 * An app no store account of the account owns, with none kept from before, is a conflict that says how to own it.
 */
async function listStoreAccountReviews(
  app: AppContext,
  input: { page: number; pageSize: number; rating?: number; sentiment?: SentimentLabel; sort: ReviewSort },
) {
  const page = await listOwnedReviews({
    accountId: app.accountId,
    appId: app.id,
    store: app.store,
    page: input.page,
    pageSize: input.pageSize,
    rating: input.rating,
    sentiment: input.sentiment && SENTIMENT_RANGES[input.sentiment],
    sort: input.sort,
  });
  if (page.total === 0 && !(await appIsOwned(app.id)))
    throw new AppError(
      'CONFLICT',
      'No store account of yours owns this app: connect the App Store Connect or Google Play account that publishes it (Settings → Store accounts) to read its reviews with `source=store_account`.',
    );
  return {
    freshness: freshnessOf(app, null, ['storeAccountReviews']),
    items: page.items.map((item) => ({
      ...item,
      sentiment: { score: item.sentiment, label: sentimentLabel(item.sentiment) },
    })),
    page: input.page,
    pageSize: input.pageSize,
    total: page.total,
    totalPages: Math.ceil(page.total / input.pageSize),
  };
}

interface CountedTheme {
  name: string;
  count: number;
  averageRating: number;
  exampleReviewIds: string[];
}

export async function reviewInsights(accountId: string, input: { appId: string }) {
  const app = await loadApp(accountId, input.appId);
  const to = addDays(app.asOf, 1);
  const from = addDays(to, -INSIGHTS_DAYS);
  const result = await readReviewInsightRows({
    storeAppId: app.storeAppId,
    countries: app.storefronts,
    from,
    to,
    positiveFrom: POSITIVE_FROM,
    negativeTo: NEGATIVE_TO,
  });
  const total = result.totals;
  const reviews = total.reviews;
  const share = (count: number) => (reviews ? Math.round((count / reviews) * 1000) / 1000 : 0);
  return {
    freshness: freshnessOf(app, null, ['reviews']),
    period: { from: isoDay(from), to: isoDay(app.asOf) },
    reviewCount: reviews,
    averageRating: total.average === null ? null : Math.round(total.average * 100) / 100,
    sentiment: {
      positive: { count: total.positive, share: share(total.positive) },
      neutral: { count: total.neutral, share: share(total.neutral) },
      negative: { count: total.negative, share: share(total.negative) },
    },
    topTopics: result.topics.map(toTheme),
    bugReports: {
      count: total.bugs,
      share: share(total.bugs),
      themes: result.bug_themes.map(toTheme),
      exampleReviewIds: total.bug_examples ?? [],
    },
    featureRequests: {
      count: total.requesting,
      share: share(total.requesting),
      requests: result.requests.map(toTheme),
    },
  };
}

function toTheme(row: ThemeRow): CountedTheme {
  return {
    name: row.name,
    count: row.count,
    averageRating: Math.round(row.average * 100) / 100,
    exampleReviewIds: row.examples,
  };
}
