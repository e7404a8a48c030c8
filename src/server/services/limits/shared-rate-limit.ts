// Every limit of so many events per window that the app's processes share: requests per API key and per dashboard
// user, sign-ups per address, test deliveries per webhook endpoint, calls to each store. One class, SharedRateLimit,
// with the guarantees docs/api-decisions.md states in numbers ("Rate limits across processes"):
//
// - Leases. A process does not ask the shared count for each event: it takes a lease of several at once and spends it
//   locally. A lease starts at 1 % of the limit and doubles each time the last one was spent within a second, up to
//   10 %, so a burst costs a few round trips, not one per 1 %; it halves again when spending slows. Events of one
//   subject that arrive while its lease is asked for wait for that one answer together. The store grants at most what
//   is left of the limit, so while it answers the processes together never let more than the limit through.
// - A slow store is waited for. While the store answers, a process never counts around it: a late answer only makes
//   the subject's events wait (up to STORE_WAIT_MS). Counting alone while another process still leases would let
//   through more than the limit, since the store cannot see what is let through alone until it is reported.
// - A bounded fallback. When the store refuses, or gives no answer within STORE_WAIT_MS, the process spends what its
//   lease has left, then counts alone, against its share of the limit: the limit divided by the number of live
//   processes, less what it was already granted in the window, and no more than its share of what was left at the
//   last count it heard (each process says it is alive every few seconds in the store, and the last number heard is
//   used while the store cannot be reached). No process ever takes the whole limit alone, and processes that shared a
//   key's requests evenly never let more than the limit through together. Until the store answers again, it is asked
//   only every STORE_PAUSE_MS and waited for only STORE_PROBE_MS; its first answer, even a late one, ends the pause.
//   What a process let through alone is added to the shared count when the store answers again within the window.
import { randomUUID } from 'node:crypto';
import { logErrorThrottled } from '@/server/core/log';
import { epochMs } from '@/server/core/clock';
import { withTimeout } from '@/server/core/timeout';
import {
  limitCounts,
  processRegister,
  requestLimitsBackend,
  type LimitBackend,
  type LimitCounts,
  type ProcessRegister,
  type WindowCount,
} from '@/server/db/shared-limiter';

/** How long a lease is waited for while the store answers: no answer by then counts as an outage (see above). */
export const STORE_WAIT_MS = 5_000;
/** After an outage, the store is left alone this long (each process counts alone meanwhile), then asked again. */
export const STORE_PAUSE_MS = 5_000;
/** How long a lease is waited for after an outage, until the store answers again: the outage costs no request more. */
export const STORE_PROBE_MS = 500;
/** The first lease of a subject, and the smallest: this share of the limit (at least 1). */
const LEASE_SHARE_MIN = 0.01;
/** The largest lease: this share of the limit (at least 1). */
const LEASE_SHARE_MAX = 0.1;
/** A lease spent within this time of its grant makes the next one twice as large; spent slower than SLOW, half. */
const LEASE_SPENT_FAST_MS = 1_000;
const LEASE_SPENT_SLOW_MS = 10_000;
/** How often a process says it is alive, and how long a process that stopped saying so still counts as alive. */
const HEARTBEAT_MS = 5_000;
const LIVE_MS = 3 * HEARTBEAT_MS;
/** Subjects kept per limit before those whose window ended are swept. */
const SWEEP_ABOVE = 10_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** How many processes are alive, as last heard from the store; null until the store has answered once. */
export interface LiveProcessCount {
  known(): number | null;
}

/** What this process knows of one subject's current window. */
interface Window {
  /** When the window ends (epoch ms): the store's, or this process's own while it has counted alone. */
  until: number;
  /** Leased from the store and not spent yet. */
  tokens: number;
  /** The shared count the store last answered in this window; null before its first answer. */
  lastCount: number | null;
  /** The window's whole limit is taken: refused until it ends, without asking the store again. */
  exhausted: boolean;
  /** Granted to this process in the window: its leases (spent or not) and what it let through alone. */
  granted: number;
  /** The size of the next lease, and when the last one was granted. */
  leaseSize: number;
  leasedAt: number;
  /** Let through by this process alone since the store last answered, and the most it may: null until it must. */
  alone: number;
  aloneBudget: number | null;
  /** Let through alone and not yet added to the shared count. */
  unreported: number;
}

