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
  const inPeriod = Prisma.sql`app_id = ${app.id}::uuid AND reviewed_at >= ${from} AND reviewed_at < ${to}`;
  const [totals, topics, bugThemes, requests] = await Promise.all([
    db.$queryRaw<{ reviews: bigint; positive: bigint; neutral: bigint; negative: bigint; bugs: bigint; requesting: bigint; average: number | null; bug_examples: string[] | null }[]>`
      SELECT count(*) AS reviews,
             count(*) FILTER (WHERE sentiment >= ${POSITIVE_FROM}) AS positive,
             count(*) FILTER (WHERE sentiment > ${NEGATIVE_TO} AND sentiment < ${POSITIVE_FROM}) AS neutral,
             count(*) FILTER (WHERE sentiment <= ${NEGATIVE_TO}) AS negative,
             count(*) FILTER (WHERE bug_report) AS bugs,
             count(*) FILTER (WHERE cardinality(feature_requests) > 0) AS requesting,
             avg(rating)::float8 AS average,
             (array_agg(id::text ORDER BY reviewed_at DESC, id) FILTER (WHERE bug_report))[1:3] AS bug_examples
      FROM reviews WHERE ${inPeriod}`,
    themeQuery(Prisma.sql`unnest(topics)`, inPeriod, Prisma.empty, 10),
    themeQuery(Prisma.sql`unnest(topics)`, inPeriod, Prisma.sql`AND bug_report`, 5),
    themeQuery(Prisma.sql`unnest(feature_requests)`, inPeriod, Prisma.empty, 10),
  ]);
  const total = totals[0]!;
  const reviews = Number(total.reviews);
  const share = (count: bigint | number) => (reviews ? Math.round((Number(count) / reviews) * 1000) / 1000 : 0);
  return {
    period: { from: isoDay(from), to: isoDay(app.asOf) },
    reviewCount: reviews,
    averageRating: total.average === null ? null : Math.round(total.average * 100) / 100,
    sentiment: {
      positive: { count: Number(total.positive), share: share(total.positive) },
      neutral: { count: Number(total.neutral), share: share(total.neutral) },
      negative: { count: Number(total.negative), share: share(total.negative) },
    },
    topTopics: topics,
    bugReports: { count: Number(total.bugs), share: share(total.bugs), themes: bugThemes, exampleReviewIds: total.bug_examples ?? [] },
    featureRequests: { count: Number(total.requesting), share: share(total.requesting), requests: requests },
  };
}

async function themeQuery(values: Prisma.Sql, inPeriod: Prisma.Sql, filter: Prisma.Sql, limit: number): Promise<CountedTheme[]> {
  const rows = await db.$queryRaw<{ name: string; count: bigint; average: number; examples: string[] }[]>`
    SELECT theme AS name, count(*) AS count, avg(rating)::float8 AS average,
           (array_agg(id::text ORDER BY reviewed_at DESC, id))[1:3] AS examples
    FROM (SELECT id, rating, reviewed_at, ${values} AS theme FROM reviews WHERE ${inPeriod} ${filter}) themed
    GROUP BY theme ORDER BY count(*) DESC, theme LIMIT ${limit}`;
  return rows.map((row) => ({ name: row.name, count: Number(row.count), averageRating: Math.round(row.average * 100) / 100, exampleReviewIds: row.examples }));
}
