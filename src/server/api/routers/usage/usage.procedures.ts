// The procedure of GET /usage, and the dashboard's ledger behind its chart and CSV export.
import { z } from 'zod';
import { apiProcedure, dashboardProcedure } from '@/server/api/trpc';
import { usageLedger, usageReport } from '@/server/services/metering/credits';
import { REQUESTS_PER_MINUTE } from '@/server/services/metering/rate-limit';
import { usageLedgerOutput, usageOutput } from './usage.schema';

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
      trial: trial && { tier: trial.tier, endsAt: trial.endsAt.toISOString(), credits: trial.credits },
      periodStart: report.periodStart.toISOString(),
      periodEnd: report.periodEnd.toISOString(),
      requestsPerMinute: REQUESTS_PER_MINUTE[plan],
    };
  });

/** Dashboard only: the period's rows by day, endpoint and key, for the usage chart's filters and the CSV export. */
export const usageLedgerProcedure = dashboardProcedure
  .input(z.object({}))
  .output(usageLedgerOutput)
  .query(async ({ ctx }) => {
    const ledger = await usageLedger(ctx.actor.accountId, ctx.now);
    return { ...ledger, periodStart: ledger.periodStart.toISOString(), periodEnd: ledger.periodEnd.toISOString() };
  });
