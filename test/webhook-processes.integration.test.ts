// Webhook deliveries across app processes: real child processes running the launcher's background work on this
// file's own database (the `integration-own-database` project, vitest.config.ts), so that no other test's deliveries
// are in their queue and no other worker competes with them.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

interface Received {
  delivery: string;
  body: string;
}

let server: http.Server;
let receiver: string;
const received: Received[] = [];
/** When set, each delivery's first attempt is answered 500. */
let failFirstAttempt = false;

const databaseUrl = process.env.DATABASE_URL!;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const delivery = String(request.headers['x-service-delivery']);
      const seenBefore = received.some((entry) => entry.delivery === delivery);
      received.push({ delivery, body });
      response.writeHead(failFirstAttempt && !seenBefore ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => kill(child)));
  received.length = 0;
  failFirstAttempt = false;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Child {
  process: ChildProcess;
  call<T = Record<string, never>>(command: Record<string, unknown>): Promise<T>;
}

/** An app process's background work, on the test's own database. */
async function startChild(): Promise<Child> {
  const child = fork('test/processes/app-background.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      JOB_POLL_SECONDS: '0.5',
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
      LOG_REQUESTS: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  let next = 0;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before it was ready`)));
    child.on('message', (message: { ready?: boolean; id?: number; ok?: boolean; result?: never; error?: string }) => {
      if (message.ready) return resolve();
      const entry = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.ok) entry?.resolve(message.result!);
      else entry?.reject(new Error(message.error));
    });
  });
  return {
    process: child,
    call: (command) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (value: never) => void, reject });
        child.send({ ...command, id });
      }),
  };
}

function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function one<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows[0];
  } finally {
    await client.end();
  }
}

describe('webhook deliveries across app processes', () => {
  it('still delivers when the app process is killed between attempts and started again', async () => {
    failFirstAttempt = true;
    const first = await startChild();
    const { accountId, endpointId } = await first.call<{ accountId: string; endpointId: string }>({
      cmd: 'seed',
      receiver,
    });
    await first.call({ cmd: 'work' });
    await first.call({ cmd: 'events', accountId, count: 1 });

    // Attempt 1 fails; once it is recorded and attempt 2 is queued (due ~5 s later), the process dies.
    await expect.poll(() => received.length, { timeout: 60_000, interval: 100 }).toBe(1);
    const deliveryId = received[0]!.delivery;
    await expect
      .poll(
        async () =>
          (
            await one<{ n: number }>(
              `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-attempt' AND data->>'deliveryId' = $1 AND data->>'attempt' = '2'`,
              [deliveryId],
            )
          )?.n,
        { timeout: 60_000, interval: 100 },
      )
      .toBe(1);
    await kill(first.process);
    expect(
      await one<{ attempts: number; status: string }>(
        'SELECT attempts, status::text FROM webhook_deliveries WHERE id = $1',
        [deliveryId],
      ),
    ).toEqual({ attempts: 1, status: 'pending' });

    // A new process picks the queued attempt up.
    const second = await startChild();
    await second.call({ cmd: 'work' });
    await expect.poll(() => received.length, { timeout: 60_000, interval: 100 }).toBe(2);
    expect(received[1]).toMatchObject({ delivery: deliveryId, body: received[0]!.body });
    await expect
      .poll(
        async () =>
          await one<{ attempts: number; status: string }>(
            'SELECT attempts, status::text FROM webhook_deliveries WHERE id = $1',
            [deliveryId],
          ),
        { timeout: 60_000 },
      )
      .toEqual({ attempts: 2, status: 'succeeded' });
    expect(
      (
        await one<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [
          endpointId,
        ])
      )?.n,
    ).toBe(1);
  }, 180_000);

  it('delivers each attempt once when two app processes share the database', async () => {
    failFirstAttempt = true;
    const [a, b] = await Promise.all([startChild(), startChild()]);
    const { accountId, endpointId } = await a.call<{ accountId: string; endpointId: string }>({
      cmd: 'seed',
      receiver,
    });
    await Promise.all([a.call({ cmd: 'work' }), b.call({ cmd: 'work' })]);
    // Events recorded by both processes, fanned out and attempted by whichever process gets there first.
    await Promise.all([
      a.call({ cmd: 'events', accountId, count: 15 }),
      b.call({ cmd: 'events', accountId, count: 15 }),
    ]);

    // 30 deliveries, each failing once and then succeeding: exactly 60 requests.
    await expect.poll(() => received.length, { timeout: 40_000, interval: 200 }).toBe(60);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // nothing more may arrive
    expect(received).toHaveLength(60);
    const perDelivery = new Map<string, number>();
    for (const entry of received) perDelivery.set(entry.delivery, (perDelivery.get(entry.delivery) ?? 0) + 1);
    expect(perDelivery.size).toBe(30);
    expect([...perDelivery.values()].every((count) => count === 2)).toBe(true);
    // An attempt is recorded once the receiver has answered it: on a busy machine the last ones a moment later.
    const recorded = () =>
      one<{ deliveries: number; succeeded: number; attempts: number }>(
        `SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
                (SELECT count(*)::int FROM webhook_attempts x JOIN webhook_deliveries y ON y.id = x.delivery_id WHERE y.endpoint_id = $1) AS attempts
         FROM webhook_deliveries d WHERE d.endpoint_id = $1`,
        [endpointId],
      );
    await expect
      .poll(recorded, { timeout: 30_000, interval: 200 })
      .toEqual({ deliveries: 30, succeeded: 30, attempts: 60 });
    expect(received).toHaveLength(60);
  }, 180_000);
});
