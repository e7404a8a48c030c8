// The bulk inserts of a refresh. Ranks and keyword metrics are the bulk of every refresh (a new keyword: 365 of each;
// a backfill: hundreds of thousands), written as one statement per chunk of column arrays (unnest). Prisma's
// createMany builds its query row by row, several times the app's CPU for the same insert (docs/benchmarks.md); its
// query compiler, on a backfill's reviews, ratings, chart positions and listings, most of a refresh's CPU
// (docs/testing.md). Those go as column arrays too, but for the rows with a list or an object in them (a review's
// topics and feature requests, a rating's histogram), which go as one JSON array per chunk (jsonb_to_recordset):
// column arrays cannot carry lists of any length.
import type {
  CategoryRank,
  MetadataChange,
  MetadataSnapshot,
  Prisma,
  RatingSnapshot,
  Review,
} from '@/generated/prisma/client';
import type { Store } from '@/generated/prisma/enums';
import { isoDay } from '@/server/core/dates';

const CHUNK = 5_000;
async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** The database, or a transaction of it. */
type RawClient = Pick<Prisma.TransactionClient, '$executeRawUnsafe' | '$queryRawUnsafe'>;
export type AppRankRow = {
  storeAppId: number;
  country: string;
  termKey: string;
  term: string;
  date: Date;
  rank: number | null;
  discovered: boolean;
};
export type KeywordMetricRow = {
  store: Store;
  country: string;
  termKey: string;
  date: Date;
  volume: number;
  difficulty: number;
};

/**
 * The monthly partitions of the store facts' time series (app_ranks, search_answers) that rows dated `first` to `last`
 * go to, made where missing (migration search_answers). In a statement of its own, never inside a transaction that
 * then writes for long: making a partition locks the whole table until the transaction ends.
 */
export async function ensureFactPartitions(client: RawClient, first: Date, last: Date): Promise<void> {
  await client.$executeRawUnsafe(
    'SELECT ensure_store_fact_partitions($1::date, $2::date)',
    isoDay(first),
    isoDay(last),
  );
}

/** Drops the monthly partitions of `table` whose whole month is before `before`; returns their names, oldest first. */
export async function dropFactPartitionsBefore(
  client: RawClient,
  table: 'app_ranks' | 'search_answers',
  before: Date,
): Promise<string[]> {
  const rows = await client.$queryRawUnsafe<{ name: string }[]>(
    'SELECT drop_store_fact_partitions_before($1, $2::date) AS name',
    table,
    isoDay(before),
  );
  return rows.map((row) => row.name);
}

export type SearchAnswerRow = { store: Store; country: string; termKey: string; date: Date; storeIds: string[] };

/**
 * What the store's search answered, once per term, storefront and day: the first answer of a day stands, whichever
 * account's refresh asked. Their partitions must exist (ensureFactPartitions).
 */
