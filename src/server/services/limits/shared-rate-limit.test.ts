// SharedRateLimit over a store in memory that can be made slow or unreachable: the leases that follow demand, and the
// fallback that never lets several processes through more than the limit together. The real stores (PostgreSQL,
// Redis) and the register of live processes: shared-rate-limit.integration.test.ts.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { LimitCounts, WindowCount } from '@/server/db/shared-limiter';
import { SharedRateLimit, STORE_PAUSE_MS, STORE_PROBE_MS, STORE_WAIT_MS, type RateDecision } from './shared-rate-limit';

const WINDOW_MS = 60_000;

type LinkState = 'up' | 'down' | 'hanging';

/** One shared count per subject in fixed windows, like rate-limiter-flexible's; `state` makes it answer or not. */
class StoreInMemory implements LimitCounts {
  state: LinkState = 'up';
  roundTrips = 0;
  private readonly windows = new Map<string, { consumed: number; until: number }>();
  /** Answers held while hanging, to release later (a store that answers after the timeout). */
  private readonly held: { link: Link | undefined; answer: () => void }[] = [];

  constructor(private readonly clock: { now: number }) {}

  add(subject: string, points: number, link?: Link): Promise<WindowCount> {
    this.roundTrips++;
    const state = link?.state ?? this.state;
    if (state === 'down') return Promise.reject(new Error('connection refused'));
    const count = () => {
      let window = this.windows.get(subject);
      if (!window || window.until <= this.clock.now) {
        window = { consumed: 0, until: this.clock.now + WINDOW_MS };
        this.windows.set(subject, window);
      }
      window.consumed += points;
      return { consumed: window.consumed, msBeforeNext: window.until - this.clock.now };
    };
    if (state === 'hanging') return new Promise((resolve) => this.held.push({ link, answer: () => resolve(count()) }));
    // A slow link's addition waits in line: the others' additions are counted before it (the worst order for it).
    if (link?.delayMs) return new Promise((resolve) => setTimeout(() => resolve(count()), link.delayMs));
    return Promise.resolve(count());
  }

  /** One process's connection to this store, which can be slow or fail on its own while the others' answer. */
  link(): Link {
    return new Link(this);
  }

  consumed(subject: string): number {
    return this.windows.get(subject)?.consumed ?? 0;
  }

  /** Lets the held answers through (those of `link` only, when given). */
  release(link?: Link): void {
    const released = this.held.filter((each) => !link || each.link === link);
    for (const each of released) this.held.splice(this.held.indexOf(each), 1);
    for (const each of released) each.answer();
  }
}

class Link implements LimitCounts {
  /** The link's own state; the store's when undefined. */
  state: LinkState | undefined;
  /** Answers this late (by the timers, so under vi.useFakeTimers), counted when they are sent. */
  delayMs = 0;

  constructor(private readonly store: StoreInMemory) {}

  add(subject: string, points: number): Promise<WindowCount> {
    return this.store.add(subject, points, this);
  }
}

function setUp(points: number, live: number | null = 2) {
  const clock = { now: 1_000_000 };
  const store = new StoreInMemory(clock);
  const process = (link: LimitCounts = store) =>
    new SharedRateLimit({
      points,
      windowSeconds: WINDOW_MS / 1000,
      counts: link,
      processes: { known: () => live },
      now: () => clock.now,
    });
  return { clock, store, process };
}

const allowed = (decisions: RateDecision[]) => decisions.filter((decision) => decision.allowed).length;

/** `requests` calls for one subject, spread over the processes in turn, all at once. */
function burst(processes: SharedRateLimit[], requests: number, subject = 'key'): Promise<RateDecision[]> {
  return Promise.all(
    Array.from({ length: requests }, (_, index) => processes[index % processes.length]!.consume(subject)),
  );
}

