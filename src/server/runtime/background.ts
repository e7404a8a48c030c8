// The app's background work, run by the launcher beside Next.js (never on a request's path): the daily refresh
// schedule and the webhook deliveries, both on pg-boss in the app's database. Several app processes sharing one
// database may each run it: pg-boss hands each job to one worker.
import { startScheduler } from '@/server/services/ingest/scheduler';
import { startWebhookWorker } from '@/server/services/webhooks/worker';

export interface BackgroundWork {
  /** Stops taking jobs and waits (up to 5 s) for the ones in progress. */
  stop(): Promise<void>;
}

export async function startBackgroundWork(databaseUrl: string, log: (line: string) => void, options: { webhookIntervalMs?: number } = {}): Promise<BackgroundWork> {
  const boss = await startScheduler(databaseUrl, log);
  const stopWebhooks = await startWebhookWorker(boss, { intervalMs: options.webhookIntervalMs });
  return {
    async stop() {
      stopWebhooks();
      await boss.stop({ graceful: true, timeout: 5_000 }).catch(() => {});
    },
  };
}
