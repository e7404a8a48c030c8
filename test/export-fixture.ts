// An export of an account, queued, for the tests that call every operation (the security matrix, the conformance
// sweep): `exportId` is it; `beforeCall` puts things back before a call that would find them changed by the one before
// it (a cancelled export queued again; the exports asked for by earlier calls removed, so that the plan's exports at
// once leave room for one more).
import { db } from '@/server/db';

export interface ExportFixture {
  exportId: string;
  beforeCall: (operation: string) => Promise<void>;
}

export async function exportFixture(accountId: string): Promise<ExportFixture> {
  const apps = await db.trackedApp.findMany({ where: { accountId }, select: { id: true } });
  const made = await db.export.create({
    data: {
      accountId,
      request: {
        datasets: ['ratings'],
        appIds: null,
        apps: apps.map((app) => app.id),
        storefronts: null,
        from: '2026-06-01',
        to: '2026-06-30',
      },
      format: 'csv',
      state: 'queued',
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    },
  });
  return {
    exportId: made.id,
    async beforeCall(operation) {
      if (operation === 'POST /exports') await db.export.deleteMany({ where: { accountId, id: { not: made.id } } });
      if (operation === 'POST /exports/{exportId}/cancel')
        await db.export.update({
          where: { id: made.id },
          data: { state: 'queued', completedAt: null, error: null, cancelRequested: false },
        });
    },
  };
}
