// Idempotency keys are answered for 24 hours (./idempotency-keys.ts); past that they are only rows. The background
// work deletes them every hour, one process at a time across those sharing the database.
import type PgBoss from 'pg-boss';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { purgeExpiredIdempotencyKeys } from './idempotency-keys';

export const IDEMPOTENCY_PURGE_QUEUE = 'purge-idempotency-keys';
export const IDEMPOTENCY_PURGE_CRON = '5 * * * *';

export function scheduleIdempotencyPurge(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: IDEMPOTENCY_PURGE_QUEUE,
      cron: IDEMPOTENCY_PURGE_CRON,
      retryDelaySeconds: 60,
      failure: 'idempotency key purge failed',
      run: async () => {
        const purged = await purgeExpiredIdempotencyKeys();
        return purged ? `idempotency keys: ${purged} expired deleted` : null;
      },
    },
    log,
  );
}
