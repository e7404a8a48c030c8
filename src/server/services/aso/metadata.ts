// The current store listing per storefront, and its field-level change history.
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { loadApp } from './app-context';

/** Changelog entries returned, newest first. */
export const CHANGELOG_LIMIT = 500;

export async function currentMetadata(accountId: string, input: { appId: string; country?: string }) {
  const app = await loadApp(accountId, input.appId);
  const country = input.country ?? app.primaryCountry;
  const snapshot = await db.metadataSnapshot.findFirst({ where: { appId: app.id, country }, orderBy: { capturedAt: 'desc' } });
  if (!snapshot) throw new AppError('NOT_FOUND', `No listing of this app has been recorded in the ${country} storefront.`);
  const { id: _id, appId: _appId, ...listing } = snapshot;
  return listing;
}

export async function metadataChangelog(accountId: string, input: { appId: string; country?: string }) {
  const app = await loadApp(accountId, input.appId);
  const country = input.country ?? app.primaryCountry;
  const changes = await db.metadataChange.findMany({
    where: { appId: app.id, country },
    orderBy: [{ changedAt: 'desc' }, { field: 'asc' }],
    take: CHANGELOG_LIMIT,
    select: { field: true, before: true, after: true, changedAt: true },
  });
  return { country, changes };
}
