// Competitors of an app, identified by their store page address (CONTRACT "Inputs").
import { Prisma } from '@/generated/prisma/client';
import { logError } from '@/server/core/log';
import { db } from '@/server/db';
import { lockTrackedApp } from '@/server/db/row-locks';
import { parseStoreUrl, STORE_URL_HELP } from '@/server/domain/store-urls';
import { AppError } from '@/server/errors/app-error';
import { APP_NOT_FOUND, checkCompetitorCap } from '@/server/services/apps/apps';
import { recordEvents } from '@/server/services/events/events';
import { describeInStore } from '@/server/services/ingest/providers';
import { AppRemovedDuringRefresh, refreshApp } from '@/server/services/ingest/refresh';
import { freshnessOf, loadApp, loadAppIn } from './app-context';

const competitorSelect = {
  id: true,
  storeUrl: true,
  store: true,
  storeId: true,
  name: true,
  developer: true,
  category: true,
  iconUrl: true,
  rating: true,
  ratingCount: true,
  createdAt: true,
} as const;

/** `country` filters nothing (a competitor is followed in every storefront), but a storefront new to the app is observed. */
export async function listCompetitors(accountId: string, input: { appId: string; country?: string }) {
  const { app } = await loadAppIn(accountId, input);
  const items = await db.competitor.findMany({
    where: { appId: app.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: competitorSelect,
  });
  // Followed in every storefront; what each says of itself was read as it was added.
  return { items, freshness: freshnessOf(app, null, ['competitors']) };
}

/** Idempotent: a competitor already tracked is answered as it is, with `created: false`. */
export async function addCompetitor(accountId: string, input: { appId: string; storeUrl: string }) {
  const app = await loadApp(accountId, input.appId);
  const reference = parseStoreUrl(input.storeUrl);
  if (!reference)
    throw new AppError('VALIDATION_ERROR', STORE_URL_HELP, {
      errors: [{ in: 'body', pointer: '#/storeUrl', detail: STORE_URL_HELP }],
    });
  if (reference.store === app.store && reference.storeId === app.storeId) {
    throw new AppError('VALIDATION_ERROR', 'This is the app itself, not a competitor.', {
      errors: [{ in: 'body', pointer: '#/storeUrl', detail: 'This is the app itself, not a competitor.' }],
    });
  }
  const key = { appId_store_storeId: { appId: app.id, store: reference.store, storeId: reference.storeId } };
  const existing = await db.competitor.findUnique({ where: key, select: competitorSelect });
  if (existing) return { competitor: existing, created: false };
  const details = await describeInStore(reference, reference.country ?? app.primaryCountry, app.livemode);
  try {
    // The competitor and its event together, under the app's lock: an app removed during the store's answer is 404.
    const competitor = await db.$transaction(async (tx) => {
      if (!(await lockTrackedApp(tx, app.id))) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
      await checkCompetitorCap(tx, { id: app.id, accountId });
      const created = await tx.competitor.create({
        data: {
          appId: app.id,
          store: reference.store,
          storeId: reference.storeId,
          storeUrl: reference.canonicalUrl,
          ...details,
        },
        select: competitorSelect,
      });
      await recordEvents(
        [
          {
            accountId,
            appId: app.id,
            type: 'competitor.added',
            data: {
              appId: app.id,
              competitorId: created.id,
              store: created.store,
              storeId: created.storeId,
              name: created.name,
            },
          },
        ],
        tx,
      );
      return created;
    });
    // Its ranks for the tracked terms over the app's history, as a new keyword gets its own at once. The competitor is
    // tracked whether or not that works: the daily refresh observes it from then on.
    if (app.refreshed) {
      try {
        await refreshApp(app.id, { onlyCompetitors: [competitor.id] });
      } catch (error) {
        if (!(error instanceof AppRemovedDuringRefresh))
          logError('rank history of a new competitor not filled', error, {
            appId: app.id,
            competitorId: competitor.id,
          });
      }
    }
    return { competitor, created: true };
  } catch (error) {
    // A concurrent call added it first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return {
        competitor: await db.competitor.findUniqueOrThrow({ where: key, select: competitorSelect }),
        created: false,
      };
    }
    throw error;
  }
}
