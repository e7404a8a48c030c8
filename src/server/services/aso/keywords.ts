// Tracked keywords with rank and movement, their daily history, and every keyword the app ranks for.
import { db } from '@/server/db';
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
  const keywords = await db.trackedKeyword.findMany({ where: { appId: app.id, country }, orderBy: { createdAt: 'asc' } });
  if (!keywords.length) return { country, items: [] };
  const termKeys = keywords.map((keyword) => keyword.termKey);
  const start = addDays(app.asOf, -RANK_WINDOWS[input.rankWindow]);
  const [ranks, metrics] = await Promise.all([
    db.keywordRank.findMany({
      where: { appId: app.id, country, termKey: { in: termKeys }, date: { in: [app.asOf, start] } },
      select: { termKey: true, date: true, rank: true },
    }),
    db.keywordMetric.findMany({ where: { country, termKey: { in: termKeys }, date: app.asOf }, select: { termKey: true, volume: true, difficulty: true } }),
  ]);
  const rankNow = new Map<string, number | null>();
  const rankThen = new Map<string, number | null>();
  for (const row of ranks) (row.date.getTime() === app.asOf.getTime() ? rankNow : rankThen).set(row.termKey, row.rank);
  const metricOf = new Map(metrics.map((row) => [row.termKey, row]));
  const items = keywords.map((keyword) => {
    const rank = rankNow.get(keyword.termKey) ?? null;
    const then = rankThen.get(keyword.termKey) ?? null;
    const metric = metricOf.get(keyword.termKey);
    return {
      keywordId: keyword.id,
      term: keyword.term,
      country,
      rank,
      rankDelta: rank !== null && then !== null ? then - rank : 0,
      volume: metric?.volume ?? null,
      difficulty: metric?.difficulty ?? null,
      isFavorite: keyword.isFavorite,
    };
  });
  items.sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.term.localeCompare(b.term));
  return { country, items };
}

async function loadKeyword(accountId: string, appId: string, keywordId: string) {
  const app = await loadApp(accountId, appId);
  const keyword = await db.trackedKeyword.findFirst({ where: { id: keywordId, appId: app.id } });
  if (!keyword) throw new AppError('NOT_FOUND', 'This app tracks no keyword with this id.');
  return { app, keyword };
}

export async function keywordHistory(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const { app, keyword } = await loadKeyword(accountId, input.appId, input.keywordId);
  const window = windowOf(app, input.days);
  const rows = await db.keywordRank.findMany({
    where: { appId: app.id, country: keyword.country, termKey: keyword.termKey, date: { gte: window.from, lte: window.to } },
    select: { date: true, rank: true },
  });
  const rankOn = new Map(rows.map((row) => [isoDay(row.date), row.rank]));
  return {
    keywordId: keyword.id,
    term: keyword.term,
    country: keyword.country,
    from: isoDay(window.from),
    to: isoDay(window.to),
    points: eachDay(window).map((day) => ({ date: isoDay(day), rank: rankOn.get(isoDay(day)) ?? null })),
  };
}

export async function keywordMetricsHistory(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const { app, keyword } = await loadKeyword(accountId, input.appId, input.keywordId);
  const window = windowOf(app, input.days);
  const rows = await db.keywordMetric.findMany({
    where: { country: keyword.country, termKey: keyword.termKey, date: { gte: window.from, lte: window.to } },
    select: { date: true, volume: true, difficulty: true },
  });
  const byDay = new Map(rows.map((row) => [isoDay(row.date), row]));
  return {
    keywordId: keyword.id,
    term: keyword.term,
    country: keyword.country,
    from: isoDay(window.from),
    to: isoDay(window.to),
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
  const [ranks, tracked] = await Promise.all([
    db.keywordRank.findMany({
      where: { appId: app.id, country, date: app.asOf, rank: { not: null } },
      orderBy: [{ rank: 'asc' }, { termKey: 'asc' }],
      select: { term: true, termKey: true, rank: true },
    }),
    db.trackedKeyword.findMany({ where: { appId: app.id, country }, select: { id: true, termKey: true } }),
  ]);
  const metrics = await db.keywordMetric.findMany({
    where: { country, date: app.asOf, termKey: { in: ranks.map((row) => row.termKey) } },
    select: { termKey: true, volume: true, difficulty: true },
  });
  const metricOf = new Map(metrics.map((row) => [row.termKey, row]));
  const trackedId = new Map(tracked.map((row) => [row.termKey, row.id]));
  return {
    country,
    date: isoDay(app.asOf),
    keywords: ranks.map((row) => ({
      term: row.term,
      rank: row.rank!,
      volume: metricOf.get(row.termKey)?.volume ?? null,
      difficulty: metricOf.get(row.termKey)?.difficulty ?? null,
      tracked: trackedId.has(row.termKey),
      keywordId: trackedId.get(row.termKey) ?? null,
    })),
  };
}
