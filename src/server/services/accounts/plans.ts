// Plan tiers and their monthly credit allowance (SPEC "Limits"). Free has no API access.
import type { PlanTier } from '@/generated/prisma/enums';

export const PLAN_TIERS = ['free', 'solo', 'pro', 'business', 'agency', 'enterprise'] as const satisfies readonly PlanTier[];

export interface Plan {
  tier: PlanTier;
  label: string;
  /** null = unlimited. */
  monthlyCredits: number | null;
  apiAccess: boolean;
}

export const PLANS: Record<PlanTier, Plan> = {
  free: { tier: 'free', label: 'Free', monthlyCredits: 0, apiAccess: false },
  solo: { tier: 'solo', label: 'Solo', monthlyCredits: 1_500, apiAccess: true },
  pro: { tier: 'pro', label: 'Pro', monthlyCredits: 5_000, apiAccess: true },
  business: { tier: 'business', label: 'Business', monthlyCredits: 10_000, apiAccess: true },
  agency: { tier: 'agency', label: 'Agency', monthlyCredits: 50_000, apiAccess: true },
  enterprise: { tier: 'enterprise', label: 'Enterprise', monthlyCredits: null, apiAccess: true },
};

