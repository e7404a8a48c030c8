// Tracked apps and their tracked keywords, always scoped to the owning account: an app of another account
// is not found, exactly like an unknown one.
import { db } from '@/server/db';
import { readAppRow, readAppRows, type AppRow } from '@/server/db/app-statements';
import type { Store } from '@/generated/prisma/enums';
import { AppError } from '@/server/errors/app-error';
import { logError } from '@/server/core/log';
import { recordEvents } from '@/server/services/events/events';
import { parseStoreUrl, STORE_URL_HELP } from '@/server/domain/store-urls';
import { dataProvider } from '@/server/services/ingest/providers';
import { refreshApp } from '@/server/services/ingest/refresh';
import { normalizeTerm, termKeyOf } from './terms';

/** An app as the API answers it: its row, and its address in its store. */
export interface AppView extends AppRow {
  storeUrl: string;
}

export interface TrackedKeywordView {
  keywordId: string;
  term: string;
  country: string;
  isFavorite: boolean;
  createdAt: Date;
}

export function storeUrlOf(app: { store: Store; storeId: string; primaryCountry: string }): string {
  return app.store === 'app_store'
    ? `https://apps.apple.com/${app.primaryCountry.toLowerCase()}/app/id${app.storeId}`
    : `https://play.google.com/store/apps/details?id=${encodeURIComponent(app.storeId)}`;
}

export async function listApps(accountId: string): Promise<AppView[]> {
  return (await readAppRows(accountId)).map((row) => ({ ...row, storeUrl: storeUrlOf(row) }));
}

export const APP_NOT_FOUND = 'No app with this id is tracked by your account.';

export async function getApp(accountId: string, appId: string): Promise<AppView> {
  const [app] = await readAppRow(accountId, appId);
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  return { ...app, storeUrl: storeUrlOf(app) };
}

/**
 * Adds terms to the app's tracked set for one country (the app's primary country by default).
 * Terms are deduplicated case-insensitively; terms already tracked are reported, not duplicated. Safe under
 * concurrent calls: the unique index (app, country, term key) decides, and the answer is read back.
 */
export async function addKeywords(
  accountId: string,
  input: { appId: string; terms: string[]; country?: string | null },
): Promise<{ appId: string; country: string; added: TrackedKeywordView[]; alreadyTracked: TrackedKeywordView[] }> {
  const app = await db.trackedApp.findFirst({
    where: { id: input.appId, accountId },
    select: { id: true, primaryCountry: true, refreshedThrough: true },
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const country = input.country ?? app.primaryCountry;

  const byKey = new Map<string, string>();
  for (const term of input.terms) {
    const key = termKeyOf(term);
    if (!byKey.has(key)) byKey.set(key, normalizeTerm(term));
  }
  const keys = [...byKey.keys()];

  // Inserted rows come back from the insert itself; ON CONFLICT DO NOTHING skips the tracked ones, so
  // a term that a concurrent call added first is reported as already tracked, never as added twice. The keywords and
  // their events are stored together or not at all.
  const inserted = await db.$transaction(async (tx) => {
    const rows = await tx.trackedKeyword.createManyAndReturn({
      data: keys.map((key) => ({ appId: app.id, country, term: byKey.get(key)!, termKey: key })),
      skipDuplicates: true,
    });
    await recordEvents(
      rows.map((row) => ({ accountId, appId: app.id, type: 'keyword.added', data: { appId: app.id, keywordId: row.id, term: row.term, country: row.country } })),
      tx,
    );
    return rows;
  });
  const insertedKeys = new Set(inserted.map((row) => row.termKey));
  const remainingKeys = keys.filter((key) => !insertedKeys.has(key));
  const existing = remainingKeys.length
    ? await db.trackedKeyword.findMany({ where: { appId: app.id, country, termKey: { in: remainingKeys } } })
    : [];
  // A new keyword gets its rank and metric history at once, not at the next daily refresh. The keywords are tracked
  // whether or not that works (the store may be unreachable): the daily refresh fills what is missing.
  if (inserted.length && app.refreshedThrough) {
    try {
      await refreshApp(app.id, { onlyTerms: inserted.map((row) => ({ country: row.country, term: row.term })) });
    } catch (error) {
      logError('history of new keywords not filled; the next refresh fills it', error, { appId: app.id });
    }
  }
  const rowByKey = new Map([...inserted, ...existing].map((row) => [row.termKey, row]));
  const toKeywordView = (key: string): TrackedKeywordView => {
    const row = rowByKey.get(key)!;
    return { keywordId: row.id, term: row.term, country: row.country, isFavorite: row.isFavorite, createdAt: row.createdAt };
  };
  return {
    appId: app.id,
    country,
    added: keys.filter((key) => insertedKeys.has(key)).map(toKeywordView),
    alreadyTracked: remainingKeys.map(toKeywordView),
  };
}

/**
 * Starts tracking an app from its store address, for the operator CLI (tracked apps are not added through the
 * public API). Idempotent per account. Its history is ingested at once.
 */
export async function trackApp(accountId: string, input: { storeUrl: string; country?: string }): Promise<AppView> {
  const reference = parseStoreUrl(input.storeUrl);
  if (!reference) throw new AppError('VALIDATION_ERROR', STORE_URL_HELP);
  const country = (input.country ?? reference.country ?? 'US').toUpperCase();
  const existing = await db.trackedApp.findFirst({ where: { accountId, store: reference.store, storeId: reference.storeId }, select: { id: true } });
  if (existing) return getApp(accountId, existing.id);
  const details = await dataProvider().describe(reference, country);
  if (!details) throw new AppError('NOT_FOUND', 'The store does not know this app.');
  const app = await db.trackedApp.create({
    data: {
      accountId,
      store: reference.store,
      storeId: reference.storeId,
      bundleId: reference.store === 'google_play' ? reference.storeId : (reference.slug ?? reference.storeId),
      name: details.name,
      developer: details.developer,
      category: details.category,
      primaryCountry: country,
      iconUrl: details.iconUrl,
    },
  });
  await refreshApp(app.id);
  return getApp(accountId, app.id);
}
