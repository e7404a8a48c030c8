// Plan tiers: their monthly credit allowance (SPEC "Limits"), their caps on tracked apps and keywords, their list
// price; and an account's access at an instant, trial included (CONTRACT "Trial"). Free has no API access. The tier
// `test` is a test sandbox's (src/server/services/accounts/sandboxes.ts): never sold, and never an account's own.
import type { PlanTier } from '@/generated/prisma/enums';

/** The tiers an account can be on (the tier `test` is its sandbox's). */
export const PLAN_TIERS = [
  'free',
  'solo',
  'pro',
  'business',
  'agency',
  'enterprise',
] as const satisfies readonly PlanTier[];
export type AccountTier = (typeof PLAN_TIERS)[number];

/** An account's own tier: never `test`, which only a sandbox has (the database's check sees to it). */
export function accountTier(tier: PlanTier): AccountTier {
  if (tier === 'test') throw new Error('a test sandbox has no tier of its own');
  return tier;
}
/** The tiers a customer can subscribe to alone; Enterprise is agreed with us, then set by the operator. */
export const SELF_SERVE_TIERS = ['solo', 'pro', 'business', 'agency'] as const satisfies readonly PlanTier[];
export type SelfServeTier = (typeof SELF_SERVE_TIERS)[number];

export interface PlanCaps {
  /** Apps the account may track at once; null = no cap. */
  trackedApps: number | null;
  /** Keywords the account may track at once, over all its apps and storefronts; null = no cap. */
  trackedKeywords: number | null;
  /** Members, pending invitations included; null = no cap. A sandbox has the members of its live account. */
  seats: number | null;
  /**
   * Storefronts each app is tracked in, its primary one included; null = no cap. A storefront no other account
   * observes the app in costs the store's budget a lookup, a chart and a page of reviews a day (its keywords are
   * capped apart); docs/api-decisions.md, "Storefronts".
   */
  storefrontsPerApp: number | null;
  /**
   * Competitors each app follows; null = no cap. Each is a store app whose ranks, for every tracked term, the daily
   * refresh reads, and the dashboard adds them without credits; docs/api-decisions.md, "Competitors".
   */
  competitorsPerApp: number | null;
  /**
   * Rows one export may hold, and exports that run at once; null = no cap. An export is read in the background and
   * charged a credit a thousand rows; docs/api-decisions.md, "Exports".
   */
  exportRows: number | null;
  concurrentExports: number | null;
}

export interface Plan {
  tier: PlanTier;
  label: string;
  /** null = unlimited. */
  monthlyCredits: number | null;
  apiAccess: boolean;
  caps: PlanCaps;
  /** US dollars a month before tax, as the plan page shows it when Stripe is not configured; null = on request. */
  listPriceUsd: number | null;
}

export const PLANS: Record<PlanTier, Plan> = {
  free: {
    tier: 'free',
    label: 'Free',
    monthlyCredits: 0,
    apiAccess: false,
    caps: {
      trackedApps: 1,
      trackedKeywords: 25,
      seats: 1,
      storefrontsPerApp: 3,
      competitorsPerApp: 5,
      exportRows: 0,
      concurrentExports: 0,
    },
    listPriceUsd: 0,
  },
  solo: {
    tier: 'solo',
    label: 'Solo',
    monthlyCredits: 1_500,
    apiAccess: true,
    caps: {
      trackedApps: 3,
      trackedKeywords: 200,
      seats: 1,
      storefrontsPerApp: 5,
      competitorsPerApp: 10,
      exportRows: 1_000_000,
      concurrentExports: 1,
    },
    listPriceUsd: 29,
  },
  pro: {
    tier: 'pro',
    label: 'Pro',
    monthlyCredits: 5_000,
    apiAccess: true,
    caps: {
      trackedApps: 10,
      trackedKeywords: 1_000,
      seats: 3,
      storefrontsPerApp: 10,
      competitorsPerApp: 20,
      exportRows: 5_000_000,
      concurrentExports: 2,
    },
    listPriceUsd: 99,
  },
  business: {
    tier: 'business',
    label: 'Business',
    monthlyCredits: 10_000,
    apiAccess: true,
    caps: {
      trackedApps: 25,
      trackedKeywords: 2_500,
      seats: 10,
      storefrontsPerApp: 20,
      competitorsPerApp: 30,
      exportRows: 20_000_000,
      concurrentExports: 3,
    },
    listPriceUsd: 249,
  },
  agency: {
    tier: 'agency',
    label: 'Agency',
    monthlyCredits: 50_000,
    apiAccess: true,
    caps: {
      trackedApps: 100,
      trackedKeywords: 10_000,
      seats: 25,
      storefrontsPerApp: 40,
      competitorsPerApp: 50,
      exportRows: 50_000_000,
      concurrentExports: 5,
    },
    listPriceUsd: 599,
  },
  enterprise: {
    tier: 'enterprise',
    label: 'Enterprise',
    monthlyCredits: null,
    apiAccess: true,
    caps: {
      trackedApps: null,
      trackedKeywords: null,
      seats: null,
      storefrontsPerApp: null,
      competitorsPerApp: null,
      exportRows: null,
      concurrentExports: null,
    },
    listPriceUsd: null,
  },
  // Test mode, whatever the live account's plan (docs/api-decisions.md, "Test mode"): enough for a customer's CI to
  // run its suite many times a day, finite so that the credit headers count down as live ones do.
  test: {
    tier: 'test',
    label: 'Test mode',
    monthlyCredits: 25_000,
    apiAccess: true,
    caps: {
      trackedApps: 10,
      trackedKeywords: 1_000,
      seats: null,
      storefrontsPerApp: 10,
      competitorsPerApp: 20,
      exportRows: 1_000_000,
      concurrentExports: 2,
    },
    listPriceUsd: 0,
  },
};

export interface Trial {
  /** The paid tier tried. */
  tier: PlanTier;
  endsAt: Date;
  /** The trial's monthly allowance, in place of the tier's. */
  credits: number;
}

/** What an account may do at an instant: its tier, its allowance, and its trial while it lasts. */
export interface Access {
  plan: PlanTier;
  /** Credits a month; null = unlimited. */
  creditLimit: number | null;
  trial: Trial | null;
}

export interface AccountPlanColumns {
  plan: PlanTier;
  trialEndsAt: Date | null;
  trialCredits: number | null;
}

/** The plan in force for an account: its tier's, or Free's once its trial has ended (accessOf). */
export function planInForce(account: AccountPlanColumns, now: Date): Plan {
  return PLANS[accessOf(account, now).plan];
}

/**
 * The account's access at `now`. A trial that has ended is Free at once, before the job that ends trials has moved
 * the account (src/server/services/accounts/trials.ts), so that access never outlasts it.
 */
export function accessOf(account: AccountPlanColumns, now: Date): Access {
  if (account.trialEndsAt) {
    if (account.trialEndsAt <= now) return { plan: 'free', creditLimit: PLANS.free.monthlyCredits, trial: null };
    const credits = account.trialCredits ?? PLANS[account.plan].monthlyCredits ?? 0;
    return {
      plan: account.plan,
      creditLimit: credits,
      trial: { tier: account.plan, endsAt: account.trialEndsAt, credits },
    };
  }
  return { plan: account.plan, creditLimit: PLANS[account.plan].monthlyCredits, trial: null };
}