export function insertSearchAnswers(
  client: RawClient,
  rows: SearchAnswerRow[],
  livemode: boolean,
  observedAt: Date,
): Promise<void> {
  // The lists go as one JSON array per chunk: column arrays cannot carry lists of different lengths.
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO search_answers (livemode, store, country, term_key, date, store_ids, observed_at)
       SELECT $2::boolean, a.store::"Store", a.country, a.term_key, a.date, ARRAY(SELECT jsonb_array_elements_text(a.store_ids)), $3::timestamptz
       FROM jsonb_to_recordset($1::jsonb) AS a(store text, country text, term_key text, date date, store_ids jsonb)
       ON CONFLICT DO NOTHING`,
      JSON.stringify(
        chunk.map((row) => ({
          store: row.store,
          country: row.country,
          term_key: row.termKey,
          date: isoDay(row.date),
          store_ids: row.storeIds,
        })),
      ),
      livemode,
      observedAt,
    ),
  );
}

/**
 * The stored answers of the store's search for `terms` from `first` to `last`, keyed `country|termKey|YYYY-MM-DD`:
 * the store ids, best first.
 */
export async function readSearchAnswers(
  client: RawClient,
  input: { livemode: boolean; store: Store; terms: { country: string; termKey: string }[]; first: Date; last: Date },
): Promise<Map<string, string[]>> {
  if (!input.terms.length) return new Map();
  const rows = await client.$queryRawUnsafe<{ key: string; store_ids: string[] }[]>(
    `SELECT a.country || '|' || a.term_key || '|' || to_char(a.date, 'YYYY-MM-DD') AS key, a.store_ids
     FROM search_answers a JOIN unnest($3::text[], $4::text[]) AS wanted(country, term_key) ON wanted.country = a.country AND wanted.term_key = a.term_key
     WHERE a.livemode = $1 AND a.store = $2::"Store" AND a.date BETWEEN $5::date AND $6::date`,
    input.livemode,
    input.store,
    input.terms.map((term) => term.country),
    input.terms.map((term) => term.termKey),
    isoDay(input.first),
    isoDay(input.last),
  );
  return new Map(rows.map((row) => [row.key, row.store_ids]));
}

/**
 * Store apps' ranks, once each: a rank already stored for the store app, storefront, term and day stands (the first
 * observation of a day, whichever account's refresh made it); only its `discovered` may turn true, when a later
 * observation found the app ranking for the term on its own. Their partitions must exist (ensureFactPartitions).
 */
export function insertAppRanks(client: RawClient, rows: AppRankRow[]): Promise<void> {
  // One row per key: a statement may not propose one twice (an app that follows itself as a competitor would).
  const byKey = new Map<string, AppRankRow>();
  for (const row of rows) {
    const key = `${row.storeAppId}|${row.country}|${row.termKey}|${row.date.getTime()}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, row);
    else if (row.discovered && !seen.discovered) byKey.set(key, { ...seen, discovered: true });
  }
  return inChunks([...byKey.values()], (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO app_ranks (store_app_id, country, term_key, term, date, rank, discovered)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::date[], $6::smallint[], $7::boolean[])
       ON CONFLICT (store_app_id, country, term_key, date) DO UPDATE SET discovered = true WHERE EXCLUDED.discovered AND NOT app_ranks.discovered`,
      chunk.map((row) => row.storeAppId),
      chunk.map((row) => row.country),
      chunk.map((row) => row.termKey),
      chunk.map((row) => row.term),
      chunk.map((row) => isoDay(row.date)),
      chunk.map((row) => row.rank),
      chunk.map((row) => row.discovered),
    ),
  );
}

/**
 * The (storefront, term, day) of `terms` from `first` to `last` for which every one of `storeAppIds` has a rank
 * stored (ranked or not): what a refresh need not ask the store again. As `country|termKey|YYYY-MM-DD`.
 */
export async function readObservedRanks(
  client: RawClient,
  input: { storeAppIds: number[]; terms: { country: string; termKey: string }[]; first: Date; last: Date },
): Promise<Set<string>> {
  if (!input.terms.length || !input.storeAppIds.length) return new Set();
  const rows = await client.$queryRawUnsafe<{ key: string }[]>(
    `SELECT r.country || '|' || r.term_key || '|' || to_char(r.date, 'YYYY-MM-DD') AS key
     FROM app_ranks r JOIN unnest($2::text[], $3::text[]) AS wanted(country, term_key) ON wanted.country = r.country AND wanted.term_key = r.term_key
     WHERE r.store_app_id = ANY($1::int[]) AND r.date BETWEEN $4::date AND $5::date
     GROUP BY r.country, r.term_key, r.date
     HAVING count(*) = cardinality($1::int[])`,
    input.storeAppIds,
    input.terms.map((term) => term.country),
    input.terms.map((term) => term.termKey),
    isoDay(input.first),
    isoDay(input.last),
  );
  return new Set(rows.map((row) => row.key));
}

/**
 * The first observation of a day stands (metrics describe the store's search, whichever of its apps observed them).
 * `livemode` false: a test sandbox's generated figures, kept apart from the stores' own.
 */
export function insertKeywordMetrics(client: RawClient, rows: KeywordMetricRow[], livemode: boolean): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO keyword_metrics (livemode, store, country, term_key, date, volume, difficulty)
       SELECT $7::boolean, * FROM unnest($1::"Store"[], $2::text[], $3::text[], $4::date[], $5::int[], $6::smallint[])
       ON CONFLICT DO NOTHING`,
      chunk.map((row) => row.store),
      chunk.map((row) => row.country),
      chunk.map((row) => row.termKey),
      chunk.map((row) => isoDay(row.date)),
      chunk.map((row) => row.volume),
      chunk.map((row) => row.difficulty),
      livemode,
    ),
  );
}

