// The datasets an export can hold (issue 68; docs/api-decisions.md, "Exports"): each a typed table, its columns
// described as the data dictionary describes the API's fields, and its rows read in batches from the same store facts
// and by the same rules as the API's answers (a keyword's ranks are the keyword history's points, day by day), so that
// an export is row for row what the calls would answer, in bounded memory whatever its size.
import type { Store } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { isoDay } from '@/server/core/dates';
import { eachDay } from '@/server/services/aso/app-context';
import { metricsSeries, rankSeries, rankStatusOf } from '@/server/services/aso/keywords';

export const DATASETS = [
  'keyword_ranks',
  'keyword_metrics',
  'competitor_ranks',
  'ratings',
  'category_ranks',
  'reviews',
  'metadata_changes',
] as const;
export type Dataset = (typeof DATASETS)[number];

/** A column's type, as each format writes it: Parquet's logical type, CSV's text, JSON's value. */
type ColumnType = 'string' | 'date' | 'timestamp' | 'int32' | 'int64' | 'double';

export interface Column {
  name: string;
  type: ColumnType;
  nullable: boolean;
  description: string;
}

export type Row = Record<string, string | number | null>;

/** One app of the export, as its datasets read it. */
export interface ExportApp {
  id: string;
  store: Store;
  storeAppId: number;
  livemode: boolean;
  primaryCountry: string;
  /** The storefronts asked for that the app is tracked in (every one of the app's, when none were asked for). */
  storefronts: string[];
}

interface DatasetWindow {
  from: Date;
  to: Date;
}

interface DatasetDefinition {
  description: string;
  columns: Column[];
  /** Batches of rows of one app over the window, in a stable order. */
  rows: (app: ExportApp, window: DatasetWindow) => AsyncGenerator<Row[]>;
  /** How many rows `rows` gives, read cheaply (the quote and the size limit are counted from it). */
  count: (app: ExportApp, window: DatasetWindow) => Promise<number>;
}

const APP_ID: Column = { name: 'app_id', type: 'string', nullable: false, description: 'The tracked app (its id).' };
const KEYWORD_ID: Column = {
  name: 'keyword_id',
  type: 'string',
  nullable: false,
  description: 'The tracked keyword (its id).',
};
const TERM: Column = { name: 'term', type: 'string', nullable: false, description: 'The term as tracked.' };
const COUNTRY: Column = {
  name: 'country',
  type: 'string',
  nullable: false,
  description: 'Storefront, ISO 3166-1 alpha-2.',
};
const DATE: Column = { name: 'date', type: 'date', nullable: false, description: 'The UTC day.' };
const RANK_STATUS: Column = {
  name: 'status',
  type: 'string',
  nullable: false,
  description:
    '`ranked` (observed, with its rank), `unranked` (observed, outside the store’s results: Apple shows 200, Google Play 100) or `not_observed` (not tracked then, the store failed, or before the first observation).',
};

const daysIn = (window: DatasetWindow) => eachDay(window).length;

async function trackedKeywords(app: ExportApp) {
  return db.trackedKeyword.findMany({
    where: { appId: app.id, country: { in: app.storefronts } },
    orderBy: [{ country: 'asc' }, { termKey: 'asc' }],
    select: { id: true, term: true, termKey: true, country: true },
  });
}

async function sameStoreCompetitors(app: ExportApp) {
  return db.competitor.findMany({
    where: { appId: app.id, store: app.store },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, storeAppId: true },
  });
}

