// Tracked keywords with rank and movement, their daily history, and every keyword the app ranks for.
import type { Store } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { readRankedTermRows, readTrackedKeywordRows } from '@/server/db/keyword-statements';
import { addDays, isoDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { eachDay, freshnessOf, loadApp, loadAppIn, windowOf } from './app-context';

const RANK_WINDOWS = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 } as const;
export type RankWindow = keyof typeof RANK_WINDOWS;

export interface KeywordListItem {
  keywordId: string;
  term: string;
  country: string;
  rank: number | null;
  /** What `rank` is: a rank, observed outside the results, or not observed that day. */
  rankStatus: RankStatus;
  /** The day `rank` describes (the app's last day of data); null when it was not observed. */
  observedOn: string | null;
  /** null when either end is not a rank (docs: Aso-Version 2026-11-29; older versions answer 0). */
  rankDelta: number | null;
  volume: number | null;
  difficulty: number | null;
  isFavorite: boolean;
}

/**
 * Tracked keywords of one storefront. `rankDelta` = rank at the start of the window − rank now (positive: moved
 * up), null when either end is not a rank (src/server/api/version-shapes.ts answers 0 to older versions). Ordered by rank (unranked last), then term.
 */
export async function listKeywords(
  accountId: string,
  input: { appId: string; country?: string; rankWindow: RankWindow },
): Promise<{ country: string; items: KeywordListItem[]; freshness: ReturnType<typeof freshnessOf> }> {
  const { app, country } = await loadAppIn(accountId, input);
  const start = addDays(app.asOf, -RANK_WINDOWS[input.rankWindow]);
  // One statement: the tracked keywords, their rank now and at the window's start, and today's metrics.
  const rows = await readTrackedKeywordRows({
    appId: app.id,
    store: app.store,
    livemode: app.livemode,
    country,
    day: isoDay(app.asOf),
    windowStart: isoDay(start),
  });
  return {
    country,
    freshness: freshnessOf(app, country, ['search', 'estimates']),
    items: rows.map((row) => ({
      keywordId: row.keyword_id,
      term: row.term,
      country,
      rank: row.rank,
      rankStatus: rankStatusOf(row.rank, row.observed),
      observedOn: row.observed ? isoDay(app.asOf) : null,
      rankDelta: row.rank !== null && row.then_rank !== null ? row.then_rank - row.rank : null,
      volume: row.volume,
      difficulty: row.difficulty,
      isFavorite: row.is_favorite,
    })),
  };
}

/**
 * The last `days` days of rank of every tracked keyword of one storefront, in one read: the keyword table's
 * sparklines. The same rows as each keyword's history, so the numbers agree with GET …/keywords/{keywordId}/history.
 */
export async function recentRanks(accountId: string, input: { appId: string; country?: string; days: number }) {
  const { app, country } = await loadAppIn(accountId, input);
  const window = windowOf(app, input.days);
  const keywords = await db.trackedKeyword.findMany({
    where: { appId: app.id, country },
    select: { id: true, termKey: true },
  });
  const rows = await db.appRank.findMany({
    where: {
      storeAppId: app.storeAppId,
      country,
      termKey: { in: keywords.map((keyword) => keyword.termKey) },
      date: { gte: window.from, lte: window.to },
    },
    select: { termKey: true, date: true, rank: true },
  });
  const rankOn = new Map(rows.map((row) => [`${row.termKey}|${isoDay(row.date)}`, row.rank]));
  const days = eachDay(window).map(isoDay);
  return keywords.map((keyword) => ({
    keywordId: keyword.id,
    points: days.map((date) => ({ date, rank: rankOn.get(`${keyword.termKey}|${date}`) ?? null })),
  }));
}

/** A tracked keyword of the app (404 otherwise), its window of `days` days, and the header of its series. */
async function loadKeywordSeries(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const app = await loadApp(accountId, input.appId);
  const keyword = await db.trackedKeyword.findFirst({ where: { id: input.keywordId, appId: app.id } });
  if (!keyword) throw new AppError('NOT_FOUND', 'This app tracks no keyword with this id.');
  const window = windowOf(app, input.days);
  const header = {
    keywordId: keyword.id,
    term: keyword.term,
    country: keyword.country,
    from: isoDay(window.from),
    to: isoDay(window.to),
    freshness: freshnessOf(app, keyword.country, ['search', 'estimates']),
  };
  return { app, keyword, window, header };
}

/** The keyword's daily rank, and each competitor's for the same term on the same days (in the order they were added). */
/** A store search's place for an app on a day: ranked, observed and not in the results, or not observed. */
export type RankStatus = 'ranked' | 'unranked' | 'not_observed';

export function rankStatusOf(rank: number | null, observed: boolean): RankStatus {
  return rank !== null ? 'ranked' : observed ? 'unranked' : 'not_observed';
}