/** The rows as their tables hold them, each made here with its id. */
export type ReviewRow = Omit<Review, 'id'>;
export type RatingSnapshotRow = Omit<RatingSnapshot, 'histogram'> & { histogram: Record<string, number> | null };
export type CategoryRankRow = CategoryRank;
export type MetadataSnapshotRow = Omit<MetadataSnapshot, 'id'>;
export type MetadataChangeRow = Omit<MetadataChange, 'id'>;

/** The (storefront, day) of the store app in `countries` from `first` to `last` whose full observation is stored, with when it was made. */
export async function readObservedDays(
  client: RawClient,
  input: { storeAppId: number; countries: string[]; first: Date; last: Date },
): Promise<Map<string, Date>> {
  if (!input.countries.length) return new Map();
  const rows = await client.$queryRawUnsafe<{ key: string; observed_at: Date }[]>(
    `SELECT country || '|' || to_char(date, 'YYYY-MM-DD') AS key, observed_at FROM store_app_days
     WHERE store_app_id = $1 AND country = ANY($2::text[]) AND date BETWEEN $3::date AND $4::date`,
    input.storeAppId,
    input.countries,
    isoDay(input.first),
    isoDay(input.last),
  );
  return new Map(rows.map((row) => [row.key, row.observed_at]));
}

/** Records the store app's full observations of these storefronts and days as stored (once its facts are). */
export function insertObservedDays(
  client: RawClient,
  storeAppId: number,
  days: { country: string; date: Date }[],
  observedAt: Date,
): Promise<void> {
  return inChunks(days, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO store_app_days (store_app_id, country, date, observed_at)
       SELECT $1, observed.country, observed.date, $4::timestamptz FROM unnest($2::text[], $3::date[]) AS observed(country, date)
       ON CONFLICT DO NOTHING`,
      storeAppId,
      chunk.map((day) => day.country),
      chunk.map((day) => isoDay(day.date)),
      observedAt.toISOString(),
    ),
  );
}

/** The store ids among `storeReviewIds` of the store app's reviews stored already: those need no analysis, nor storing. */
export async function readStoredReviewIds(
  client: RawClient,
  storeAppId: number,
  storeReviewIds: string[],
): Promise<Set<string>> {
  if (!storeReviewIds.length) return new Set();
  const rows = await client.$queryRawUnsafe<{ id: string }[]>(
    'SELECT store_review_id AS id FROM reviews WHERE store_app_id = $1 AND store_review_id = ANY($2::text[])',
    storeAppId,
    storeReviewIds,
  );
  return new Set(rows.map((row) => row.id));
}

/** The reviews not stored yet (a review already stored, by its store id, is left as it is): each new one's id and what its event names. */
export async function insertReviews(
  client: RawClient,
  rows: ReviewRow[],
): Promise<{ id: string; rating: number; country: string; reviewedAt: Date }[]> {
  const inserted: { id: string; rating: number; country: string; reviewedAt: Date }[] = [];
  await inChunks(rows, async (chunk) => {
    inserted.push(
      ...(await client.$queryRawUnsafe<typeof inserted>(
        `INSERT INTO reviews (id, store_app_id, store_review_id, country, rating, title, body, author, version, reviewed_at, observed_on, sentiment, topics,
           bug_report, feature_requests)
         SELECT gen_random_uuid(), r.* FROM jsonb_to_recordset($1::jsonb) AS r(store_app_id int, store_review_id text, country text, rating smallint, title text,
           body text, author text, version text, reviewed_at timestamptz, observed_on date, sentiment real, topics text[], bug_report boolean, feature_requests text[])
         ON CONFLICT (store_app_id, store_review_id) DO NOTHING
         RETURNING id::text, rating::int, country::text, reviewed_at AS "reviewedAt"`,
        recordsJson(
          chunk.map((row) => ({
            store_app_id: row.storeAppId,
            store_review_id: row.storeReviewId,
            country: row.country,
            rating: row.rating,
            title: row.title,
            body: row.body,
            author: row.author,
            version: row.version,
            reviewed_at: row.reviewedAt,
            observed_on: isoDay(row.observedOn),
            sentiment: row.sentiment,
            topics: row.topics,
            bug_report: row.bugReport,
            feature_requests: row.featureRequests,
          })),
        ),
      )),
    );
  });
  return inserted;
}

/** Store apps' ratings, once each: one already stored for the store app, storefront and day stands. */
export function insertRatingSnapshots(client: RawClient, rows: RatingSnapshotRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO rating_snapshots (store_app_id, country, date, average, count, histogram)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(store_app_id int, country text, date date, average real, count int, histogram jsonb)
       ON CONFLICT DO NOTHING`,
      recordsJson(
        chunk.map((row) => ({
          store_app_id: row.storeAppId,
          country: row.country,
          date: isoDay(row.date),
          average: row.average,
          count: row.count,
          histogram: row.histogram,
        })),
      ),
    ),
  );
}