export const DATASET_DEFINITIONS: Record<Dataset, DatasetDefinition> = {
  keyword_ranks: {
    description:
      'The app’s daily rank for each tracked keyword, as GET /apps/{id}/keywords/{keywordId}/history answers it: a row a keyword a day.',
    columns: [
      APP_ID,
      KEYWORD_ID,
      TERM,
      COUNTRY,
      DATE,
      {
        name: 'rank',
        type: 'int32',
        nullable: true,
        description: 'Place in the store’s search results, 1 = first; null unless `status` is `ranked`.',
      },
      RANK_STATUS,
    ],
    async *rows(app, window) {
      for (const keyword of await trackedKeywords(app)) {
        const pointsOf = await rankSeries({
          store: app.store,
          livemode: app.livemode,
          country: keyword.country,
          termKey: keyword.termKey,
          window,
          storeAppIds: [app.storeAppId],
        });
        yield pointsOf(app.storeAppId).map((point) => ({
          app_id: app.id,
          keyword_id: keyword.id,
          term: keyword.term,
          country: keyword.country,
          date: point.date,
          rank: point.rank,
          status: point.status,
        }));
      }
    },
    count: async (app, window) => (await trackedKeywords(app)).length * daysIn(window),
  },
  competitor_ranks: {
    description:
      'Each competitor’s daily rank for each of the app’s tracked keywords (the competitors of the app’s store: a store’s search lists only its apps), as the keyword history’s `competitors` answer them.',
    columns: [
      APP_ID,
      { name: 'competitor_id', type: 'string', nullable: false, description: 'The competitor (its id).' },
      { name: 'competitor_name', type: 'string', nullable: true, description: 'The competitor’s name in its store.' },
      KEYWORD_ID,
      TERM,
      COUNTRY,
      DATE,
      { name: 'rank', type: 'int32', nullable: true, description: 'The competitor’s place; null unless `ranked`.' },
      RANK_STATUS,
    ],
    async *rows(app, window) {
      const competitors = await sameStoreCompetitors(app);
      if (!competitors.length) return;
      for (const keyword of await trackedKeywords(app)) {
        const pointsOf = await rankSeries({
          store: app.store,
          livemode: app.livemode,
          country: keyword.country,
          termKey: keyword.termKey,
          window,
          storeAppIds: competitors.map((competitor) => competitor.storeAppId),
        });
        yield competitors.flatMap((competitor) =>
          pointsOf(competitor.storeAppId).map((point) => ({
            app_id: app.id,
            competitor_id: competitor.id,
            competitor_name: competitor.name,
            keyword_id: keyword.id,
            term: keyword.term,
            country: keyword.country,
            date: point.date,
            rank: point.rank,
            status: point.status,
          })),
        );
      }
    },
    count: async (app, window) =>
      (await sameStoreCompetitors(app)).length * (await trackedKeywords(app)).length * daysIn(window),
  },
  keyword_metrics: {
    description:
      'Each tracked keyword’s daily estimated volume and difficulty in its storefront, as GET /apps/{id}/keywords/{keywordId}/metrics-history answers them.',
    columns: [
      APP_ID,
      KEYWORD_ID,
      TERM,
      COUNTRY,
      DATE,
      {
        name: 'volume',
        type: 'int32',
        nullable: true,
        description: 'Estimated monthly searches (an estimate from what the store shows); null when not observed.',
      },
      {
        name: 'difficulty',
        type: 'int32',
        nullable: true,
        description: 'How hard the term is to rank for, 0–100 (an estimate); null when not observed.',
      },
      { name: 'status', type: 'string', nullable: false, description: '`observed` or `not_observed`.' },
    ],
    async *rows(app, window) {
      for (const keyword of await trackedKeywords(app)) {
        const points = await metricsSeries({
          livemode: app.livemode,
          store: app.store,
          country: keyword.country,
          termKey: keyword.termKey,
          window,
        });
        yield points.map((point) => ({
          app_id: app.id,
          keyword_id: keyword.id,
          term: keyword.term,
          country: keyword.country,
          ...point,
        }));
      }
    },
    count: async (app, window) => (await trackedKeywords(app)).length * daysIn(window),
  },
  ratings: {
    description:
      'The store’s rating of the app, each day it was observed, in each storefront (GET /apps/{id}/rating-history answers the primary storefront’s).',
    columns: [
      APP_ID,
      COUNTRY,
      DATE,
      { name: 'average', type: 'double', nullable: false, description: 'The store’s average, 1–5, of every rating.' },
      { name: 'count', type: 'int64', nullable: false, description: 'How many ratings the store counts.' },
    ],
    async *rows(app, window) {
      for (const country of app.storefronts) {
        const rows = await db.ratingSnapshot.findMany({
          where: { storeAppId: app.storeAppId, country, date: { gte: window.from, lte: window.to } },
          orderBy: { date: 'asc' },
          select: { date: true, average: true, count: true },
        });
        yield rows.map((row) => ({
          app_id: app.id,
          country,
          date: isoDay(row.date),
          average: Math.round(row.average * 100) / 100,
          count: row.count,
        }));
      }
    },
    count: (app, window) =>
      db.ratingSnapshot.count({
        where: {
          storeAppId: app.storeAppId,
          country: { in: app.storefronts },
          date: { gte: window.from, lte: window.to },
        },
      }),
  },
  category_ranks: {
    description:
      'The app’s daily place in its category’s top-free chart, in each storefront, as GET /apps/{id}/category-rank answers it.',
    columns: [
      APP_ID,
      COUNTRY,
      DATE,
      {
        name: 'category',
        type: 'string',
        nullable: true,
        description: 'The chart’s category; null when not observed.',
      },
      {
        name: 'rank',
        type: 'int32',
        nullable: true,
        description: 'Place in the top 200; null unless `status` is `ranked`.',
      },
      {
        name: 'status',
        type: 'string',
        nullable: false,
        description: '`ranked` (in the chart), `unranked` (observed outside it) or `not_observed`.',
      },
    ],
    async *rows(app, window) {
      for (const country of app.storefronts) {
        const rows = await db.categoryRank.findMany({
          where: { storeAppId: app.storeAppId, country, date: { gte: window.from, lte: window.to } },
          select: { date: true, rank: true, category: true },
        });
        const byDay = new Map(rows.map((row) => [isoDay(row.date), row]));
        yield eachDay(window).map((day) => {
          const row = byDay.get(isoDay(day));
          const rank = row?.rank ?? null;
          return {
            app_id: app.id,
            country,
            date: isoDay(day),
            category: row?.category ?? null,
            rank,
            status: rankStatusOf(rank, row !== undefined),
          };
        });
      }
    },
    count: async (app, window) => app.storefronts.length * daysIn(window),
  },
  reviews: {
    description:
      'The store’s public reviews of the app written in the window, in its storefronts, as GET /apps/{id}/reviews answers them.',
    columns: [
      APP_ID,
      { name: 'review_id', type: 'string', nullable: false, description: 'The review (its id).' },
      COUNTRY,
      { name: 'rating', type: 'int32', nullable: false, description: 'Stars, 1–5.' },
      { name: 'title', type: 'string', nullable: false, description: 'The review’s title.' },
      { name: 'body', type: 'string', nullable: false, description: 'The review’s text.' },
      { name: 'author', type: 'string', nullable: false, description: 'The reviewer’s name as the store shows it.' },
      {
        name: 'version',
        type: 'string',
        nullable: true,
        description: 'The app version reviewed, when the store says.',
      },
      { name: 'reviewed_at', type: 'timestamp', nullable: false, description: 'When it was written (UTC).' },
      {
        name: 'sentiment',
        type: 'double',
        nullable: false,
        description: 'Lexicon sentiment of title and body, −1 to 1.',
      },
    ],
    async *rows(app, window) {
      const until = new Date(window.to.getTime() + 86_400_000);
      let after: { reviewedAt: Date; id: string } | null = null;
      for (;;) {
        const page: {
          id: string;
          country: string;
          rating: number;
          title: string;
          body: string;
          author: string;
          version: string | null;
          reviewedAt: Date;
          sentiment: number;
        }[] = await db.review.findMany({
          where: {
            storeAppId: app.storeAppId,
            country: { in: app.storefronts },
            reviewedAt: { gte: window.from, lt: until },
            ...(after && {
              OR: [{ reviewedAt: { gt: after.reviewedAt } }, { reviewedAt: after.reviewedAt, id: { gt: after.id } }],
            }),
          },
          orderBy: [{ reviewedAt: 'asc' }, { id: 'asc' }],
          take: 5_000,
          select: {
            id: true,
            country: true,
            rating: true,
            title: true,
            body: true,
            author: true,
            version: true,
            reviewedAt: true,
            sentiment: true,
          },
        });
        if (!page.length) return;
        yield page.map((review) => ({
          app_id: app.id,
          review_id: review.id,
          country: review.country,
          rating: review.rating,
          title: review.title,
          body: review.body,
          author: review.author,
          version: review.version,
          reviewed_at: review.reviewedAt.toISOString(),
          sentiment: review.sentiment,
        }));
        const last = page.at(-1)!;
        after = { reviewedAt: last.reviewedAt, id: last.id };
      }
    },
    count: (app, window) =>
      db.review.count({
        where: {
          storeAppId: app.storeAppId,
          country: { in: app.storefronts },
          reviewedAt: { gte: window.from, lt: new Date(window.to.getTime() + 86_400_000) },
        },
      }),
  },
  metadata_changes: {
    description:
      'Each change of the app’s store listing, field by field, as GET /apps/{id}/metadata/changelog answers it.',
    columns: [
      APP_ID,
      COUNTRY,
      { name: 'changed_at', type: 'timestamp', nullable: false, description: 'When the change was observed (UTC).' },
      { name: 'field', type: 'string', nullable: false, description: 'The listing field, as the API names it.' },
      { name: 'before', type: 'string', nullable: true, description: 'Its value before; null when it had none.' },
      { name: 'after', type: 'string', nullable: true, description: 'Its value after; null when it has none.' },
    ],
    async *rows(app, window) {
      const until = new Date(window.to.getTime() + 86_400_000);
      for (const country of app.storefronts) {
        const changes = await db.metadataChange.findMany({
          where: { storeAppId: app.storeAppId, country, changedAt: { gte: window.from, lt: until } },
          orderBy: [{ changedAt: 'asc' }, { field: 'asc' }],
          select: { field: true, before: true, after: true, changedAt: true },
        });
        yield changes.map((change) => ({
          app_id: app.id,
          country,
          changed_at: change.changedAt.toISOString(),
          field: change.field,
          before: change.before,
          after: change.after,
        }));
      }
    },
    count: (app, window) =>
      db.metadataChange.count({
        where: {
          storeAppId: app.storeAppId,
          country: { in: app.storefronts },
          changedAt: { gte: window.from, lt: new Date(window.to.getTime() + 86_400_000) },
        },
      }),
  },
};