describe('leases that follow demand', () => {
  it('a burst of 50 in one process costs a few round trips, each lease up to 10 % of the limit', async () => {
    const { store, process } = setUp(600);
    const limit = process();
    expect(allowed(await burst([limit], 50))).toBe(50);
    // 6, 12, 24, then 48 (of which 8 are left over): four round trips, not the nine that leases of 1 % take.
    expect(store.roundTrips).toBe(4);
    expect(allowed(await burst([limit], 200))).toBe(200);
    // The lease stops growing at 60 (10 %): the 200 more take 4 leases at most.
    expect(store.roundTrips).toBeLessThanOrEqual(8);
  });

  it('shrinks again when the subject calls slowly', async () => {
    const { clock, store, process } = setUp(600);
    const limit = process();
    // Leases of 6, 12, 24 and 48 spent fast: 40 of the last are left.
    await burst([limit], 50);
    const asked: number[] = [];
    const add = store.add.bind(store);
    store.add = (subject, points) => (asked.push(points), add(subject, points));
    clock.now += 11_000;
    for (let call = 0; call < 41; call++) await limit.consume('key');
    // The lease of 48 took longer than 10 s to spend: the next is half of it.
    expect(asked).toEqual([24]);
  });

  it('processes sharing the store never let more than the limit through, and fall short by at most their unspent leases', async () => {
    const { process } = setUp(600);
    const processes = [process(), process(), process()];
    const decisions = await burst(processes, 1_800);
    expect(allowed(decisions)).toBeLessThanOrEqual(600);
    expect(allowed(decisions)).toBeGreaterThanOrEqual(600 - 3 * 60);
    for (const decision of decisions.filter((each) => !each.allowed))
      expect(decision).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});

describe('a store that cannot be reached', () => {
  it('down from the start: each of two processes lets through half the limit, never the whole', async () => {
    const { store, process } = setUp(600, 2);
    store.state = 'down';
    const processes = [process(), process()];
    const decisions = await burst(processes, 1_800);
    expect(allowed(decisions)).toBe(600);
    expect(allowed(decisions.filter((_, index) => index % 2 === 0))).toBe(300);
  });

  it('down in the middle of a window: processes that shared the key stay within the limit', async () => {
    const { store, process } = setUp(600, 2);
    const processes = [process(), process()];
    let admitted = allowed(await burst(processes, 400));
    expect(admitted).toBe(400);
    store.state = 'down';
    admitted += allowed(await burst(processes, 1_000));
    expect(admitted).toBeLessThanOrEqual(600);
    // Each spent its lease, then its share of the limit less what it had been granted.
    expect(admitted).toBeGreaterThanOrEqual(600 - 2 * 60);
  });

  it('the worst case: the key used up through one process, then sent to the other as the store fails', async () => {
    const { store, process } = setUp(600, 2);
    const [first, second] = [process(), process()];
    expect(allowed(await burst([first], 700))).toBe(600);
    store.state = 'down';
    // The second never heard of this key's window: it lets through its share, half the limit (docs/api-decisions.md).
    expect(allowed(await burst([first, second], 1_000))).toBe(300);
  });

  it('in the next windows, each process lets through its share of the whole limit', async () => {
    const { clock, store, process } = setUp(600, 3);
    const processes = [process(), process(), process()];
    store.state = 'down';
    for (let window = 0; window < 3; window++) {
      expect(allowed(await burst(processes, 900))).toBe(600);
      clock.now += WINDOW_MS;
    }
  });

  it('a process that never heard how many are alive lets through one largest lease (10 %) a window', async () => {
    const { store, process } = setUp(600, null);
    store.state = 'down';
    expect(allowed(await burst([process()], 600))).toBe(60);
  });

  it('no answer: waited for STORE_WAIT_MS exactly, left alone for a while, then waited for only STORE_PROBE_MS', async () => {
    vi.useFakeTimers();
    try {
      const { clock, store, process } = setUp(10, 1);
      store.state = 'hanging';
      const limit = process();
      let decision: RateDecision | undefined;
      void limit.consume('key').then((answer) => (decision = answer));
      await vi.advanceTimersByTimeAsync(STORE_WAIT_MS - 1);
      expect(decision).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(decision).toEqual({ allowed: true });
      for (let index = 0; index < 5; index++) expect(await limit.consume('key')).toEqual({ allowed: true });
      expect(store.roundTrips).toBe(1);
      clock.now += STORE_PAUSE_MS;
      decision = undefined;
      void limit.consume('key').then((answer) => (decision = answer));
      await vi.advanceTimersByTimeAsync(STORE_PROBE_MS);
      expect(decision).toEqual({ allowed: true });
      expect(store.roundTrips).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('what a process let through alone is added to the shared count when the store answers again', async () => {
    const { clock, store, process } = setUp(600, 2);
    const [first, second] = [process(), process()];
    store.state = 'down';
    expect(allowed(await burst([first], 100))).toBe(100);
    store.state = 'up';
    clock.now += STORE_PAUSE_MS;
    await first.consume('key');
    // The 100 let through alone and the one that asked (with the rest of its lease) are counted.
    expect(store.consumed('key')).toBe(100 + 6);
    const decisions = await burst([first, second], 1_000);
    expect(101 + allowed(decisions)).toBeLessThanOrEqual(600);
  });

  it('an answer that comes after its timeout pays for what was let through alone meanwhile', async () => {
    const { store, process } = setUp(600, 2);
    store.state = 'hanging';
    const limit = process();
    vi.useFakeTimers();
    const decisions = burst([limit], 10);
    await vi.advanceTimersByTimeAsync(STORE_WAIT_MS);
    vi.useRealTimers();
    expect(allowed(await decisions)).toBe(10);
    store.state = 'up';
    store.release();
    await new Promise((resolve) => setImmediate(resolve));
    // The late lease of 6 paid for 6 of the 10 let through alone; 4 are still to be reported.
    expect(store.consumed('key')).toBe(6);
  });
});

/** Runs `work` while the fake timers pass `milliseconds` (a slow link's answers come by the timers). */
async function within<T>(milliseconds: number, work: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(milliseconds);
  return work;
}

describe('a store slow or unreachable for one process only', () => {
  it('slow for one of two processes: it waits for its leases, and the key gets at most the limit', async () => {
    vi.useFakeTimers();
    try {
      const { store, process } = setUp(600, 2);
      const slowLink = store.link();
      // Far slower than the others, but answering: the other process keeps leasing meanwhile.
      slowLink.delayMs = 2_000;
      const [slow, fast] = [process(slowLink), process()];
      const decisions = await within(120_000, Promise.all([burst([slow], 700), burst([fast], 700)]));
      expect(allowed(decisions.flat())).toBeLessThanOrEqual(600);
      expect(allowed(decisions.flat())).toBeGreaterThanOrEqual(600 - 2 * 60);
      expect(store.consumed('key')).toBeGreaterThanOrEqual(allowed(decisions.flat()));
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer that comes after the process stopped waiting ends its pause at once: it leases again', async () => {
    vi.useFakeTimers();
    try {
      const { store, process } = setUp(600, 2);
      const link = store.link();
      link.state = 'hanging';
      const limit = process(link);
      expect(allowed(await within(10_000, burst([limit], 10)))).toBe(10);
      expect(store.roundTrips).toBe(1);
      link.state = 'up';
      store.release(link);
      await vi.advanceTimersByTimeAsync(0);
      // Well within the pause: the store answered, so it is asked again rather than counted around.
      await limit.consume('key');
      await limit.consume('key');
      expect(store.roundTrips).toBe(2);
      // The late lease paid for 6 of the 10 let through alone, the new one for the other 4 and carries a lease.
      expect(store.consumed('key')).toBeGreaterThanOrEqual(12);
    } finally {
      vi.useRealTimers();
    }
  });

  it('unreachable from one of two processes while the other leases: at most the limit plus that one’s share of what was left', async () => {
    const { store, process } = setUp(600, 2);
    const link = store.link();
    const [cut, fine] = [process(link), process()];
    expect(allowed(await burst([cut, fine], 200))).toBe(200);
    link.state = 'down';
    const admitted = 200 + allowed(await burst([cut, fine], 1_000));
    // The cut process let through at most its share of the 600 less what it was granted; the other leased the rest.
    expect(admitted).toBeLessThanOrEqual(600 + Math.floor((600 - 200) / 2));
    expect(admitted).toBeGreaterThanOrEqual(600 - 60);
  });
});

describe('the bound, whatever the order of events', () => {
  it('one window: at most the limit while every process hears the store, never more than the limit plus (N − 1)/N of it', async () => {
    vi.useFakeTimers();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2, max: 4 }),
          fc.array(
            fc.record({
              process: fc.nat(),
              // The link of the step's process: answering at once or late, never answering, refused; or the store down for all.
              link: fc.constantFrom('up', 'slow', 'hanging', 'down', 'down for all'),
              spread: fc.boolean(),
              requests: fc.integer({ min: 1, max: 160 }),
              wait: fc.boolean(),
            }),
            { maxLength: 10 },
          ),
          async (live, steps) => {
            const { clock, store, process } = setUp(100, live);
            const links = Array.from({ length: live }, () => store.link());
            const processes = links.map((link) => process(link));
            let admitted = 0;
            let everCut = false;
            for (const step of steps) {
              const chosen = links[step.process % live]!;
              const changed = step.link === 'down for all' ? links : [chosen];
              for (const link of changed) {
                link.state = step.link === 'slow' ? 'up' : step.link === 'down for all' ? 'down' : step.link;
                link.delayMs = step.link === 'slow' ? 2_000 : 0;
                if (link.state !== 'hanging') store.release(link);
              }
              everCut ||= step.link !== 'up' && step.link !== 'slow';
              // Past the pause a process asks the store again; ten steps of 5 s stay within the minute's window.
              if (step.wait) clock.now += STORE_PAUSE_MS;
              const through = step.spread ? processes : [processes[step.process % live]!];
              admitted += allowed(await within(120_000, burst(through, step.requests)));
            }
            expect(admitted).toBeLessThanOrEqual(everCut ? 100 + Math.floor((100 * (live - 1)) / live) : 100);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
