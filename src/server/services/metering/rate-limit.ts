// Request-rate limits: per credential and plan on the public API, per signed-in user (or client address) on the
// dashboard, in fixed one-minute windows, shared by every app process on one database (or one Redis, REDIS_URL).
// A process does not ask the shared count for each request: it takes a share of the window's allowance (a lease of
// about 1 % of it) and spends it locally, taking the next share when it runs out. A key thus gets its limit across
// any number of processes, short of it by at most the unspent shares of processes it stopped calling, and a request
// costs a round trip to the store once per share, not each time. When the store is down or slow, each process counts
// alone against the whole limit (rate-limiter-flexible in memory), as every process did before: requests never fail
// for want of the store.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { PlanTier } from '@/generated/prisma/enums';
import { logErrorThrottled } from '@/server/core/log';
import { withTimeout } from '@/server/core/timeout';
import { sharedCounter } from '@/server/db/shared-limiter';

/** Requests per minute per API key (or per signed-in user for session tokens). */
export const REQUESTS_PER_MINUTE: Record<PlanTier, number> = {
  free: 0,
  solo: 600,
  pro: 1_200,
  business: 2_400,
  agency: 6_000,
  enterprise: 12_000,
};

/**
 * Dashboard calls per minute per signed-in user (per client address before sign-in), whatever the plan: one per
 * procedure call, a page's reads included. A person clicking through the dashboard makes a few dozen.
 */
export const DASHBOARD_CALLS_PER_MINUTE = 600;

const WINDOW_SECONDS = 60;
/** A lease is this share of the limit: the most a process holds unspent. */
const LEASE_SHARE = 0.01;
/**
 * A store slower than this is not waited for: the request is counted by its process alone. Generous, since counting
 * alone lets a key through once per process: a store slowed by a burst should still be waited for, and a store that is
 * down costs this wait to one request per pause only.
 */
export const STORE_TIMEOUT_MS = 500;
/** After the store failed to answer, it is left alone this long: each process counts alone meanwhile. */
export const STORE_PAUSE_MS = 5_000;
/** Leases kept per limit before the expired ones are swept. */
const SWEEP_ABOVE = 10_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Lease {
  /** Requests this process may still let through in the window. */
  tokens: number;
  /** When the shared window ends (epoch ms). */
  until: number;
  /** The window's whole allowance is taken: refused until it ends, without asking the store again. */
  exhausted: boolean;
}

/** The share of the store's answer that is this lease's: the whole request, or what was left of the limit. */
function granted(limit: number, asked: number, consumedAfter: number): number {
  return Math.max(0, Math.min(asked, limit - (consumedAfter - asked)));
}

function retryAfter(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/** One limit (`points` per minute and subject), shared through `store`, with `local` as its per-process fallback. */
export class SharedRateLimit {
  private readonly leases = new Map<string, Lease>();
  private readonly leasing = new Map<string, Promise<void>>();
  private readonly lease: number;
  private readonly local: RateLimiterMemory;
  /** Until when the store is not asked (epoch ms), after it failed to answer. */
  private storeResumesAt = 0;

  constructor(
    private readonly points: number,
    private readonly store: () => RateLimiterAbstract,
    keyPrefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.lease = Math.max(1, Math.floor(points * LEASE_SHARE));
    this.local = new RateLimiterMemory({ keyPrefix: `${keyPrefix}-local`, points, duration: WINDOW_SECONDS });
  }

  async consume(subject: string): Promise<RateDecision> {
    for (;;) {
      const now = this.now();
      if (now < this.storeResumesAt) return this.consumeLocally(subject);
      const lease = this.leases.get(subject);
      if (lease && lease.until > now) {
        if (lease.tokens > 0) {
          lease.tokens--;
          return { allowed: true };
        }
        if (lease.exhausted) return { allowed: false, retryAfterSeconds: retryAfter(lease.until - now) };
      }
      // One request at a time asks the store for this subject; the others wait for its answer.
      let pending = this.leasing.get(subject);
      if (!pending) {
        pending = this.takeLease(subject).finally(() => this.leasing.delete(subject));
        this.leasing.set(subject, pending);
      }
      const answered = await pending.then(
        () => true,
        () => false,
      );
      if (!answered) return this.consumeLocally(subject);
    }
  }

  private async takeLease(subject: string): Promise<void> {
    if (this.leases.size > SWEEP_ABOVE) this.sweep();
    let consumed: number;
    let msBeforeNext: number;
    try {
      const answer = await withTimeout(this.store().consume(subject, this.lease), STORE_TIMEOUT_MS, () => new Error(`no answer within ${STORE_TIMEOUT_MS} ms`));
      ({ consumedPoints: consumed, msBeforeNext } = answer);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        this.storeResumesAt = this.now() + STORE_PAUSE_MS;
        logErrorThrottled('rate-limit store', 60_000, 'the shared rate-limit store did not answer: counting per process', rejection);
        throw rejection;
      }
      ({ consumedPoints: consumed, msBeforeNext } = rejection);
    }
    const tokens = granted(this.points, this.lease, consumed);
    this.leases.set(subject, { tokens, until: this.now() + msBeforeNext, exhausted: tokens === 0 });
  }

  private async consumeLocally(subject: string): Promise<RateDecision> {
    try {
      await this.local.consume(subject);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: retryAfter(rejection.msBeforeNext) };
      throw rejection;
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [subject, lease] of this.leases) {
      if (lease.until <= now) this.leases.delete(subject);
    }
  }
}

const limits = new Map<string, SharedRateLimit>();

/** The limit of `points` a minute under `name`, made once per process (its store at its first use: a build imports this). */
function limitFor(name: string, points: number): SharedRateLimit {
  let limit = limits.get(name);
  if (!limit) {
    let store: RateLimiterAbstract | undefined;
    limit = new SharedRateLimit(points, () => (store ??= sharedCounter(name, points, WINDOW_SECONDS)), name);
    limits.set(name, limit);
  }
  return limit;
}

export function consumeRequest(plan: PlanTier, subject: string): Promise<RateDecision> {
  return limitFor(`rpm-${plan}`, REQUESTS_PER_MINUTE[plan]).consume(subject);
}

export function consumeDashboardCall(subject: string): Promise<RateDecision> {
  return limitFor('dashboard', DASHBOARD_CALLS_PER_MINUTE).consume(subject);
}
