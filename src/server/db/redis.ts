// The optional Redis (REDIS_URL): when it is set, the request-rate limits keep their shared counts there instead of in
// PostgreSQL (src/server/db/shared-limiter.ts). One client per process, made at first use. A command sent while it
// connects waits for the connection; a limit never waits for it longer than its own timeout, and then counts per
// process (src/server/services/limits/request-rates.ts).
import { Redis } from 'ioredis';
import { config } from '@/server/core/config';

let current: { url: string | undefined; client: Redis | null } | undefined;

/** The process's Redis client; null when REDIS_URL is unset. */
export function redisClient(): Redis | null {
  const url = config().REDIS_URL;
  if (current && current.url === url) return current.client;
  const client = url ? new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 }) : null;
  // A lost connection is an event (the client reconnects by itself); a limit meanwhile counts per process.
  client?.on('error', () => {});
  current = { url, client };
  return client;
}

export async function closeRedis(): Promise<void> {
  const client = current?.client;
  current = undefined;
  await client?.quit().catch(() => client.disconnect());
}
