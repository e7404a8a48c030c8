// What the app's processes share of their limits: the counts of each limit's windows (rate-limiter-flexible's stores,
// table rate_limits in PostgreSQL, or Redis) and the register of live processes a limit divides itself by when it
// cannot reach its counts (src/server/services/limits/shared-rate-limit.ts). Each limit has its own key prefix; the
// tables are made by migrations, not by the library at run time. The request-rate limits count in Redis when
// REDIS_URL is set (`requestLimitsBackend`); every other limit, and the sign-in limit, in PostgreSQL.
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { getLimiterPool } from './index';
import { redisClient } from './redis';

export type LimitBackend = 'postgres' | 'redis';

/** The count of one subject in its window, after an addition. */
export interface WindowCount {
  /** Points counted in the window so far, this addition's included (past the limit too). */
  consumed: number;
  /** Milliseconds until the window ends. */
  msBeforeNext: number;
}

/** The shared counts of one limit. */
export interface LimitCounts {
  /** Adds `points` to `subject`'s count in its current window, past the limit too, and answers the count after it. */
  add(subject: string, points: number): Promise<WindowCount>;
}

/** Where the processes of a deployment say they are alive. */
export interface ProcessRegister {
  /** Marks `processId` alive now and answers how many processes were alive within the last `liveMs`, it included. */
  heartbeat(processId: string, liveMs: number): Promise<number>;
  /** Takes `processId` off the register (a process that stops). */
  leave(processId: string): Promise<void>;
}

/** The request-rate limits' backend: Redis when REDIS_URL is set, else PostgreSQL. */
export function requestLimitsBackend(): LimitBackend {
  return redisClient() ? 'redis' : 'postgres';
}

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

function limiterIn(
  backend: LimitBackend,
  keyPrefix: string,
  points: number,
  durationSeconds: number,
): RateLimiterAbstract {
  const redis = backend === 'redis' ? redisClient() : null;
  if (redis) return new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: durationSeconds });
  return sharedLimiter(keyPrefix, points, durationSeconds);
}

/** The counts of a limit of `points` per `durationSeconds`, in `backend`. Connects at the first addition. */
export function limitCounts(
  backend: LimitBackend,
  keyPrefix: string,
  points: number,
  durationSeconds: number,
): LimitCounts {
  let limiter: RateLimiterAbstract | undefined;
  return {
    async add(subject, added) {
      limiter ??= limiterIn(backend, keyPrefix, points, durationSeconds);
      try {
        const { consumedPoints, msBeforeNext } = await limiter.consume(subject, added);
        return { consumed: consumedPoints, msBeforeNext };
      } catch (rejection) {
        // Past the limit the library rejects with the window's state: the points are counted all the same.
        if (rejection instanceof RateLimiterRes)
          return { consumed: rejection.consumedPoints, msBeforeNext: rejection.msBeforeNext };
        throw rejection;
      }
    },
  };
}

const REDIS_REGISTER = 'limit-processes';

function postgresRegister(): ProcessRegister {
  return {
    async heartbeat(processId, liveMs) {
      // One round trip: this process's beat, the register's sweep, and the count (of the others as they were, plus one).
      const { rows } = await getLimiterPool().query<{ live: number }>(
        `WITH beat AS (
           INSERT INTO limit_processes (id, seen_at) VALUES ($1, now())
           ON CONFLICT (id) DO UPDATE SET seen_at = now()
         ), swept AS (
           DELETE FROM limit_processes WHERE seen_at < now() - make_interval(secs => $2::double precision / 1000) * 4
         )
         SELECT 1 + count(*)::int AS live FROM limit_processes
         WHERE id <> $1 AND seen_at >= now() - make_interval(secs => $2::double precision / 1000)`,
        [processId, liveMs],
      );
      return rows[0]!.live;
    },
    async leave(processId) {
      await getLimiterPool().query('DELETE FROM limit_processes WHERE id = $1', [processId]);
    },
  };
}

/** The register in Redis, on Redis's clock (the processes' clocks may differ): beat, sweep and count in one script. */
const REDIS_HEARTBEAT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])`;

function redisRegister(): ProcessRegister {
  const redis = () => {
    const client = redisClient();
    if (!client) throw new Error('REDIS_URL is not set');
    return client;
  };
  return {
    async heartbeat(processId, liveMs) {
      return Number(await redis().eval(REDIS_HEARTBEAT, 1, REDIS_REGISTER, processId, liveMs));
    },
    async leave(processId) {
      await redis().zrem(REDIS_REGISTER, processId);
    },
  };
}

/** The register of live processes in `backend`. */
export function processRegister(backend: LimitBackend): ProcessRegister {
  return backend === 'redis' ? redisRegister() : postgresRegister();
}
