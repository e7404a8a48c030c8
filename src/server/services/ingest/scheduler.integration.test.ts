// The daily refresh through pg-boss on the test database: scheduled, and the start-up catch-up job runs.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount, makeApp } from '../../../../test/factories';
import { refreshApp } from './refresh';
import { REFRESH_QUEUE, startScheduler } from './scheduler';

describe('the refresh schedule', () => {
  it('registers the daily cron and runs the catch-up refresh at start', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    expect(app.refreshedThrough).toBeNull();
    process.env.JOB_POLL_SECONDS = '0.5';
    const lines: string[] = [];
    // The job refreshes this test's app only: other test files work on fixed days in the same database.
    const boss = await startScheduler(process.env.DATABASE_URL!, (line) => lines.push(line), async () => ({ summaries: [await refreshApp(app.id)], failures: [] }));
    try {
      const schedules = await boss.getSchedules();
      expect(schedules).toEqual(expect.arrayContaining([expect.objectContaining({ name: REFRESH_QUEUE, cron: '15 0 * * *', timezone: 'UTC' })]));
      let refreshed: Date | null = null;
      for (let attempt = 0; attempt < 120 && !refreshed; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        refreshed = (await db.trackedApp.findUniqueOrThrow({ where: { id: app.id } })).refreshedThrough;
      }
      expect(refreshed).not.toBeNull();
      await expect.poll(() => lines.join('\n')).toMatch(/refresh: 1 apps, 180 app-days ingested/);
    } finally {
      await boss.stop({ graceful: true, timeout: 5_000 });
      delete process.env.JOB_POLL_SECONDS;
    }
  }, 90_000);
});
