// The statement of review insights: one read over a period's reviews (index store_app_id, reviewed_at) for the totals,
// the topics, the bug themes and the feature requests.
import { Prisma } from '@/generated/prisma/client';
import { db } from './index';

export interface ThemeRow {
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

/**
 * The period [from, to) of the store app's reviews in `countries` (the app's storefronts); sentiment at or beyond
 * `positiveFrom` / `negativeTo` counts as such.
 */
export async function readReviewInsightRows(input: {
  storeAppId: number;
  countries: string[];
  from: Date;
  to: Date;
  positiveFrom: number;
  negativeTo: number;
}) {
  const [result] = await db.$queryRaw<
    {
      totals: {
        reviews: number;
        positive: number;
        neutral: number;
        negative: number;
        bugs: number;
        requesting: number;
        average: number | null;
        bug_examples: string[] | null;
      };
      topics: ThemeRow[];
      bug_themes: ThemeRow[];
      requests: ThemeRow[];
    }[]
  >`
    WITH period AS (
      SELECT id, rating, reviewed_at, sentiment, bug_report, topics, feature_requests
      FROM reviews
      WHERE store_app_id = ${input.storeAppId} AND country = ANY(${input.countries}::text[]) AND reviewed_at >= ${input.from} AND reviewed_at < ${input.to}
    ),
    topics AS (${themes(Prisma.sql`unnest(topics)`, Prisma.sql`TRUE`, 10)}),
    bug_themes AS (${themes(Prisma.sql`unnest(topics)`, Prisma.sql`bug_report`, 5)}),
    requests AS (${themes(Prisma.sql`unnest(feature_requests)`, Prisma.sql`TRUE`, 10)})
    SELECT
      (SELECT json_build_object(
         'reviews', count(*),
         'positive', count(*) FILTER (WHERE sentiment >= ${input.positiveFrom}),
         'neutral', count(*) FILTER (WHERE sentiment > ${input.negativeTo} AND sentiment < ${input.positiveFrom}),
         'negative', count(*) FILTER (WHERE sentiment <= ${input.negativeTo}),
         'bugs', count(*) FILTER (WHERE bug_report),
         'requesting', count(*) FILTER (WHERE cardinality(feature_requests) > 0),
         'average', avg(rating)::float8,
         'bug_examples', (array_agg(id::text ORDER BY reviewed_at DESC, id) FILTER (WHERE bug_report))[1:3])
       FROM period) AS totals,
      (SELECT coalesce(json_agg(topics ORDER BY count DESC, name), '[]') FROM topics) AS topics,
      (SELECT coalesce(json_agg(bug_themes ORDER BY count DESC, name), '[]') FROM bug_themes) AS bug_themes,
      (SELECT coalesce(json_agg(requests ORDER BY count DESC, name), '[]') FROM requests) AS requests`;
  return result!;
}
