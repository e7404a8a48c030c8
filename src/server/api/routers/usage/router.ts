import { z } from 'zod';
import { isoDateTime } from '@/server/api/schemas';
import { apiProcedure, router } from '@/server/api/trpc';
import { getAccountSummary } from '@/server/services/accounts/accounts';

/** The calendar month (UTC) that contains `now`. */
function periodOf(now: Date) {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

export const usageRouter = router({
  get: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/usage',
        summary: 'Credit allowance',
        description: 'The plan, its monthly credit allowance and the current period (calendar month, UTC). Free of charge.',
        tags: ['Usage'],
        protect: true,
      },
      scope: 'read',
      credits: 0,
    })
    .input(z.object({}))
    .output(
      z
        .object({
          plan: z.enum(['free', 'solo', 'pro', 'business', 'agency', 'enterprise']),
          monthlyCredits: z.int().nullable().meta({ description: 'null: unlimited (Enterprise).' }),
          periodStart: isoDateTime,
          periodEnd: isoDateTime.meta({ description: 'When the allowance resets.' }),
        })
        .meta({ id: 'Usage' }),
    )
    .query(async ({ ctx }) => {
      const account = await getAccountSummary(ctx.actor.accountId);
      const period = periodOf(ctx.now);
      return { plan: account.plan.tier, monthlyCredits: account.plan.monthlyCredits, periodStart: period.start.toISOString(), periodEnd: period.end.toISOString() };
    }),
});
