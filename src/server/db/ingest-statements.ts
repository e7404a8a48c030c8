// The bulk inserts of a refresh. Keyword ranks and metrics (and competitors' ranks) are the bulk of every refresh (a new keyword: 365 of each;
// a backfill: hundreds of thousands), written as one statement per chunk of column arrays (unnest). Prisma's
// createMany builds its query row by row, several times the app's CPU for the same insert (docs/benchmarks.md).
import type { Prisma } from '@/generated/prisma/client';
import type { Store } from '@/generated/prisma/enums';
import { isoDay } from '@/server/core/dates';

const CHUNK = 5_000;
async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** The database, or a transaction of it. */
type RawClient = Pick<Prisma.TransactionClient, '$executeRawUnsafe'>;
export type KeywordRankRow = { appId: string; country: string; termKey: string; term: string; date: Date; rank: number | null };
export type CompetitorRankRow = { competitorId: string; appId: string; country: string; termKey: string; date: Date; rank: number | null };
export type KeywordMetricRow = { store: Store; country: string; termKey: string; date: Date; volume: number; difficulty: number };

export function insertKeywordRanks(client: RawClient, rows: KeywordRankRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO keyword_ranks (app_id, country, term_key, term, date, rank)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::date[], $6::smallint[])`,
      chunk.map((row) => row.appId),
      chunk.map((row) => row.country),
      chunk.map((row) => row.termKey),
      chunk.map((row) => row.term),
      chunk.map((row) => isoDay(row.date)),
      chunk.map((row) => row.rank),
    ),
  );
}

export function insertCompetitorRanks(client: RawClient, rows: CompetitorRankRow[]): Promise<void> {
  return inChunks(rows, (chunk) =>
    client.$executeRawUnsafe(
      `INSERT INTO competitor_ranks (competitor_id, app_id, country, term_key, date, rank)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::date[], $6::smallint[])`,
      chunk.map((row) => row.competitorId),
      chunk.map((row) => row.appId),
      chunk.map((row) => row.country),
      chunk.map((row) => row.termKey),
      chunk.map((row) => isoDay(row.date)),
      chunk.map((row) => row.rank),
    ),
  );
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
