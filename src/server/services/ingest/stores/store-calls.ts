// Every call the `stores` provider makes to a store goes through here, and what the stores are owed is decided here:
// - one rate per store shared by every process on the database (services/limits/shared-rate-limit.ts, as the other
//   shared limits are): Apple's search allows about 20 calls a minute per client address, and Google throttles scrapers;
// - at most STORE_CONCURRENCY calls in flight per store and process (p-limit);
// - a timeout per call, and exponential backoff with jitter (p-retry) when the store answers 429 or 5xx, times out or
//   drops the connection. Anything else (a 404, an answer we cannot read) fails at once: asking again changes nothing.
// A failure that remains is a StoreCallError; the refresh records it as the storefront's provider health.
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import pRetry, { AbortError } from 'p-retry';
import type { Store } from '@/generated/prisma/enums';
import { config } from '@/server/core/config';
import { withTimeout } from '@/server/core/timeout';
import { sharedRateLimit } from '@/server/services/limits/shared-rate-limit';
import { STORE_NAME } from '@/server/domain/stores';

/** A call to a store that failed for good (after its retries, when the failure was one to retry). */
export class StoreCallError extends Error {
  constructor(
    readonly store: Store,
    message: string,
    /** The store's HTTP status; null for a timeout, a dropped connection or our own rate's refusal. */
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'StoreCallError';
  }
}

/** A store's passing trouble, worth asking again after a while: throttled, failing on its side, or unreachable. */
function isPassing(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}

/**
 * A failure to reach the store at all (refused, reset, timed out, name not resolved), as fetch, got and
 * google-play-scraper report it; as opposed to an answer the library could not read, which is no better a second time.
 */
function unreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code)) return true;
  if (['TimeoutError', 'RequestError', 'AbortError'].includes(error.name)) return true;
  // google-play-scraper keeps only the message of got's error.
  return error.message === 'fetch failed' || error.message.startsWith('Error requesting Google Play:');
}

export interface StorePolicy {
  callsPerMinute: number;
  concurrency: number;
  timeoutMs: number;
  /** Retries after the first attempt, spaced from minBackoffMs, doubling, randomized (× 1…2), at most maxBackoffMs. */
  retries: number;
  minBackoffMs: number;
  maxBackoffMs: number;
}

export function storePolicy(store: Store): StorePolicy {
  const settings = config();
  return {
    callsPerMinute:
      store === 'app_store' ? settings.STORE_CALLS_PER_MINUTE_APP_STORE : settings.STORE_CALLS_PER_MINUTE_GOOGLE_PLAY,
    concurrency: settings.STORE_CONCURRENCY,
    timeoutMs: settings.STORE_TIMEOUT_SECONDS * 1000,
    retries: 4,
    minBackoffMs: 2_000,
    maxBackoffMs: 60_000,
  };
}

export interface StoreCallOptions {
  /**
   * The longest wait for a turn under the store's shared rate before the call fails: a request a customer waits on
   * gets a few seconds, a background refresh as long as it takes.
   */
  maxWaitMs?: number;
}

/** Seconds to wait before this process may call the store (0: now, and the call is counted). */
export type TurnTaker = (store: Store) => Promise<number>;

export interface StoreGate {
  readonly store: Store;
  /** Runs one call to the store: `what` names it in errors ("search 'yoga' in US"). */
  call<T>(what: string, run: (timeoutMs: number) => Promise<T>, options?: StoreCallOptions): Promise<T>;
}

/** An error's HTTP status as the store libraries report it: fetch answers ours, got's `response.statusCode`, google-play-scraper's `status`. */
export function statusOf(error: unknown): number | null {
  if (error instanceof StoreCallError) return error.status;
  if (typeof error !== 'object' || error === null) return null;
  const candidate = error as { status?: unknown; statusCode?: unknown; response?: { statusCode?: unknown } };
  for (const value of [candidate.status, candidate.statusCode, candidate.response?.statusCode]) {
    if (typeof value === 'number' && value >= 100 && value < 600) return value;
  }
  return null;
}

export function createStoreGate(store: Store, policy: StorePolicy, takeTurn: TurnTaker): StoreGate {
  const limit: LimitFunction = pLimit(policy.concurrency);
  const label = STORE_NAME[store];

  async function waitForTurn(what: string, maxWaitMs: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      const seconds = await takeTurn(store);
      if (seconds === 0) return;
      if (Date.now() - started + seconds * 1000 > maxWaitMs) {
        // Not retried here: the caller (a request) would rather fail now than hold its client.
        throw new AbortError(
          new StoreCallError(store, `${what}: ${label}'s call rate is in use for ${seconds} s more`, null),
        );
      }
      await sleep(seconds * 1000);
    }
  }

  async function attempt<T>(what: string, run: (timeoutMs: number) => Promise<T>, maxWaitMs: number): Promise<T> {
    await waitForTurn(what, maxWaitMs);
    try {
      return await withTimeout(
        run(policy.timeoutMs),
        policy.timeoutMs,
        () => new StoreCallError(store, `${what}: ${label} did not answer within ${policy.timeoutMs / 1000} s`, null),
      );
    } catch (error) {
      if (error instanceof StoreCallError)
        throw error.status === null || isPassing(error.status) ? error : new AbortError(error);
      const status = statusOf(error);
      const reason = error instanceof Error ? error.message : String(error);
      const failure = new StoreCallError(store, `${what}: ${status ? `${label} answered ${status}` : reason}`, status);
      if (status === null ? unreachable(error) : isPassing(status)) throw failure;
      // A 404, or an answer the library could not read, is no better a second time.
      throw new AbortError(failure);
    }
  }

  return {
    store,
    call(what, run, { maxWaitMs = Number.POSITIVE_INFINITY } = {}) {
      return limit(async () => {
        try {
          return await pRetry(() => attempt(what, run, maxWaitMs), {
            retries: policy.retries,
            factor: 2,
            minTimeout: policy.minBackoffMs,
            maxTimeout: policy.maxBackoffMs,
            randomize: true,
          });
        } catch (error) {
          // p-retry hands back what an AbortError carried.
          throw error instanceof AbortError ? error.originalError : error;
        }
      });
    },
  };
}

const gates = new Map<Store, StoreGate>();
/**
 * The store's rate in windows of 10 s rather than one minute: the same calls a minute, without a minute's burst at the
 * window's start (20 a minute are 3 every 10 s).
 */
async function sharedTurn(store: Store): Promise<number> {
  const decision = await sharedRateLimit(
    `store-calls-${store}`,
    Math.max(1, Math.floor(storePolicy(store).callsPerMinute / 6)),
    10,
  ).consume(store);
  return decision.allowed ? 0 : decision.retryAfterSeconds;
}

/** The gate of a store in this process, on the shared rate. */
export function storeGate(store: Store): StoreGate {
  let gate = gates.get(store);
  if (!gate) {
    gate = createStoreGate(store, storePolicy(store), sharedTurn);
    gates.set(store, gate);
  }
  return gate;
}
