// Trials end on the job schedule: every minute, a run moves the accounts whose trial is over to Free, once each.
import PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { createAccount } from './accounts';
import { TRIAL_END_CRON, TRIAL_END_QUEUE, scheduleTrialEnds } from './trials';

it('the job queue ends trials every minute, and a run ends each due trial once', async () => {
  const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: 'pgboss', max: 2 });
  await boss.start();
  try {
    const started = new Date(Date.now() - 15 * 86_400_000);
    const { accountId } = await createAccount(
      { email: `ended-${Date.now()}@example.test`, password: 'correct horse battery', plan: 'free' },
      { withTrial: true, now: started },
    );
    await scheduleTrialEnds(boss, () => {});
    expect(await boss.getSchedules()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: TRIAL_END_QUEUE, cron: TRIAL_END_CRON, timezone: 'UTC' }),
      ]),
    );
    // A run now, as the schedule would start it.
    await boss.send(TRIAL_END_QUEUE, {});
    await expect
      .poll(async () => (await db.account.findUniqueOrThrow({ where: { id: accountId } })).plan, { timeout: 60_000 })
      .toBe('free');
    // Once, whoever ran first: the tests running beside this one end due trials too.
    expect(await db.domainEvent.count({ where: { accountId, type: 'plan.changed' } })).toBe(1);
    expect(await db.planChange.count({ where: { accountId, reason: 'trial_ended' } })).toBe(1);
  } finally {
    await boss.unschedule(TRIAL_END_QUEUE);
    await boss.stop({ graceful: true, timeout: 5_000 });
  }
}, 180_000);
