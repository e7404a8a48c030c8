// Plans & billing: what the dashboard's plan page reads and sends.
import { z } from 'zod';
import { isoDateTime } from '@/server/api/schemas';
import { PLAN_TIERS, SELF_SERVE_TIERS } from '@/server/services/accounts/plans';

export const billingOverviewOutput = z.object({
  plan: z.enum(PLAN_TIERS),
  trial: z.object({ tier: z.enum(PLAN_TIERS), endsAt: isoDateTime, credits: z.int() }).nullable(),
  creditLimit: z.int().nullable(),
  creditsUsed: z.int(),
  periodEnd: isoDateTime,
  billing: z.enum(['stripe', 'operator']),
  contact: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('email'), address: z.string(), accountEmail: z.string() }),
      z.object({ kind: z.literal('page'), url: z.string() }),
    ])
    .nullable(),
  subscription: z.object({ status: z.string() }).nullable(),
  portal: z.boolean(),
  tiers: z.array(
    z.object({
      tier: z.enum(PLAN_TIERS),
      label: z.string(),
      monthlyCredits: z.int().nullable(),
      requestsPerMinute: z.int(),
      trackedApps: z.int().nullable(),
      trackedKeywords: z.int().nullable(),
      storefrontsPerApp: z.int().nullable(),
      competitorsPerApp: z.int().nullable(),
      exportRows: z.int().nullable(),
      price: z.object({ amount: z.number(), currency: z.string() }).nullable(),
      checkout: z.boolean(),
    }),
  ),
  history: z.array(
    z.object({
      from: z.enum(PLAN_TIERS).nullable(),
      to: z.enum(PLAN_TIERS),
      reason: z.enum(['trial_started', 'trial_ended', 'stripe', 'operator']),
      changedAt: isoDateTime,
    }),
  ),
});

export const checkoutInput = z.object({ tier: z.enum(SELF_SERVE_TIERS, 'Choose one of the plans offered.') });
export const redirectOutput = z.object({ url: z.url() });
