// Rate limits that every app process on one database shares (rate-limiter-flexible's PostgreSQL store, table
// rate_limits): for what an attacker would otherwise multiply by the number of processes. Each limit has its own key
// prefix; the table is created by a migration, not by the library at run time. The request-rate limits count in
// Redis instead when REDIS_URL is set (sharedCounter).
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { getLimiterPool } from './index';
import { redisClient } from './redis';

export function sharedLimiter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: getLimiterPool(),
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix,
    points,
    duration: durationSeconds,
  });
}

/** The shared count of a request-rate limit: in Redis when REDIS_URL is set, else in PostgreSQL. */
export function sharedCounter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterAbstract {
  const redis = redisClient();
  if (redis) return new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: durationSeconds });
  return sharedLimiter(keyPrefix, points, durationSeconds);
}

/**
 * A limit of `points` per `durationSeconds` and key, as a function that counts one for a key and answers 0 while
 * within the limit, else the seconds until the window lets the next one through. The limiter is made at the first
 * count: the pool needs DATABASE_URL, which importing a module (a build, the CLI) must not.
 */
export function sharedRateLimit(keyPrefix: string, points: number, durationSeconds: number): (key: string) => Promise<number> {
  let limiter: RateLimiterPostgres | undefined;
  return async (key) => {
    limiter ??= sharedLimiter(keyPrefix, points, durationSeconds);
    try {
      await limiter.consume(key);
      return 0;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  };
}
