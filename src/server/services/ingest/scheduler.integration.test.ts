// The daily refresh through pg-boss on the test database: scheduled, handed out app by app to each store's queue
// (spread over the day by the cron, at once by the start-up catch-up), and an app its store fails retried on its own.
import { describe, expect, it } from 'vitest';
import PgBoss from 'pg-boss';
import { db } from '@/server/db';
import { makeAccount, makeApp } from '../../../../test/factories';
import { refreshApp, type RefreshSummary } from './refresh';
import { handOutRefreshes, OBSERVE_QUEUES, REFRESH_QUEUE, startScheduler } from './scheduler';

const nothing = (appId: string): RefreshSummary => ({
  appId,
  days: [],
  keywordRanks: 0,
  reviews: 0,
  metadataChanges: 0,
  events: 0,
  failures: [],
});

describe('the refresh schedule', () => {
  it('registers the daily cron, hands each app to its store’s queue at start, and retries an app its store fails', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const failing = await makeApp(owner.accountId);
    expect(app.refreshedThrough).toBeNull();
    process.env.JOB_POLL_SECONDS = '0.5';
    const lines: string[] = [];
    const attempts = new Map<string, number>();
    // The jobs refresh this test's apps only: other test files work on fixed days in the same database.
    const refresh = async (appId: string) => {
      attempts.set(appId, (attempts.get(appId) ?? 0) + 1);
      if (appId === app.id) return refreshApp(appId);
      if (appId === failing.id)
        return { ...nothing(appId), failures: [{ country: 'US', error: 'the store answered 503', notSold: false }] };
      return nothing(appId);
    };
    const boss = await startScheduler(process.env.DATABASE_URL!, (line) => lines.push(line), refresh);
    try {
      const schedules = await boss.getSchedules();
      expect(schedules).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: REFRESH_QUEUE, cron: '15 0 * * *', timezone: 'UTC', data: { spread: true } }),
        ]),
      );
      await expect
        .poll(() => lines.join('\n'), { timeout: 30_000 })
        .toMatch(/refresh: \d+ App Store and \d+ Google Play apps handed to their stores' queues$/m);
      // The queue is a singleton taking one job a poll: other test files' apps, handed out too, would make this test's
      // wait grow with their number. Their jobs still waiting are withdrawn.
      await db.$executeRaw`DELETE FROM pgboss.job WHERE name = ANY(${Object.values(OBSERVE_QUEUES)}) AND state = 'created' AND NOT data->>'appId' = ANY(${[app.id, failing.id]})`;
      await expect
        .poll(async () => (await db.trackedApp.findUniqueOrThrow({ where: { id: app.id } })).refreshedThrough, {
          timeout: 60_000,
          interval: 500,
        })
        .not.toBeNull();
      await expect
        .poll(() => lines.join('\n'), { timeout: 60_000 })
        .toMatch(new RegExp(`refresh: app ${app.id}, 180 app-days ingested`));
      // Its job failed, and is retried (after its delay of minutes) rather than done. The line is written by the job's
      // handler, and pg-boss records the failure once the handler has returned: the state is waited for.
      await expect
        .poll(() => lines.join('\n'), { timeout: 60_000 })
        .toMatch(new RegExp(`refresh: app ${failing.id}, 0 app-days ingested; the store failed in US`));
      const stateOfFailing = async () =>
        (
          await db.$queryRaw<
            { state: string }[]
          >`SELECT state::text FROM pgboss.job WHERE name = ${OBSERVE_QUEUES.app_store} AND data->>'appId' = ${failing.id}`
        )[0]?.state;
      await expect.poll(stateOfFailing, { timeout: 30_000, interval: 200 }).toBe('retry');
    } finally {
      await boss.stop({ graceful: true, timeout: 5_000 });
      // The jobs it handed out for other test files' apps are not left for a later worker to run.
      await db.$executeRaw`DELETE FROM pgboss.job WHERE name = ANY(${[REFRESH_QUEUE, ...Object.values(OBSERVE_QUEUES)]})`;
      delete process.env.JOB_POLL_SECONDS;
    }
  }, 180_000);

  it('spreads a store’s apps evenly over the spread', async () => {
    const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: 'pgboss', max: 1 });
    await boss.start();
    try {
      const now = new Date('2030-01-01T00:15:00.000Z');
      const counts = await handOutRefreshes(boss, 20 * 3_600, now);
      const rows = await db.$queryRaw<{ start_after: Date }[]>`
        SELECT start_after FROM pgboss.job WHERE name = ${OBSERVE_QUEUES.app_store} AND data->>'handedOutAt' = ${now.toISOString()} ORDER BY start_after`;
      expect(rows).toHaveLength(counts.app_store);
      expect(rows[0]!.start_after).toEqual(now);
      const step = Math.floor((20 * 3_600) / counts.app_store);
      expect(rows[1]!.start_after.getTime() - rows[0]!.start_after.getTime()).toBeGreaterThanOrEqual((step - 1) * 1000);
      expect(rows.at(-1)!.start_after.getTime()).toBeLessThan(now.getTime() + 20 * 3_600_000);
      await db.$executeRaw`DELETE FROM pgboss.job WHERE data->>'handedOutAt' = ${now.toISOString()}`;
    } finally {
      await boss.stop({ graceful: true, timeout: 5_000 });
    }
  });
});
