// Request-rate limits (rate-limiter-flexible, in memory, fixed one-minute windows): per credential and plan on the
// public API, per signed-in user (or client address) on the dashboard. Each app process counts its own requests:
// behind N processes a key may make up to N × its limit.
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

export function consumeRequest(plan: PlanTier, subject: string): Promise<RateDecision> {
  return consume(limiterFor(plan), subject);
}

/**
 * Dashboard calls per minute per signed-in user (per client address before sign-in), whatever the plan: one per
 * procedure call, a page's reads included. A person clicking through the dashboard makes a few dozen.
 */
export const DASHBOARD_CALLS_PER_MINUTE = 600;

const dashboardLimiter = new RateLimiterMemory({ keyPrefix: 'dashboard', points: DASHBOARD_CALLS_PER_MINUTE, duration: 60 });

export function consumeDashboardCall(subject: string): Promise<RateDecision> {
  return consume(dashboardLimiter, subject);
}

async function consume(limiter: RateLimiterMemory, subject: string): Promise<RateDecision> {
  try {
    await limiter.consume(subject);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    throw rejection;
  }
}
