// Daily series of the category chart position and of the rating.
import { db } from '@/server/db';
import type { RatingHistogram } from '@/server/services/ingest/provider';
import { isoDay } from '@/server/core/dates';
import { eachDay, freshnessOf, loadApp, loadAppIn, windowOf } from './app-context';
import { rankStatusOf } from './keywords';

/** Days of rating history returned (GET /rating-history takes no parameters). */
export const RATING_HISTORY_DAYS = 365;

export async function categoryRankHistory(accountId: string, input: { appId: string; country?: string; days: number }) {
  const { app, country } = await loadAppIn(accountId, input);
  const window = windowOf(app, input.days);
  const [rows, first] = await Promise.all([
    db.categoryRank.findMany({
      where: { storeAppId: app.storeAppId, country, date: { gte: window.from, lte: window.to } },
      select: { date: true, rank: true, category: true },
    }),
    db.categoryRank.findFirst({
      where: { storeAppId: app.storeAppId, country },
      orderBy: { date: 'asc' },
      select: { date: true },
    }),
  ]);
  const byDay = new Map(rows.map((row) => [isoDay(row.date), row.rank]));
  return {
    country,
    category: rows.at(-1)?.category ?? app.category,
    chart: 'top-free' as const,
    observedSince: first ? isoDay(first.date) : null,
    freshness: freshnessOf(app, country, ['chart']),
    from: isoDay(window.from),
    to: isoDay(window.to),
    // A day with no row was not observed (before the first observation, or the store failed); a row's null rank is
    // a day observed with the app outside the chart.
    points: eachDay(window).map((day) => {
      const rank = byDay.get(isoDay(day)) ?? null;
      return { date: isoDay(day), rank, status: rankStatusOf(rank, byDay.has(isoDay(day))) };
    }),
  };
}

export async function ratingHistory(accountId: string, input: { appId: string }) {
  const app = await loadApp(accountId, input.appId);
  const window = windowOf(app, RATING_HISTORY_DAYS);
  const rows = await db.ratingSnapshot.findMany({
    // The store's rating as its primary storefront shows it.
    where: { storeAppId: app.storeAppId, country: app.primaryCountry, date: { gte: window.from, lte: window.to } },
    orderBy: { date: 'asc' },
    select: { date: true, average: true, count: true, histogram: true },
  });
  return {
    freshness: freshnessOf(app, app.primaryCountry, ['ratings']),
    from: rows.length ? isoDay(rows[0]!.date) : null,
    to: rows.length ? isoDay(rows.at(-1)!.date) : null,
    points: rows.map((row) => ({
      date: isoDay(row.date),
      average: Math.round(row.average * 100) / 100,
      count: row.count,
      histogram: row.histogram as RatingHistogram | null,
    })),
  };
}
