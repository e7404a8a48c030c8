// Request-rate limits: per credential and plan on the public API, per signed-in user (or client address) on the
// dashboard, in fixed one-minute windows, shared by every app process on one database (or one Redis, REDIS_URL)
// through the one class of every shared limit (services/limits/shared-rate-limit.ts: its leases, and its bounded
// fallback while the store cannot be reached).
import type { PlanTier } from '@/generated/prisma/enums';
import { requestLimitsBackend } from '@/server/db/shared-limiter';
import { sharedRateLimit, type RateDecision } from '@/server/services/limits/shared-rate-limit';

export type { RateDecision } from '@/server/services/limits/shared-rate-limit';

/** Requests per minute per API key (or per signed-in user for session tokens). */
export const REQUESTS_PER_MINUTE: Record<PlanTier, number> = {
  free: 0,
  solo: 600,
  pro: 1_200,
  business: 2_400,
  agency: 6_000,
  enterprise: 12_000,
  /** A test key's, whatever the live plan (docs/api-decisions.md, "Test mode"). */
  test: 1_200,
};

/**
 * Dashboard calls per minute per signed-in user (per client address before sign-in), whatever the plan: one per
 * procedure call of /api/trpc, one per page request (its server components' reads together). A person clicking
 * through the dashboard makes a few dozen.
 */
const DASHBOARD_CALLS_PER_MINUTE = 600;

const WINDOW_SECONDS = 60;

export function consumeRequest(plan: PlanTier, subject: string): Promise<RateDecision> {
  return sharedRateLimit(`rpm-${plan}`, REQUESTS_PER_MINUTE[plan], WINDOW_SECONDS, requestLimitsBackend).consume(
    subject,
  );
}

export function consumeDashboardCall(subject: string): Promise<RateDecision> {
  return sharedRateLimit('dashboard', DASHBOARD_CALLS_PER_MINUTE, WINDOW_SECONDS, requestLimitsBackend).consume(
    subject,
  );
}