export interface RankPoint {
  date: string;
  rank: number | null;
  status: RankStatus;
}

/**
 * The daily points of store apps' places in the store's search for a term in a storefront, over a window: the
 * keyword history's and the exports' one reading of them. A day the search was observed (by whichever account's
 * refresh) with no row of an app is a day it was not in the results.
 */
export async function rankSeries(input: {
  store: Store;
  livemode: boolean;
  country: string;
  termKey: string;
  window: { from: Date; to: Date };
  storeAppIds: number[];
}): Promise<(storeAppId: number) => RankPoint[]> {
  const where = {
    country: input.country,
    termKey: input.termKey,
    date: { gte: input.window.from, lte: input.window.to },
  };
  const [rows, answers] = await Promise.all([
    db.appRank.findMany({
      where: { ...where, storeAppId: { in: input.storeAppIds } },
      select: { storeAppId: true, date: true, rank: true },
    }),
    db.searchAnswer.findMany({
      where: { livemode: input.livemode, store: input.store, ...where },
      select: { date: true },
    }),
  ]);
  const answered = new Set(answers.map((answer) => isoDay(answer.date)));
  const days = eachDay(input.window).map(isoDay);
  const rankOf = new Map(rows.map((row) => [`${row.storeAppId}|${isoDay(row.date)}`, row.rank]));
  return (storeAppId) =>
    days.map((date) => {
      const key = `${storeAppId}|${date}`;
      const rank = rankOf.get(key) ?? null;
      return { date, rank, status: rankStatusOf(rank, rankOf.has(key) || answered.has(date)) };
    });
}

export async function keywordHistory(accountId: string, input: { appId: string; keywordId: string; days: number }) {
  const { app, keyword, window, header } = await loadKeywordSeries(accountId, input);
  const competitors = await db.competitor.findMany({
    where: { appId: app.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, store: true, storeId: true, storeAppId: true },
  });
  // The app's ranks and its competitors' are one table's rows: each store app's, whoever follows it. A store's search
  // lists its own apps: a competitor of the other store has no rank in it.
  const ranked = competitors.filter((competitor) => competitor.store === app.store);
  const pointsOf = await rankSeries({
    store: app.store,
    livemode: app.livemode,
    country: keyword.country,
    termKey: keyword.termKey,
    window,
    storeAppIds: [app.storeAppId, ...ranked.map((competitor) => competitor.storeAppId)],
  });
  const days = eachDay(window).map(isoDay);
  return {
    ...header,
    points: pointsOf(app.storeAppId),
    competitors: competitors.map((competitor) => ({
      competitorId: competitor.id,
      name: competitor.name,
      store: competitor.store,
      storeId: competitor.storeId,
      // A competitor of the other store is in none of this store's results: never observed here.
      points:
        competitor.store === app.store
          ? pointsOf(competitor.storeAppId)
          : days.map((date) => ({ date, rank: null, status: 'not_observed' as const })),
    })),
  };
}

export async function keywordMetricsHistory(
  accountId: string,
  input: { appId: string; keywordId: string; days: number },
) {
  const { app, keyword, window, header } = await loadKeywordSeries(accountId, input);
  return {
    ...header,
    points: await metricsSeries({
      livemode: app.livemode,
      store: app.store,
      country: keyword.country,
      termKey: keyword.termKey,
      window,
    }),
  };
}

/** A term's estimated volume and difficulty in a storefront, day by day: the metrics history's and the exports' one reading. */
export async function metricsSeries(input: {
  livemode: boolean;
  store: Store;
  country: string;
  termKey: string;
  window: { from: Date; to: Date };
}) {
  const { window, ...term } = input;
  const rows = await db.keywordMetric.findMany({
    where: { ...term, date: { gte: window.from, lte: window.to } },
    select: { date: true, volume: true, difficulty: true },
  });
  const byDay = new Map(rows.map((row) => [isoDay(row.date), row]));
  return eachDay(window).map((day) => {
    const row = byDay.get(isoDay(day));
    return {
      date: isoDay(day),
      volume: row?.volume ?? null,
      difficulty: row?.difficulty ?? null,
      status: row ? ('observed' as const) : ('not_observed' as const),
    };
  });
}

/** Every term the app ranks for on its last day of data, best rank first, with whether it is tracked. */
export async function keywordSpy(accountId: string, input: { appId: string; country?: string }) {
  const { app, country } = await loadAppIn(accountId, input);
  const rows = await readRankedTermRows({
    appId: app.id,
    store: app.store,
    livemode: app.livemode,
    country,
    day: isoDay(app.asOf),
  });
  return {
    country,
    date: isoDay(app.asOf),
    freshness: freshnessOf(app, country, ['search', 'estimates']),
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