function retryAfter(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

export interface SharedRateLimitOptions {
  /** Events allowed per window and subject. */
  points: number;
  windowSeconds: number;
  counts: LimitCounts;
  processes: LiveProcessCount;
  now?: () => number;
}

export class SharedRateLimit {
  readonly points: number;
  private readonly windowMs: number;
  private readonly counts: LimitCounts;
  private readonly processes: LiveProcessCount;
  private readonly now: () => number;
  private readonly minLease: number;
  private readonly maxLease: number;
  private readonly windows = new Map<string, Window>();
  private readonly leasing = new Map<string, Promise<boolean>>();
  /** Until when the store is not asked (epoch ms), after an outage. */
  private storeResumesAt = 0;
  /** The store refused, or did not answer in time, since its last answer. */
  private storeOut = false;

  constructor(options: SharedRateLimitOptions) {
    this.points = options.points;
    this.windowMs = options.windowSeconds * 1000;
    this.counts = options.counts;
    this.processes = options.processes;
    this.now = options.now ?? epochMs;
    this.minLease = Math.max(1, Math.floor(this.points * LEASE_SHARE_MIN));
    this.maxLease = Math.max(1, Math.floor(this.points * LEASE_SHARE_MAX));
  }

  /** Counts one event of `subject`: allowed, or refused with the seconds until its window ends. */
  async consume(subject: string): Promise<RateDecision> {
    for (;;) {
      const window = this.windowOf(subject);
      if (window.tokens > 0) {
        window.tokens--;
        if (window.tokens === 0) this.sizeNextLease(window);
        return { allowed: true };
      }
      if (window.exhausted) return this.refusal(window);
      if (this.now() < this.storeResumesAt) return this.consumeAlone(window);
      let pending = this.leasing.get(subject);
      if (!pending) {
        pending = this.takeLease(subject, window).finally(() => this.leasing.delete(subject));
        this.leasing.set(subject, pending);
      }
      if (!(await pending)) return this.consumeAlone(this.windowOf(subject));
    }
  }

  /** The subject's current window, a new one when its last has ended (the lease size carries over). */
  private windowOf(subject: string): Window {
    const now = this.now();
    let window = this.windows.get(subject);
    if (!window || window.until <= now) {
      if (!window && this.windows.size > SWEEP_ABOVE) this.sweep(now);
      window = {
        until: now + this.windowMs,
        tokens: 0,
        lastCount: null,
        exhausted: false,
        granted: 0,
        leaseSize: window?.leaseSize ?? this.minLease,
        leasedAt: 0,
        alone: 0,
        aloneBudget: null,
        unreported: 0,
      };
      this.windows.set(subject, window);
    }
    return window;
  }

  private sizeNextLease(window: Window): void {
    const spentIn = this.now() - window.leasedAt;
    if (spentIn <= LEASE_SPENT_FAST_MS) window.leaseSize = Math.min(this.maxLease, window.leaseSize * 2);
    else if (spentIn >= LEASE_SPENT_SLOW_MS)
      window.leaseSize = Math.max(this.minLease, Math.floor(window.leaseSize / 2));
  }

  /**
   * Asks the store for a lease, with what this process let through alone and has not reported yet. Answers whether
   * the store answered in time; an answer that comes later still settles the window (the store has counted it) and
   * ends the outage.
   */
  private takeLease(subject: string, window: Window): Promise<boolean> {
    const reported = window.unreported;
    const asked = window.leaseSize + reported;
    window.unreported = 0;
    const answer = this.counts.add(subject, asked).then(
      (count) => {
        this.storeOut = false;
        this.storeResumesAt = 0;
        this.settle(subject, window, asked, reported, count);
      },
      (error: unknown) => {
        window.unreported += reported;
        throw error;
      },
    );
    const wait = this.storeOut ? STORE_PROBE_MS : STORE_WAIT_MS;
    return withTimeout(answer, wait, () => new Error(`no answer within ${wait} ms`)).then(
      () => true,
      (error: unknown) => {
        this.storeOut = true;
        this.storeResumesAt = this.now() + STORE_PAUSE_MS;
        logErrorThrottled(
          'rate-limit store',
          60_000,
          'the shared rate-limit store did not answer: counting per process, against a share of each limit',
          error,
        );
        return false;
      },
    );
  }

  /** The store counted `asked` for `leasedFor` (`reported` of them let through alone before): the rest is a lease. */
  private settle(subject: string, leasedFor: Window, asked: number, reported: number, count: WindowCount): void {
    const now = this.now();
    // The window asked for may have ended meanwhile (a late answer): the store's answer is then the current one's.
    const window =
      this.windows.get(subject) === leasedFor && leasedFor.until > now ? leasedFor : this.windowOf(subject);
    const before = count.consumed - asked;
    const granted = Math.max(0, Math.min(asked, this.points - before));
    let tokens = Math.max(0, granted - reported);
    // An answer that arrives after its timeout pays first for what was let through alone meanwhile.
    const paid = Math.min(tokens, window.unreported);
    window.unreported -= paid;
    tokens -= paid;
    window.tokens += tokens;
    window.granted += tokens;
    window.until = now + count.msBeforeNext;
    window.lastCount = count.consumed;
    window.exhausted = count.consumed >= this.points;
    window.leasedAt = now;
    window.alone = 0;
    window.aloneBudget = null;
  }

  /**
   * The store cannot be reached: this process lets through no more than its share of the limit (the limit divided by
   * the live processes) less what it was granted in the window, nor than its share of what was left of the limit at
   * the last count it heard. A process that has not heard how many are alive takes at most one largest lease.
   */
  private consumeAlone(window: Window): RateDecision {
    if (window.aloneBudget === null) {
      const left = Math.max(0, this.points - (window.lastCount ?? 0) - window.unreported);
      const live = this.processes.known();
      window.aloneBudget =
        live === null
          ? Math.min(left, this.maxLease)
          : Math.max(0, Math.min(Math.floor(this.points / live) - window.granted, Math.floor(left / live)));
    }
    if (window.alone >= window.aloneBudget) return this.refusal(window);
    window.alone++;
    window.granted++;
    window.unreported++;
    return { allowed: true };
  }

  private refusal(window: Window): RateDecision {
    return { allowed: false, retryAfterSeconds: retryAfter(window.until - this.now()) };
  }

  private sweep(now: number): void {
    for (const [subject, window] of this.windows) {
      if (window.until <= now) this.windows.delete(subject);
    }
  }
}

/** This process in one backend's register of live processes: it beats every HEARTBEAT_MS once started. */
export class LiveProcesses implements LiveProcessCount {
  private count: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly id = randomUUID();

  constructor(private readonly register: () => ProcessRegister) {}

  known(): number | null {
    this.start();
    return this.count;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
    void this.beat();
  }

  /** Says this process is alive, and hears how many are; the last number heard stays while the store is away. */
  async beat(): Promise<void> {
    try {
      this.count = await withTimeout(
        this.register().heartbeat(this.id, LIVE_MS),
        HEARTBEAT_MS,
        () => new Error('the process register did not answer'),
      );
    } catch (error) {
      logErrorThrottled(
        'rate-limit register',
        60_000,
        'the register of live processes did not answer: the last count stays',
        error,
      );
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.register()
      .leave(this.id)
      .catch(() => {});
  }
}

const registers = new Map<LimitBackend, LiveProcesses>();

/** This process in `backend`'s register, made once per process. */
function liveProcessesIn(backend: LimitBackend): LiveProcesses {
  let register = registers.get(backend);
  if (!register) {
    register = new LiveProcesses(() => processRegister(backend));
    registers.set(backend, register);
  }
  return register;
}

/**
 * Puts this app process on the registers of the backends its limits count in, before its first request: a process
 * counts among the live ones from its start, not from its first use of a limit.
 */
export function joinRegisters(): void {
  liveProcessesIn('postgres').start();
  if (requestLimitsBackend() === 'redis') liveProcessesIn('redis').start();
}

/** Takes this process off every register it is on (at shutdown: the others then divide by one process less). */
export async function leaveRegisters(): Promise<void> {
  await Promise.all([...registers.values()].map((register) => register.stop()));
}

const limits = new Map<string, SharedRateLimit>();

/**
 * The limit `name` of `points` per `windowSeconds`, made once per process on `backend` (or on the backend `backend()`
 * names at its first use: REDIS_URL is read then, not when a module is imported by a build).
 */
export function sharedRateLimit(
  name: string,
  points: number,
  windowSeconds: number,
  backend: LimitBackend | (() => LimitBackend) = 'postgres',
): SharedRateLimit {
  let limit = limits.get(name);
  if (!limit) {
    const chosen = typeof backend === 'function' ? backend() : backend;
    limit = new SharedRateLimit({
      points,
      windowSeconds,
      counts: limitCounts(chosen, name, points, windowSeconds),
      processes: liveProcessesIn(chosen),
    });
    limits.set(name, limit);
  }
  return limit;
}
