// The shared limits on their real stores: two SharedRateLimit instances stand for two app processes on one store,
// PostgreSQL (the default) or Redis (REDIS_URL, Debian's redis-server started here), each in the store's register of
// live processes. While the store answers they let the limit through together; when Redis is killed, each lets through
// its share and no more, and no request fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { limitCounts, processRegister, type LimitBackend } from '@/server/db/shared-limiter';
import { closeRedis, redisClient } from '@/server/db/redis';
import { LiveProcesses, SharedRateLimit, type RateDecision } from './shared-rate-limit';

const LIMIT = 300;

/** Two processes' limits on `backend`, each in the backend's register of live processes. */
function twoProcesses(backend: LimitBackend) {
  const name = `test-${randomUUID()}`;
  const registers = [
    new LiveProcesses(() => processRegister(backend)),
    new LiveProcesses(() => processRegister(backend)),
  ];
  const limits = registers.map(
    (processes) =>
      new SharedRateLimit({
        points: LIMIT,
        windowSeconds: 60,
        counts: limitCounts(backend, name, LIMIT, 60),
        processes,
      }),
  );
  return {
    name,
    limits,
    registers,
    /** Each says it is alive, then each hears how many are (the first to beat does not hear of the second yet). */
    beat: async () => {
      for (let round = 0; round < 2; round++) await Promise.all(registers.map((register) => register.beat()));
    },
    leave: () => Promise.all(registers.map((register) => register.stop())),
  };
}

async function spread(limits: SharedRateLimit[], requests: number) {
  const decisions = await Promise.all(
    Array.from({ length: requests }, (_, index) => limits[index % limits.length]!.consume('key')),
  );
  return {
    allowed: decisions.filter((decision) => decision.allowed).length,
    refused: decisions.filter((decision): decision is Extract<RateDecision, { allowed: false }> => !decision.allowed),
  };
}

function expectLimitHeld(outcome: Awaited<ReturnType<typeof spread>>) {
  // Never more than the limit; short of it by at most the unspent leases of the two processes (10 % each).
  expect(outcome.allowed).toBeLessThanOrEqual(LIMIT);
  expect(outcome.allowed).toBeGreaterThanOrEqual(LIMIT * 0.8);
  for (const refusal of outcome.refused) {
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
  }
}

describe('in PostgreSQL', () => {
  it('two processes let the limit through together and refuse the rest', async () => {
    const { limits, beat, leave } = twoProcesses('postgres');
    await beat();
    expectLimitHeld(await spread(limits, 3 * LIMIT));
    await leave();
  });

  it('the register counts the live processes, and one that leaves is no longer counted', async () => {
    const [first, second] = [
      new LiveProcesses(() => processRegister('postgres')),
      new LiveProcesses(() => processRegister('postgres')),
    ];
    await first.beat();
    const before = first.known()!;
    await second.beat();
    await first.beat();
    expect(first.known()).toBe(before + 1);
    await second.stop();
    await first.beat();
    expect(first.known()).toBe(before);
    await first.stop();
  });
});

describe('in Redis (REDIS_URL)', () => {
  let server: ChildProcess;
  beforeAll(async () => {
    const port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
      { stdio: 'ignore' },
    );
    await waitForPort(port);
    vi.stubEnv('REDIS_URL', `redis://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await closeRedis();
    vi.unstubAllEnvs();
    server?.kill('SIGKILL');
  });

  it('counts there, and holds the limit across both', async () => {
    const { name, limits, beat, leave } = twoProcesses('redis');
    await beat();
    expectLimitHeld(await spread(limits, 3 * LIMIT));
    expect(Number(await redisClient()!.get(`${name}:key`))).toBeGreaterThanOrEqual(LIMIT);
    await leave();
  });

  it('killed: each process lets through its share of the limit at once, together never more than the limit', async () => {
    const { limits, registers, beat } = twoProcesses('redis');
    await beat();
    expect(registers.map((register) => register.known())).toEqual([2, 2]);
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    // Two bursts, the second after the store has been left alone: nothing fails, and the register's last count holds.
    const outcome = await spread(limits, 2 * LIMIT);
    await beat();
    const more = await spread(limits, LIMIT);
    expect(outcome.allowed + more.allowed).toBe(LIMIT);
    expect(registers.map((register) => register.known())).toEqual([2, 2]);
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
