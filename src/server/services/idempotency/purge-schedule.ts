// Idempotency keys are answered for 24 hours (./idempotency-keys.ts); past that they are only rows. The background
// work deletes them every hour through pg-boss, one process at a time across those sharing the database.
import type PgBoss from 'pg-boss';
import { logError } from '@/server/core/log';
import { purgeExpiredIdempotencyKeys } from './idempotency-keys';

export const IDEMPOTENCY_PURGE_QUEUE = 'purge-idempotency-keys';
export const IDEMPOTENCY_PURGE_CRON = '5 * * * *';

export async function scheduleIdempotencyPurge(boss: PgBoss, log: (line: string) => void): Promise<void> {
  if (!(await boss.getQueue(IDEMPOTENCY_PURGE_QUEUE))) {
    await boss.createQueue(IDEMPOTENCY_PURGE_QUEUE, { name: IDEMPOTENCY_PURGE_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 60 });
  }
  await boss.schedule(IDEMPOTENCY_PURGE_QUEUE, IDEMPOTENCY_PURGE_CRON, {}, { tz: 'UTC' });
  await boss.work(IDEMPOTENCY_PURGE_QUEUE, async () => {
    try {
      const purged = await purgeExpiredIdempotencyKeys();
      if (purged) log(`idempotency keys: ${purged} expired deleted`);
    } catch (error) {
      logError('idempotency key purge failed', error);
      throw error;
    }
  });
}
