// The request-rate limits held across processes: two SharedRateLimit instances stand for two app processes on one
// store, PostgreSQL (the default) or Redis (REDIS_URL, Debian's redis-server started here). A store that is down or
// slow leaves each process counting alone, and never fails a request.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedCounter } from '@/server/db/shared-limiter';
import { closeRedis, redisClient } from '@/server/db/redis';
import { SharedRateLimit, STORE_TIMEOUT_MS } from './rate-limit';

const LIMIT = 300;

/** Two processes' limits on one store, and `requests` calls spread over them at once, for one key. */
async function spread(store: () => RateLimiterAbstract, requests: number) {
  const name = `test-${randomUUID()}`;
  const processes = [new SharedRateLimit(LIMIT, store, name), new SharedRateLimit(LIMIT, store, name)];
  const decisions = await Promise.all(Array.from({ length: requests }, (_, index) => processes[index % 2]!.consume('key')));
  return { allowed: decisions.filter((decision) => decision.allowed).length, refused: decisions.filter((decision) => !decision.allowed) };
}

function expectLimitHeld(outcome: Awaited<ReturnType<typeof spread>>) {
  // Never more than the limit; short of it by at most the unspent shares of the two processes.
  expect(outcome.allowed).toBeLessThanOrEqual(LIMIT);
  expect(outcome.allowed).toBeGreaterThanOrEqual(LIMIT * 0.97);
  for (const refusal of outcome.refused) {
    if (refusal.allowed) throw new Error('unreachable');
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
  }
}

describe('a request-rate limit shared by two processes', () => {
  it('in PostgreSQL: lets the limit through across both, within a few percent, and refuses the rest', async () => {
    const name = `pg-${randomUUID()}`;
    expectLimitHeld(await spread(() => sharedCounter(name, LIMIT, 60), 3 * LIMIT));
  });

  describe('in Redis (REDIS_URL)', () => {
    let server: ChildProcess;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], { stdio: 'ignore' });
      await waitForPort(port);
      vi.stubEnv('REDIS_URL', `redis://127.0.0.1:${port}`);
    });
    afterAll(async () => {
      await closeRedis();
      vi.unstubAllEnvs();
      server?.kill('SIGTERM');
    });

    it('counts there, and holds the limit across both', async () => {
      const name = `redis-${randomUUID()}`;
      const store = sharedCounter(name, LIMIT, 60);
      expect(store.constructor.name).toBe('RateLimiterRedis');
      expectLimitHeld(await spread(() => store, 3 * LIMIT));
      expect(Number(await redisClient()!.get(`${name}:key`))).toBeGreaterThanOrEqual(LIMIT);
    });

    it('counts per process, at once, while Redis is down', async () => {
      const name = `redis-down-${randomUUID()}`;
      const store = sharedCounter(name, LIMIT, 60);
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const limit = new SharedRateLimit(LIMIT, () => store, name);
      const started = performance.now();
      const decisions = await Promise.all(Array.from({ length: LIMIT + 10 }, () => limit.consume('key')));
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(LIMIT);
      expect(performance.now() - started).toBeLessThan(STORE_TIMEOUT_MS * 4);
    });
  });
});

describe('a store that does not answer', () => {
  it('down: each process counts alone against the whole limit; no request fails', async () => {
    const down = { consume: () => Promise.reject(new Error('connection refused')) } as unknown as RateLimiterAbstract;
    const limit = new SharedRateLimit(10, () => down, `down-${randomUUID()}`);
    const decisions = await Promise.all(Array.from({ length: 15 }, () => limit.consume('key')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });

  it('slow: is not waited for beyond its timeout, and then left alone for a while', async () => {
    let asked = 0;
    const slow = { consume: () => (asked++, new Promise(() => {})) } as unknown as RateLimiterAbstract;
    const limit = new SharedRateLimit(10, () => slow, `slow-${randomUUID()}`);
    const started = performance.now();
    expect(await limit.consume('key')).toEqual({ allowed: true });
    expect(performance.now() - started).toBeLessThan(STORE_TIMEOUT_MS + 200);
    for (let index = 0; index < 5; index++) await limit.consume('key');
    expect(asked).toBe(1);
  });

  it('a refusal of the store is a count, not a failure: the share left of the limit is granted', async () => {
    // The store counts 301 of 300 after the first lease of 3 (2 of them were left), then 304: nothing left.
    let calls = 0;
    const nearlyFull = {
      consume: () => {
        calls++;
        return Promise.reject(Object.assign(new RateLimiterRes(0, 20_000, calls === 1 ? 301 : 304), {}));
      },
    } as unknown as RateLimiterAbstract;
    const limit = new SharedRateLimit(300, () => nearlyFull, `full-${randomUUID()}`);
    const decisions = [];
    for (let index = 0; index < 5; index++) decisions.push(await limit.consume('key'));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false, false, false]);
    expect(decisions[2]).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(calls).toBe(2);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not listen on ${port}`);
}
