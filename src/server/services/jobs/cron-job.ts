// A job the background work runs on a cron schedule through pg-boss, one process at a time across those sharing the
// database (a singleton queue), retried after a failure: the purge of idempotency keys, the end of trials.
import type PgBoss from 'pg-boss';
import { logError } from '@/server/core/log';

export interface CronJob {
  queue: string;
  /** UTC. */
  cron: string;
  retryDelaySeconds: number;
  /** What one run did, for the log; null when it did nothing worth a line. */
  run: () => Promise<string | null>;
  /** Logged with the error of a failed run. */
  failure: string;
}

export async function scheduleCronJob(boss: PgBoss, job: CronJob, log: (line: string) => void): Promise<void> {
  if (!(await boss.getQueue(job.queue))) {
    await boss.createQueue(job.queue, {
      name: job.queue,
      policy: 'singleton',
      retryLimit: 3,
      retryDelay: job.retryDelaySeconds,
    });
  }
  await boss.schedule(job.queue, job.cron, {}, { tz: 'UTC' });
  await boss.work(job.queue, async () => {
    try {
      const line = await job.run();
      if (line) log(line);
    } catch (error) {
      logError(job.failure, error);
      throw error;
    }
  });
}
