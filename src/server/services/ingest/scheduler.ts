// The daily refresh, on pg-boss in the app's own PostgreSQL. A cron job (REFRESH_CRON, 00:15 UTC by default) hands
// each app to its store's queue, one job per app, spread over REFRESH_SPREAD_HOURS: a store sees a steady trickle of
// calls over the day rather than a burst at 00:15. Each store's queue is a singleton, shared by every process on the
// database: one app of a store is observed at a time, whatever the number of processes, within the store's shared
// call rate (./stores/store-calls.ts). An app its store fails keeps its data and its job is retried with backoff; the
// others go on. At start, a catch-up hands every app out at once.
import PgBoss from 'pg-boss';
import type { Store } from '@/generated/prisma/enums';
import { config } from '@/server/core/config';
import { logError } from '@/server/core/log';
import { db } from '@/server/db';
import { AppRemovedDuringRefresh, refreshApp, failedStorefronts, type RefreshSummary } from './refresh';

export const REFRESH_QUEUE = 'refresh-apps';
/** One queue per store: the apps observed one at a time, each its own job. */
export const OBSERVE_QUEUES: Record<Store, string> = {
  app_store: 'observe-app-store',
  google_play: 'observe-google-play',
};

/** A job of a store's queue: the app, and when it was handed out (an app observed since has nothing left to do). */
interface ObserveJob {
  appId: string;
  handedOutAt: string;
}

/** An app's observation may wait long for turns under its store's rate: a job is given hours, not pg-boss's default 15 minutes. */
const OBSERVE_EXPIRE_SECONDS = 6 * 3_600;

/**
 * Hands every app due a refresh to its store's queue, spread evenly over `spreadSeconds` per store (0: all now). An
 * app whose first backfill is still to come is left to the backfill worker (./backfill-worker.ts).
 */
export async function handOutRefreshes(
  boss: PgBoss,
  spreadSeconds: number,
  now = new Date(),
): Promise<Record<Store, number>> {
  const apps = await db.trackedApp.findMany({
    where: { OR: [{ backfill: null }, { backfill: { finishedAt: { not: null } } }] },
    select: { id: true, store: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const counts: Record<Store, number> = { app_store: 0, google_play: 0 };
  for (const store of Object.keys(OBSERVE_QUEUES) as Store[]) {
    const ofStore = apps.filter((app) => app.store === store);
    counts[store] = ofStore.length;
    if (!ofStore.length) continue;
    const step = spreadSeconds / ofStore.length;
    await boss.insert(
      ofStore.map((app, index) => ({
        name: OBSERVE_QUEUES[store],
        data: { appId: app.id, handedOutAt: now.toISOString() } satisfies ObserveJob,
        startAfter: new Date(now.getTime() + Math.floor(index * step) * 1000),
      })),
    );
  }
  return counts;
}

export async function startScheduler(
  databaseUrl: string,
  log: (line: string) => void,
  refresh: (appId: string) => Promise<RefreshSummary> = (appId) => refreshApp(appId),
): Promise<PgBoss> {
  // Maintenance every 15 s rather than pg-boss's 2 min: it is what returns the jobs of a process that died (a webhook
  // attempt in flight, say) to the queue once they expire, so they run again within a minute.
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 3, maintenanceIntervalSeconds: 15 });
  boss.on('error', (error) => logError('job queue error', error));
  await boss.start();
  const retries = { retryLimit: 5, retryDelay: 300, retryBackoff: true };
  if (!(await boss.getQueue(REFRESH_QUEUE)))
    await boss.createQueue(REFRESH_QUEUE, { name: REFRESH_QUEUE, policy: 'singleton', ...retries });
  for (const name of Object.values(OBSERVE_QUEUES)) {
    if (!(await boss.getQueue(name)))
      await boss.createQueue(name, { name, policy: 'singleton', expireInSeconds: OBSERVE_EXPIRE_SECONDS, ...retries });
  }
  await boss.schedule(REFRESH_QUEUE, config().REFRESH_CRON, { spread: true }, { tz: 'UTC' });
  const pollingIntervalSeconds = config().JOB_POLL_SECONDS ?? 2;

  await boss.work<{ spread?: boolean }>(REFRESH_QUEUE, { pollingIntervalSeconds }, async ([job]) => {
    const spreadSeconds = job?.data.spread ? Math.round(config().REFRESH_SPREAD_HOURS * 3_600) : 0;
    const counts = await handOutRefreshes(boss, spreadSeconds);
    const over = spreadSeconds ? ` over ${config().REFRESH_SPREAD_HOURS} h` : '';
    log(
      `refresh: ${counts.app_store} App Store and ${counts.google_play} Google Play apps handed to their stores' queues${over}`,
    );
  });

  for (const queue of Object.values(OBSERVE_QUEUES)) {
    await boss.work<ObserveJob>(queue, { pollingIntervalSeconds }, async ([job]) => {
      if (!job) return;
      const { appId, handedOutAt } = job.data;
      const app = await db.trackedApp.findUnique({ where: { id: appId }, select: { lastObservedAt: true } });
      // Removed meanwhile, or observed since it was handed out (a catch-up and the cron the same day): nothing to do.
      if (!app || (app.lastObservedAt && app.lastObservedAt >= new Date(handedOutAt))) return;
      const summary = await refresh(appId).catch((error: unknown) => {
        if (error instanceof AppRemovedDuringRefresh) return null;
        throw error;
      });
      if (!summary) return;
      log(
        `refresh: app ${appId}, ${summary.days.length} app-days ingested${summary.failures.length ? `; the store failed in ${summary.failures.map((failure) => failure.country).join(', ')}` : ''}`,
      );
      // The storefronts the store failed keep their data; the job is retried with backoff for them.
      if (summary.failures.length)
        throw new Error(`the store failed for app ${appId} in ${failedStorefronts(summary.failures)}`);
    });
  }
  // Catch up at start (after downtime, or a first start on an existing database).
  await boss.send(REFRESH_QUEUE, { spread: false });
  return boss;
}
