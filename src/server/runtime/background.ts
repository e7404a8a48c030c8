// The app's background work, run by the launcher beside the app's server (never on a request's path): the daily
// refresh schedule, the backfills of apps just added, the webhook deliveries, the end of trials and the hourly purge
// of expired idempotency keys, the security log's hourly job, the store facts' daily retention, the connected store
// accounts' daily reviews and the replies approved to them, the exports, all on pg-boss in the
// app's database. Several app processes sharing one
// database may each run it: pg-boss hands each job to one worker.
import { scheduleTrialEnds } from '@/server/services/accounts/trials';
import { scheduleIdempotencyPurge } from '@/server/services/idempotency/purge-schedule';
import { startBackfillWorker } from '@/server/services/ingest/backfill-worker';
import { scheduleStoreFactsRetention } from '@/server/services/ingest/retention';
import { startScheduler } from '@/server/services/ingest/scheduler';
import { TIMEOUT_MS as WEBHOOK_TIMEOUT_MS } from '@/server/services/webhooks/delivery';
import { startWebhookWorker } from '@/server/services/webhooks/worker';
import { scheduleSecurityLogJob } from '@/server/services/security-log/schedule';
import { scheduleOwnedReviews, startReviewReads } from '@/server/services/store-accounts/reviews-schedule';
import { startReplySender } from '@/server/services/store-accounts/reply-sender';
import { startExportWorker } from '@/server/services/exports/export-worker';

export interface BackgroundWork {
  /** Stops taking jobs and waits for the ones in progress (a webhook attempt runs at most its 10 s timeout). */
  stop(): Promise<void>;
}

/** Longer than a webhook attempt can take, so that stopping never cuts one short (it would be made again). */
const DRAIN_TIMEOUT_MS = WEBHOOK_TIMEOUT_MS + 5_000;

export async function startBackgroundWork(
  databaseUrl: string,
  log: (line: string) => void,
  options: { webhookIntervalMs?: number } = {},
): Promise<BackgroundWork> {
  const boss = await startScheduler(databaseUrl, log);
  const stopWebhooks = await startWebhookWorker(boss, { intervalMs: options.webhookIntervalMs });
  await scheduleIdempotencyPurge(boss, log);
  await scheduleTrialEnds(boss, log);
  await scheduleSecurityLogJob(boss, log);
  await scheduleStoreFactsRetention(boss, log);
  await scheduleOwnedReviews(boss, log);
  const stopBackfills = startBackfillWorker();
  const stopReplies = startReplySender();
  const stopReviewReads = startReviewReads();
  const stopExports = startExportWorker();
  return {
    async stop() {
      await Promise.all([stopWebhooks(), stopBackfills(), stopReplies(), stopReviewReads(), stopExports()]);
      await boss.stop({ graceful: true, timeout: DRAIN_TIMEOUT_MS }).catch(() => {});
    },
  };
}
