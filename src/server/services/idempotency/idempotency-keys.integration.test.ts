// Idempotency keys older than the 24-hour window are deleted on the job schedule; younger ones stay answerable.
import PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import {
  claimIdempotencyKey,
  IDEMPOTENCY_WINDOW_MS,
  purgeExpiredIdempotencyKeys,
  requestHash,
  settleIdempotencyKey,
} from './idempotency-keys';
import { IDEMPOTENCY_PURGE_CRON, IDEMPOTENCY_PURGE_QUEUE, scheduleIdempotencyPurge } from './purge-schedule';

describe('expired idempotency keys', () => {
  it('are deleted by the purge, and the keys still in their window are kept', async () => {
    const { accountId } = await makeAccount();
    const now = new Date();
    const hash = requestHash('POST', '/apps/x/keywords', { terms: ['a'] });
    const old = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS - 1_000);
    await claimIdempotencyKey(accountId, 'old', hash, old);
    await settleIdempotencyKey(accountId, 'old', 200, '{}');
    await claimIdempotencyKey(accountId, 'fresh', hash, now);
    await settleIdempotencyKey(accountId, 'fresh', 200, '{}');

    expect(await purgeExpiredIdempotencyKeys(now)).toBeGreaterThanOrEqual(1);
    const left = await db.idempotencyKey.findMany({ where: { accountId }, select: { key: true } });
    expect(left).toEqual([{ key: 'fresh' }]);
    expect(await claimIdempotencyKey(accountId, 'fresh', hash, now)).toEqual({
      kind: 'replay',
      status: 200,
      body: '{}',
    });
  });

  it('are purged on an hourly schedule of the job queue', async () => {
    const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: 'pgboss', max: 2 });
    await boss.start();
    try {
      await scheduleIdempotencyPurge(boss, () => {});
      const schedules = await boss.getSchedules();
      expect(schedules).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: IDEMPOTENCY_PURGE_QUEUE, cron: IDEMPOTENCY_PURGE_CRON, timezone: 'UTC' }),
        ]),
      );
    } finally {
      await boss.unschedule(IDEMPOTENCY_PURGE_QUEUE);
      await boss.stop({ graceful: true, timeout: 5_000 });
    }
  });
});
