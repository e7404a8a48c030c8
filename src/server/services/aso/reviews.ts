// Reviews, paginated, and the insights computed from their analysis (sentiment, topics, bugs, requests).
import { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { addDays, isoDay } from '@/server/domain/dates';
import { loadApp } from './app-context';

export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/** Sentiment scores (−1…1) at or beyond these count as positive / negative. */
export const POSITIVE_FROM = 0.05;
export const NEGATIVE_TO = -0.05;
/** Insights look at the reviews of this many days before the app's last day of data. */
export const INSIGHTS_DAYS = 90;

export function sentimentLabel(score: number): 'positive' | 'neutral' | 'negative' {
  return score >= POSITIVE_FROM ? 'positive' : score <= NEGATIVE_TO ? 'negative' : 'neutral';
}

const ORDER: Record<ReviewSort, Prisma.ReviewOrderByWithRelationInput[]> = {
  newest: [{ reviewedAt: 'desc' }, { id: 'asc' }],
  oldest: [{ reviewedAt: 'asc' }, { id: 'asc' }],
  highest: [{ rating: 'desc' }, { reviewedAt: 'desc' }, { id: 'asc' }],
  lowest: [{ rating: 'asc' }, { reviewedAt: 'desc' }, { id: 'asc' }],
};

export async function listReviews(
  accountId: string,
  input: { appId: string; page: number; pageSize: number; rating?: number; sort: ReviewSort },
) {
  const app = await loadApp(accountId, input.appId);
  const where: Prisma.ReviewWhereInput = { appId: app.id, ...(input.rating ? { rating: input.rating } : {}) };
  const [total, rows] = await Promise.all([
    db.review.count({ where }),
    db.review.findMany({
      where,
      orderBy: ORDER[input.sort],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      select: { id: true, rating: true, title: true, body: true, author: true, version: true, country: true, reviewedAt: true, sentiment: true },
    }),
  ]);
  return {
    items: rows.map((row) => ({ ...row, sentiment: { score: row.sentiment, label: sentimentLabel(row.sentiment) } })),
    page: input.page,
    pageSize: input.pageSize,
    total,
    totalPages: Math.ceil(total / input.pageSize),
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
  // One statement over the period's reviews (index app_id, reviewed_at): totals, topics, bug themes, requests.
  const [result] = await db.$queryRaw<
    { totals: { reviews: number; positive: number; neutral: number; negative: number; bugs: number; requesting: number; average: number | null; bug_examples: string[] | null }; topics: ThemeRow[]; bug_themes: ThemeRow[]; requests: ThemeRow[] }[]
  >`
    WITH period AS (
      SELECT id, rating, reviewed_at, sentiment, bug_report, topics, feature_requests
      FROM reviews WHERE app_id = ${app.id}::uuid AND reviewed_at >= ${from} AND reviewed_at < ${to}
    ),
    topics AS (${themes(Prisma.sql`unnest(topics)`, Prisma.sql`TRUE`, 10)}),
    bug_themes AS (${themes(Prisma.sql`unnest(topics)`, Prisma.sql`bug_report`, 5)}),
    requests AS (${themes(Prisma.sql`unnest(feature_requests)`, Prisma.sql`TRUE`, 10)})
    SELECT
      (SELECT json_build_object(
         'reviews', count(*),
         'positive', count(*) FILTER (WHERE sentiment >= ${POSITIVE_FROM}),
         'neutral', count(*) FILTER (WHERE sentiment > ${NEGATIVE_TO} AND sentiment < ${POSITIVE_FROM}),
         'negative', count(*) FILTER (WHERE sentiment <= ${NEGATIVE_TO}),
         'bugs', count(*) FILTER (WHERE bug_report),
         'requesting', count(*) FILTER (WHERE cardinality(feature_requests) > 0),
         'average', avg(rating)::float8,
         'bug_examples', (array_agg(id::text ORDER BY reviewed_at DESC, id) FILTER (WHERE bug_report))[1:3])
       FROM period) AS totals,
      (SELECT coalesce(json_agg(topics ORDER BY count DESC, name), '[]') FROM topics) AS topics,
      (SELECT coalesce(json_agg(bug_themes ORDER BY count DESC, name), '[]') FROM bug_themes) AS bug_themes,
      (SELECT coalesce(json_agg(requests ORDER BY count DESC, name), '[]') FROM requests) AS requests`;
  const total = result!.totals;
  const reviews = total.reviews;
  const share = (count: number) => (reviews ? Math.round((count / reviews) * 1000) / 1000 : 0);
  return {
    period: { from: isoDay(from), to: isoDay(app.asOf) },
    reviewCount: reviews,
    averageRating: total.average === null ? null : Math.round(total.average * 100) / 100,
    sentiment: {
      positive: { count: total.positive, share: share(total.positive) },
      neutral: { count: total.neutral, share: share(total.neutral) },
      negative: { count: total.negative, share: share(total.negative) },
    },
    topTopics: result!.topics.map(toTheme),
    bugReports: { count: total.bugs, share: share(total.bugs), themes: result!.bug_themes.map(toTheme), exampleReviewIds: total.bug_examples ?? [] },
    featureRequests: { count: total.requesting, share: share(total.requesting), requests: result!.requests.map(toTheme) },
  };
}

interface ThemeRow {
  name: string;
  count: number;
  average: number;
  examples: string[];
}

/** Themes (topics or requests) of the period's reviews that match `filter`: counts, average rating, examples. */
function themes(values: Prisma.Sql, filter: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT theme AS name, count(*) AS count, avg(rating)::float8 AS average, (array_agg(id::text ORDER BY reviewed_at DESC, id))[1:3] AS examples
    FROM (SELECT id, rating, reviewed_at, ${values} AS theme FROM period WHERE ${filter}) themed
    GROUP BY theme ORDER BY count(*) DESC, theme LIMIT ${limit}`;
}

function toTheme(row: ThemeRow): CountedTheme {
  return { name: row.name, count: row.count, averageRating: Math.round(row.average * 100) / 100, exampleReviewIds: row.examples };
}
