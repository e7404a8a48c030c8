// The procedure of GET /usage, and the dashboard's ledger behind its chart and CSV export.
import { z } from 'zod';
import { apiProcedure, dashboardProcedure } from '@/server/api/trpc';
import { accountTier } from '@/server/services/accounts/plans';
import { usageLedger, usageReport } from '@/server/services/metering/credits';
import { REQUESTS_PER_MINUTE } from '@/server/services/limits/request-rates';
import { usageLedgerInput, usageLedgerOutput, usageOutput } from './usage.schema';

export const getUsageProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/usage',
      summary: 'Credit usage',
      description:
        'The plan (and the trial, while one lasts), its monthly credit allowance, what is used and remains in the current period (calendar month, UTC), and where the credits went: by endpoint, by key and by day. Free of charge; only charged calls are counted.',
      tags: ['Usage'],
      protect: true,
    },
    scope: 'read',
    permission: 'usage.read',
    credits: 0,
    cache: 'usage',
  })
  .input(z.object({}))
  .output(usageOutput)
  .query(async ({ ctx }) => {
    const { plan, creditLimit, trial } = ctx.actor;
    // On the public API the credential's statement has just read the period's usage.
    const report = await usageReport(ctx.actor.accountId, creditLimit, ctx.now, ctx.creditsUsed);
    return {
      ...report,
      plan,
      livemode: ctx.actor.mode === 'live',
      trial: trial && { tier: accountTier(trial.tier), endsAt: trial.endsAt.toISOString(), credits: trial.credits },
      periodStart: report.periodStart.toISOString(),
      periodEnd: report.periodEnd.toISOString(),
      requestsPerMinute: REQUESTS_PER_MINUTE[plan],
    };
  });

/** Dashboard only: rows by day, endpoint and key over a range of the last year, for the usage chart and its CSV. */
export const usageLedgerProcedure = dashboardProcedure
  .meta({ permission: 'usage.read' })
  .input(usageLedgerInput)
  .output(usageLedgerOutput)
  .query(({ ctx, input }) => usageLedger(ctx.actor.accountId, ctx.now, input));
