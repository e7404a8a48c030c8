// Request-rate limit per credential, per plan (rate-limiter-flexible, in memory, fixed one-minute windows).
// Each app process counts its own requests: behind N processes a key may make up to N × its limit.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { PlanTier } from '@/generated/prisma/enums';

/** Requests per minute per API key (or per signed-in user for session tokens). */
export const REQUESTS_PER_MINUTE: Record<PlanTier, number> = {
  free: 0,
  solo: 600,
  pro: 1_200,
  business: 2_400,
  agency: 6_000,
  enterprise: 12_000,
};

const limiters = new Map<PlanTier, RateLimiterMemory>();

function limiterFor(plan: PlanTier): RateLimiterMemory {
  let limiter = limiters.get(plan);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: `rpm-${plan}`, points: REQUESTS_PER_MINUTE[plan], duration: 60 });
    limiters.set(plan, limiter);
  }
  return limiter;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function consumeRequest(plan: PlanTier, subject: string): Promise<RateDecision> {
  try {
    await limiterFor(plan).consume(subject);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    throw rejection;
  }
}