/** Store apps' chart places, once each: one already stored for the store app, storefront and day stands. */
export function insertCategoryRanks(client: RawClient, rows: CategoryRankRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO category_ranks (store_app_id, country, date, category, rank)
       SELECT * FROM unnest($1::int[], $2::text[], $3::date[], $4::text[], $5::smallint[])
       ON CONFLICT DO NOTHING`,
      chunk.map((row) => row.storeAppId),
      chunk.map((row) => row.country),
      chunk.map((row) => isoDay(row.date)),
      chunk.map((row) => row.category),
      chunk.map((row) => row.rank),
    ),
  );
}

export function insertMetadataSnapshots(client: RawClient, rows: MetadataSnapshotRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO metadata_snapshots (id, store_app_id, country, captured_at, title, subtitle, description, keyword_field, promotional_text, whats_new,
         screenshots_count, has_video, price, currency, version)
       SELECT gen_random_uuid(), * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::smallint[], $11::boolean[], $12::text[], $13::text[], $14::text[])`,
      chunk.map((row) => row.storeAppId),
      chunk.map((row) => row.country),
      chunk.map((row) => row.capturedAt.toISOString()),
      chunk.map((row) => row.title),
      chunk.map((row) => row.subtitle),
      chunk.map((row) => row.description),
      chunk.map((row) => row.keywordField),
      chunk.map((row) => row.promotionalText),
      chunk.map((row) => row.whatsNew),
      chunk.map((row) => row.screenshotsCount),
      chunk.map((row) => row.hasVideo),
      chunk.map((row) => row.price),
      chunk.map((row) => row.currency),
      chunk.map((row) => row.version),
    ),
  );
}

export function insertMetadataChanges(client: RawClient, rows: MetadataChangeRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO metadata_changes (id, store_app_id, country, field, before, after, changed_at)
       SELECT gen_random_uuid(), * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])`,
      chunk.map((row) => row.storeAppId),
      chunk.map((row) => row.country),
      chunk.map((row) => row.field),
      chunk.map((row) => row.before),
      chunk.map((row) => row.after),
      chunk.map((row) => row.changedAt.toISOString()),
    ),
  );
}

/**
 * An unpaired UTF-16 surrogate (a store's text may carry one): UTF-8 cannot encode it, so it is stored as U+FFFD, as
 * node-postgres's UTF-8 encoding of a text parameter writes it; PostgreSQL's JSON parser would refuse its escape.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Rows as one JSON array of objects, for jsonb_to_recordset. */
function recordsJson(rows: object[]): string {
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(UNPAIRED_SURROGATE, '\uFFFD') : value,
  );
}
