// The daily refresh, scheduled with pg-boss on the app's own PostgreSQL: a cron schedule (00:15 UTC by default)
// and a singleton queue, so that several app processes sharing one database run one refresh at a time, and a
// refresh that fails is retried with backoff.
import PgBoss from 'pg-boss';
import { logError } from '@/server/core/log';
import { refreshAllApps, type RefreshRun } from './refresh';
import { config } from '@/server/core/config';

export const REFRESH_QUEUE = 'refresh-apps';

export async function startScheduler(
  databaseUrl: string,
  log: (line: string) => void,
  refresh: () => Promise<RefreshRun> = () => refreshAllApps(),
): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 3 });
  boss.on('error', (error) => logError('job queue error', error));
  await boss.start();
  if (!(await boss.getQueue(REFRESH_QUEUE))) {
    await boss.createQueue(REFRESH_QUEUE, { name: REFRESH_QUEUE, policy: 'singleton', retryLimit: 5, retryDelay: 300, retryBackoff: true });
  }
  await boss.schedule(REFRESH_QUEUE, config().REFRESH_CRON, {}, { tz: 'UTC' });
  await boss.work(REFRESH_QUEUE, { pollingIntervalSeconds: config().JOB_POLL_SECONDS ?? 2 }, async () => {
    const { summaries, failures } = await refresh();
    const days = summaries.reduce((sum, summary) => sum + summary.days.length, 0);
    log(`refresh: ${summaries.length} apps, ${days} app-days ingested${failures.length ? `; ${failures.length} failed` : ''}`);
    // Failed apps are tried again with the job's retries (the apps already refreshed have nothing left to do).
    if (failures.length) throw new Error(`the refresh of ${failures.length} of ${summaries.length + failures.length} apps failed; retried with backoff`);
  });
  // Catch up at start (after downtime, or a first start on an existing database).
  await boss.send(REFRESH_QUEUE, {});
  return boss;
}
