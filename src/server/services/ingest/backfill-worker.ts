// The history backfill of an app just added (from the dashboard or POST /apps), in the background: the request that
// adds the app answers at once, and the app's page shows the progress this records until its data is ready. A
// queue in the app's database (app_backfills) that every process's background work polls; a claim is a lease, so a
// backfill whose process died is taken over, and one that keeps failing is left to the daily refresh, which tries again.
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { claimNextBackfill } from '@/server/db/backfill-statements';
import { lockTrackedApp } from '@/server/db/row-locks';
import { logError } from '@/server/core/log';
import { BACKFILL_DAYS, refreshApp, failedStorefronts } from './refresh';
import { dataProviderFor } from './providers';
import { startPollingLoop } from '@/server/core/polling-loop';

/** Days of history a test sandbox's app gets (its provider, the demo one, has history). */
export const SANDBOX_BACKFILL_DAYS = 365;

/** A claim older than this is taken to be abandoned (a backfill of 180 days takes seconds to a minute). */
const LEASE_SECONDS = 600;
/** After this many failed attempts the backfill stops; the daily refresh then ingests the app. */
export const MAX_BACKFILL_ATTEMPTS = 5;

/** Queues the backfill of an app just created, in the creating transaction: a live app's, or a test sandbox's. */
export function backfillRow(appId: string, livemode = true): { appId: string; daysTotal: number } {
  if (!livemode) return { appId, daysTotal: SANDBOX_BACKFILL_DAYS };
  return { appId, daysTotal: dataProviderFor(true).hasHistory ? BACKFILL_DAYS : 1 };
}

/** The app was removed while its backfill ran: the backfill ends with it. */
class AppRemoved extends Error {}

/**
 * Writes the backfill's row, under its app's row lock: its triggers lock the app's row, and taking that first keeps
 * the order every other writer takes (src/server/db/row-locks.ts), so a removal of the app meanwhile cannot deadlock
 * with it. Throws AppRemoved when the app has gone.
 */
async function saveBackfill(appId: string, data: Prisma.AppBackfillUpdateManyMutationInput): Promise<void> {
  const saved = await db.$transaction(async (tx) => {
    await lockTrackedApp(tx, appId);
    return tx.appBackfill.updateMany({ where: { appId }, data });
  });
  if (!saved.count) throw new AppRemoved();
}

/** Runs the next backfill waiting, if any; whether there was one. */
export async function runNextBackfill(now = new Date()): Promise<boolean> {
  const claim = await claimNextBackfill(now, LEASE_SECONDS);
  if (!claim) return false;
  const { appId } = claim;
  try {
    let reported = 0;
    const summary = await refreshApp(appId, {
      days: claim.daysTotal,
      onProgress: async (done, total) => {
        // A handful of writes per backfill: each moves the app's data version (its page reads it again).
        if (done !== total && done - reported < Math.max(1, Math.ceil(total / 10))) return;
        reported = done;
        await saveBackfill(appId, { daysDone: done, daysTotal: total });
      },
    });
    // A storefront the store failed has nothing yet: the backfill is tried again, as any failed one.
    if (summary.failures.length) throw new Error(`the store failed in ${failedStorefronts(summary.failures)}`);
    // Keywords added while it ran were not in its list: their history now.
    const added = await db.trackedKeyword.findMany({
      where: { appId, createdAt: { gte: now } },
      select: { term: true, country: true },
    });
    if (added.length) await refreshApp(appId, { onlyTerms: added });
    await saveBackfill(appId, { finishedAt: new Date(), lastError: null, claimedAt: null });
  } catch (error) {
    if (error instanceof AppRemoved) return true;
    try {
      const message = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
      await saveBackfill(appId, {
        lastError: message,
        claimedAt: null,
        ...(claim.attempts >= MAX_BACKFILL_ATTEMPTS && { finishedAt: new Date() }),
      });
      logError('backfill failed', error, { appId, attempt: claim.attempts });
    } catch (recording) {
      // Removed meanwhile (its refresh failed for that very reason): nothing to record.
      if (!(recording instanceof AppRemoved)) throw recording;
    }
  }
  return true;
}

/** Polls for backfills every `intervalMs`, one at a time in this process. Returns its stop function. */
export function startBackfillWorker({ intervalMs = 1000 }: { intervalMs?: number } = {}): () => Promise<void> {
  return startPollingLoop(
    async (stopping) => {
      while (!stopping() && (await runNextBackfill())) {
        // another one may be waiting
      }
    },
    { intervalMs, failure: 'backfill queue unavailable', atOnce: true },
  );
}
