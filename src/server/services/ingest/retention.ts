// Retention of the store facts' largest time series, a month at a time: app_ranks and search_answers are partitioned
// by month (migrations app_ranks and search_answers), and a month past its retention is dropped whole. That frees its
// space at once and leaves vacuum nothing to do, where deleting a month of rows would leave as many dead ones behind
// in a table every refresh writes to. Ranks are kept longer than the search answers they were read from: an answer
// lists 200 apps to a rank's one, and is needed only while a later app or competitor may still read its place in it.
import type PgBoss from 'pg-boss';
import { config } from '@/server/core/config';
import { db } from '@/server/db';
import { dropFactPartitionsBefore } from '@/server/db/ingest-statements';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';

const STORE_FACTS_RETENTION_QUEUE = 'store-facts-retention';
const STORE_FACTS_RETENTION_CRON = '40 3 * * *';

/** The first day of the oldest month kept, when `months` are kept counting the month of `now`. */
export function oldestMonthKept(now: Date, months: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
}

/** Drops the months of ranks and search answers past their retention; returns the partitions dropped. */
export async function dropExpiredStoreFacts(now = new Date()): Promise<string[]> {
  return [
    ...(await dropFactPartitionsBefore(db, 'app_ranks', oldestMonthKept(now, config().RANK_RETENTION_MONTHS))),
    ...(await dropFactPartitionsBefore(
      db,
      'search_answers',
      oldestMonthKept(now, config().SEARCH_ANSWER_RETENTION_MONTHS),
    )),
  ];
}

export function scheduleStoreFactsRetention(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: STORE_FACTS_RETENTION_QUEUE,
      cron: STORE_FACTS_RETENTION_CRON,
      retryDelaySeconds: 300,
      failure: 'store facts retention failed',
      run: async () => {
        const dropped = await dropExpiredStoreFacts();
        return dropped.length ? `store facts: months past retention dropped (${dropped.join(', ')})` : null;
      },
    },
    log,
  );
}
