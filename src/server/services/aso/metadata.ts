// The current store listing per storefront, and its field-level change history.
import { isoDay } from '@/server/core/dates';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { freshnessOf, loadAppIn } from './app-context';

/** Changelog entries returned, newest first. */
export const CHANGELOG_LIMIT = 500;

export async function currentMetadata(accountId: string, input: { appId: string; country?: string }) {
  const { app, country } = await loadAppIn(accountId, input);
  const snapshot = await db.metadataSnapshot.findFirst({
    where: { storeAppId: app.storeAppId, country },
    orderBy: { capturedAt: 'desc' },
  });
  if (!snapshot)
    throw new AppError('NOT_FOUND', `No listing of this app has been recorded in the ${country} storefront.`);
  const { id: _id, storeAppId: _storeAppId, ...listing } = snapshot;
  return { ...listing, freshness: freshnessOf(app, country, ['listing']) };
}

export async function metadataChangelog(accountId: string, input: { appId: string; country?: string }) {
  const { app, country } = await loadAppIn(accountId, input);
  const [changes, first] = await Promise.all([
    db.metadataChange.findMany({
      where: { storeAppId: app.storeAppId, country },
      orderBy: [{ changedAt: 'desc' }, { field: 'asc' }],
      take: CHANGELOG_LIMIT,
      select: { field: true, before: true, after: true, changedAt: true },
    }),
    db.metadataSnapshot.findFirst({
      where: { storeAppId: app.storeAppId, country },
      orderBy: { capturedAt: 'asc' },
      select: { capturedAt: true },
    }),
  ]);
  return {
    country,
    observedSince: first ? isoDay(first.capturedAt) : null,
    changes,
    freshness: freshnessOf(app, country, ['listing']),
  };
}
