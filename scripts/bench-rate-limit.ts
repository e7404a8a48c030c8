// The request-rate limiter's own cost, for `npm run bench`: a request counted against a Pro key's limit shared in
// PostgreSQL (leases of 1 % to 10 % of the limit at a time, src/server/services/limits/shared-rate-limit.ts) beside the
// same count kept in one process's memory alone (what every process did before the limits were shared).
import { randomUUID } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { limitCounts } from '../src/server/db/shared-limiter';
import { SharedRateLimit } from '../src/server/services/limits/shared-rate-limit';
import { REQUESTS_PER_MINUTE } from '../src/server/services/limits/request-rates';

export interface RateLimitBench {
  requests: number;
  sharedMicroseconds: number;
  memoryMicroseconds: number;
  storeRoundTrips: number;
}

export async function benchRateLimit(): Promise<RateLimitBench> {
  const points = REQUESTS_PER_MINUTE.pro;
  const subjects = Array.from({ length: 500 }, () => randomUUID());
  // Each subject spends its whole minute: every lease is taken, none is refused.
  const perSubject = points;
  let storeRoundTrips = 0;
  const name = `bench-${randomUUID()}`;
  const counts = limitCounts('postgres', name, points, 60);
  const shared = new SharedRateLimit({
    points,
    windowSeconds: 60,
    counts: { add: (subject, added) => (storeRoundTrips++, counts.add(subject, added)) },
    processes: { known: () => 1 },
  });
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: 60 });

  const time = async (consume: (subject: string) => Promise<unknown>) => {
    const started = performance.now();
    for (let round = 0; round < perSubject; round += 50) {
      await Promise.all(
        subjects.flatMap((subject) => Array.from({ length: Math.min(50, perSubject - round) }, () => consume(subject))),
      );
    }
    return ((performance.now() - started) * 1000) / (subjects.length * perSubject);
  };
  const memoryMicroseconds = await time((subject) => memory.consume(subject));
  const sharedMicroseconds = await time((subject) => shared.consume(subject));
  return { requests: subjects.length * perSubject, sharedMicroseconds, memoryMicroseconds, storeRoundTrips };
}
