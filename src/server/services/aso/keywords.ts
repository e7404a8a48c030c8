// Tracked keywords with rank and movement, their daily history, and every keyword the app ranks for.
import { db, hotQuery } from '@/server/db';
import { addDays, isoDay } from '@/server/domain/dates';
import { AppError } from '@/server/errors/app-error';
import { eachDay, loadApp, windowOf } from './app-context';

export const RANK_WINDOWS = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 } as const;
export type RankWindow = keyof typeof RANK_WINDOWS;

export interface KeywordListItem {
  keywordId: string;
  term: string;
  country: string;
  rank: number | null;
  rankDelta: number;
  volume: number | null;
  difficulty: number | null;
  isFavorite: boolean;
}

/**
 * Tracked keywords of one storefront. `rankDelta` = rank at the start of the window − rank now (positive: moved
 * up), 0 when either end is unranked. Ordered by rank (unranked last), then term.
 */
export async function listKeywords(
  accountId: string,
  input: { appId: string; country?: string; rankWindow: RankWindow },
): Promise<{ country: string; items: KeywordListItem[] }> {
  const app = await loadApp(accountId, input.appId);
  const country = input.country ?? app.primaryCountry;
  const start = addDays(app.asOf, -RANK_WINDOWS[input.rankWindow]);
  // One statement on the pg pool (a list of up to thousands of rows: Prisma's per-row cost shows here): the tracked
  // keywords, their rank now and at the window's start, and today's metrics, looked up per keyword (LATERAL with
  // OFFSET 0 keeps it a lookup; joined plainly, PostgreSQL reads that day's metrics of every term in the country).
  const rows = await hotQuery<{
    keyword_id: string;
    term: string;
    is_favorite: boolean;
    rank: number | null;
    then_rank: number | null;
    volume: number | null;
    difficulty: number | null;
  }>(
    `SELECT k.id::text AS keyword_id, k.term, k.is_favorite, r.rank, t.rank AS then_rank, m.volume, m.difficulty
     FROM tracked_keywords k
     LEFT JOIN keyword_ranks r ON r.app_id = k.app_id AND r.country = k.country AND r.term_key = k.term_key AND r.date = $1::date
     LEFT JOIN keyword_ranks t ON t.app_id = k.app_id AND t.country = k.country AND t.term_key = k.term_key AND t.date = $2::date
     LEFT JOIN LATERAL (
       SELECT volume, difficulty FROM keyword_metrics
       WHERE country = k.country AND term_key = k.term_key AND date = $1::date OFFSET 0
     ) m ON true
     WHERE k.app_id = $3::uuid AND k.country = $4
     ORDER BY r.rank ASC NULLS LAST, k.term COLLATE "C" ASC, k.id`,
    [isoDay(app.asOf), isoDay(start), app.id, country],
  );
  return {
    country,
    items: rows.map((row) => ({
      keywordId: row.keyword_id,
      term: row.term,
      country,
      rank: row.rank,
      rankDelta: row.rank !== null && row.then_rank !== null ? row.then_rank - row.rank : 0,
      volume: row.volume,
      difficulty: row.difficulty,
      isFavorite: row.is_favorite,
    })),
  };
}

/** A tracked keyword of the app (404 otherwise), its window of `days` days, and the header of its series. */
async function loadKeywordSeries(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const app = await loadApp(accountId, input.appId);
  const keyword = await db.trackedKeyword.findFirst({ where: { id: input.keywordId, appId: app.id } });
  if (!keyword) throw new AppError('NOT_FOUND', 'This app tracks no keyword with this id.');
  const window = windowOf(app, input.days);
  const header = { keywordId: keyword.id, term: keyword.term, country: keyword.country, from: isoDay(window.from), to: isoDay(window.to) };
  return { app, keyword, window, header };
}

export async function keywordHistory(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const { app, keyword, window, header } = await loadKeywordSeries(accountId, input);
  const rows = await db.keywordRank.findMany({
    where: { appId: app.id, country: keyword.country, termKey: keyword.termKey, date: { gte: window.from, lte: window.to } },
    select: { date: true, rank: true },
  });
  const rankOn = new Map(rows.map((row) => [isoDay(row.date), row.rank]));
  return {
    ...header,
    points: eachDay(window).map((day) => ({ date: isoDay(day), rank: rankOn.get(isoDay(day)) ?? null })),
  };
}

export async function keywordMetricsHistory(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const { keyword, window, header } = await loadKeywordSeries(accountId, input);
  const rows = await db.keywordMetric.findMany({
    where: { country: keyword.country, termKey: keyword.termKey, date: { gte: window.from, lte: window.to } },
    select: { date: true, volume: true, difficulty: true },
  });
  const byDay = new Map(rows.map((row) => [isoDay(row.date), row]));
  return {
    ...header,
    points: eachDay(window).map((day) => {
      const row = byDay.get(isoDay(day));
      return { date: isoDay(day), volume: row?.volume ?? null, difficulty: row?.difficulty ?? null };
    }),
  };
}

/** Every term the app ranks for on its last day of data, best rank first, with whether it is tracked. */
export async function keywordSpy(accountId: string, input: { appId: string; country?: string }) {
  const app = await loadApp(accountId, input.appId);
  const country = input.country ?? app.primaryCountry;
  const rows = await hotQuery<{ term: string; rank: number; volume: number | null; difficulty: number | null; keyword_id: string | null }>(
    `SELECT r.term, r.rank, m.volume, m.difficulty, k.id::text AS keyword_id
     FROM keyword_ranks r
     LEFT JOIN LATERAL (
       SELECT volume, difficulty FROM keyword_metrics
       WHERE country = r.country AND term_key = r.term_key AND date = r.date OFFSET 0
     ) m ON true
     LEFT JOIN tracked_keywords k ON k.app_id = r.app_id AND k.country = r.country AND k.term_key = r.term_key
     WHERE r.app_id = $1::uuid AND r.country = $2 AND r.date = $3::date AND r.rank IS NOT NULL
     ORDER BY r.rank ASC, r.term_key COLLATE "C" ASC`,
    [app.id, country, isoDay(app.asOf)],
  );
  return {
    country,
    date: isoDay(app.asOf),
    keywords: rows.map((row) => ({
      term: row.term,
      rank: row.rank,
      volume: row.volume,
      difficulty: row.difficulty,
      tracked: row.keyword_id !== null,
      keywordId: row.keyword_id,
    })),
  };
}
