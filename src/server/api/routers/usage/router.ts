import { z } from 'zod';
import { isoDate, isoDateTime } from '@/server/api/schemas';
import { apiProcedure, router } from '@/server/api/trpc';
import { PLAN_TIERS, PLANS } from '@/server/services/accounts/plans';
import { usageReport } from '@/server/services/metering/credits';
import { REQUESTS_PER_MINUTE } from '@/server/services/metering/rate-limit';

const spend = { calls: z.int().nonnegative(), credits: z.int().nonnegative() };

export const usageOutput = z
  .object({
    plan: z.enum(PLAN_TIERS),
    limit: z.int().nullable().meta({ description: 'Monthly credit allowance; null = unlimited (Enterprise).' }),
    used: z.int().nonnegative(),
    remaining: z.int().nonnegative().nullable().meta({ description: 'null = unlimited.' }),
    periodStart: isoDateTime.meta({ description: 'Start of the calendar month (UTC).' }),
    periodEnd: isoDateTime.meta({ description: 'When the allowance resets: the start of the next month (UTC).' }),
    requestsPerMinute: z.int().meta({ description: 'Request-rate limit per key of the plan.' }),
    byEndpoint: z.array(z.object({ endpoint: z.string().meta({ example: 'GET /apps/{id}/keywords' }), ...spend })),
    byKey: z.array(
      z.object({
        keyId: z.uuid().nullable().meta({ description: 'null: calls made with a dashboard session token.' }),
        name: z.string(),
        key: z.string().nullable().meta({ description: 'Display prefix and last four characters.', example: 'svc_live_AbCd…x9Z2' }),
        ...spend,
      }),
    ),
    daily: z.array(z.object({ date: isoDate, ...spend })).meta({ description: 'One entry per day of the period so far.' }),
  })
  .meta({ id: 'Usage' });

export const getUsageProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/usage',
      summary: 'Credit usage',
      description:
        'The plan, its monthly credit allowance, what is used and remains in the current period (calendar month, UTC), and where the credits went: by endpoint, by key and by day. Free of charge; only charged calls are counted.',
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
    const plan = PLANS[ctx.actor.plan];
    // On the public API the credential's statement has just read the period's usage.
    const report = await usageReport(ctx.actor.accountId, plan.monthlyCredits, ctx.now, ctx.creditsUsed);
    return {
      ...report,
      plan: plan.tier,
      periodStart: report.periodStart.toISOString(),
      periodEnd: report.periodEnd.toISOString(),
      requestsPerMinute: REQUESTS_PER_MINUTE[plan.tier],
    };
  });

export const usageRouter = router({ get: getUsageProcedure });
