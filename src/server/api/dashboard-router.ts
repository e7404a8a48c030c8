// The procedures the dashboard calls: the resource routers of the app router (./root.ts), the same procedures as the
// public API's (so the numbers are the same), through the dashboard's channel (src/server/dashboard/: /api/trpc and
// the pages' caller). What the dashboard may do without spending credits is docs/api-decisions.md, "What the dashboard
// may do for free": view every stored view of the account's own tracked apps, choose what it tracks, manage keys,
// webhook endpoints and the plan.
// The operations that cost us a store request per call (live keyword research) and the views without a screen (metrics
// history) are declared `apiOnly` in their meta, and are not in this router at all: the access policy's
// `dashboardServes` (src/server/services/access/access-policy.ts) leaves them out, so /api/trpc answers them 404.
import type { AnyTRPCProcedure } from '@trpc/server';
import { dashboardServes } from '@/server/services/access/access-policy';
import { appRouter } from './root';
import { createCallerFactory, router, type ProcedureMeta } from './trpc';

type RouterRecord = Record<string, unknown>;

function isProcedure(entry: unknown): entry is AnyTRPCProcedure {
  return typeof entry === 'function' && '_def' in entry && (entry as AnyTRPCProcedure)._def.procedure === true;
}

/** The record less what the dashboard does not serve; a resource left with nothing is left out. */
function servedByDashboard(record: RouterRecord): RouterRecord {
  const served: RouterRecord = {};
  for (const [name, entry] of Object.entries(record)) {
    if (isProcedure(entry)) {
      if (dashboardServes(entry._def.meta as ProcedureMeta | undefined)) served[name] = entry;
      continue;
    }
    const inner = servedByDashboard(entry as RouterRecord);
    if (Object.keys(inner).length) served[name] = inner;
  }
  return served;
}

// Typed as the app router: the client's types keep the API-only procedures, which the endpoint answers 404.
export const dashboardRouter = router(servedByDashboard(appRouter._def.record) as never) as unknown as typeof appRouter;

export type DashboardRouter = typeof dashboardRouter;

export const createDashboardCaller = createCallerFactory(dashboardRouter);
