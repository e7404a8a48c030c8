// `npm start` keeps its embedded PostgreSQL running (src/server/db/embedded.ts, supervise): its postmaster killed
// under load while a statement of the old server still runs, the launcher starts the cluster again, the app answers
// 503 meanwhile and 200 again, without a restart, every success charged once. The launcher itself SIGKILLed in the
// middle of a webhook delivery (its background work is the embedded default's worker) and started again: the delivery
// is made, no event is lost and none is acknowledged twice. A restart that fails for a while (its port taken) is tried
// again, each failure logged with its cause, until it works; only a cause no restart can cure (the cluster's files
// gone) makes the launcher exit non-zero. No bound here is a measure of this machine's speed: each is a hang's.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import {
  adminOn,
  API,
  bearer,
  createKey,
  PlainClient,
  signIn,
  startWebhookReceiver,
  trpc,
  type Target,
} from '../helpers';

const PORT = 3217;
const DATA_DIR = '.data/e2e-recovery';
const target: Target = {
  origin: `http://127.0.0.1:${PORT}`,
  adminEnvironment: { DATA_DIR, DATABASE_URL: undefined, EMBEDDED_PG_PORT: undefined },
};
let launcher: ChildProcess | undefined;
let output = '';
let blocker: net.Server | undefined;

test.describe.configure({ mode: 'serial' });

/** `npm start` on DATA_DIR (emptied first when `fresh`), in a process group of its own; resolves once it is ready. */
async function startLauncher(fresh: boolean): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR,
    PORT: String(PORT),
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    NEXTAUTH_URL: target.origin,
    WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
  };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_PORT;
  output = '';
  launcher = spawn('sh', ['-c', `${fresh ? `rm -rf ${DATA_DIR} && ` : ''}exec ${process.execPath} dist/start.mjs`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 120_000 }).toContain('App ready at');
}

/** The launcher's whole process group (the launcher, its app server and its cluster) SIGKILLed, as a crash takes them. */
async function killLauncher(): Promise<void> {
  if (!launcher || launcher.exitCode !== null || launcher.signalCode !== null) return;
  const exited = new Promise((resolve) => launcher!.once('exit', resolve));
  process.kill(-launcher.pid!, 'SIGKILL');
  await exited;
}

test.beforeAll(async () => {
  await startLauncher(true);
});

test.afterAll(async () => {
  await killLauncher();
  blocker?.close();
});

/** The postmaster's pid and port, from its lock file (line 1 and line 4). */
function postmaster(): { pid: number; port: number } {
  const lines = readFileSync(`${DATA_DIR}/pg/postmaster.pid`, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

interface Outcome {
  status: number;
  problem: boolean;
  cost: string | undefined;
  phase: 'up' | 'down' | 'back';
}

/** A connection to the embedded cluster as its owner, outside the app (the test's own statements). */
function clusterClient(): pg.Client {
  const { password } = JSON.parse(readFileSync(`${DATA_DIR}/embedded-postgres.json`, 'utf8')) as { password: string };
  const client = new pg.Client({ host: '127.0.0.1', port: postmaster().port, user: 'aso', password, database: 'aso' });
  client.on('error', () => {});
  return client;
}

test('the postmaster killed under load, a statement of the old server still running: 503 meanwhile, 200 again, each success charged once', async () => {
  const email = `recovery-${Date.now()}@example.test`;
  await adminOn(
    target,
    'account',
    'create',
    '--email',
    email,
    '--password',
    'recovery-password-123',
    '--plan',
    'agency',
  );
  const appId = await adminOn(
    target,
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const session = await signIn(email, 'recovery-password-123', target.origin);
  const key = await createKey(session, 'read-only', 'recovery');
  const client = new PlainClient(target.origin);

  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'up';
  let running = true;
  const load = async () => {
    while (running) {
      const response = await client.get(`${API}/apps/${appId}`, { headers: bearer(key) });
      const headers = response.headers();
      outcomes.push({
        status: response.status(),
        problem: (headers['content-type'] ?? '').startsWith('application/problem+json'),
        cost: headers['x-credits-cost'],
        phase,
      });
      await response.dispose();
    }
  };
  const loops = Array.from({ length: 4 }, load);
  await expect.poll(() => outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(50);

  // A backend busy with a long statement does not notice its postmaster's death until the statement ends, and holds
  // the old server's shared memory meanwhile: a new postmaster refuses to start over it.
  const busy = clusterClient();
  await busy.connect();
  // Bounded, should this test fail before the old server's processes are ended: a backend enforces its own timeout.
  await busy.query("SET statement_timeout = '5min'");
  const statement = busy.query('SELECT count(*) FROM generate_series(1, 10000000000)').catch((error: Error) => error);
  await expect
    .poll(async () => {
      const watcher = clusterClient();
      await watcher.connect();
      try {
        return (
          await watcher.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT count(*) FROM generate_series%' AND state = 'active'",
          )
        ).rows[0].n;
      } finally {
        await watcher.end();
      }
    })
    .toBe(1);

  const before = postmaster();
  phase = 'down';
  process.kill(before.pid, 'SIGKILL');
  await expect
    .poll(() => outcomes.filter((outcome) => outcome.phase === 'down' && outcome.status === 503).length)
    .toBeGreaterThan(5);
  // Back without a restart of the app, however long the old server's processes take to go. The bound catches a hang.
  await expect.poll(() => output, { timeout: 120_000 }).toContain('embedded PostgreSQL started again');
  expect(output).toMatch(
    /did not start again \(attempt 1\): .*shared memory block .* is still in use.*; told \d+ processes of the old server to quit; trying again in/,
  );
  expect(await statement).toBeInstanceOf(Error);
  await busy.end().catch(() => {});
  phase = 'back';
  await expect
    .poll(() => outcomes.filter((outcome) => outcome.phase === 'back' && outcome.status === 200).length, {
      timeout: 120_000,
    })
    .toBeGreaterThan(50);
  running = false;
  await Promise.all(loops);
  expect(launcher!.exitCode).toBeNull();
  expect(postmaster().pid).not.toBe(before.pid);

  // Nothing but 200 and 503; every 503 a problem that cost nothing.
  expect([...new Set(outcomes.map((outcome) => outcome.status))].sort()).toEqual([200, 503]);
  for (const outcome of outcomes.filter((entry) => entry.status === 503)) {
    expect(outcome.problem).toBe(true);
    expect(outcome.cost ?? '0').toBe('0');
  }
  // Each success charged once: the usage and the ledger's per-endpoint count are the successes.
  const successes = outcomes.filter((outcome) => outcome.status === 200).length;
  const usage = await (await client.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage.used).toBe(successes);
  expect(usage.byEndpoint).toEqual([{ endpoint: 'GET /apps/{id}', calls: successes, credits: successes }]);
});

test('the launcher SIGKILLed in the middle of a webhook delivery: started again, it delivers it; no event lost, none acknowledged twice', async () => {
  test.setTimeout(600_000);
  // The first delivery is held without an answer while the launcher that sent it is killed.
  let holding = true;
  const receiver = await startWebhookReceiver({ hold: () => holding && !(holding = false) });
  const ids = (requests: { body: string }[]) =>
    requests.map((request) => (JSON.parse(request.body) as { id: string }).id);
  try {
    const email = `delivery-${Date.now()}@example.test`;
    await adminOn(
      target,
      'account',
      'create',
      '--email',
      email,
      '--password',
      'recovery-password-123',
      '--plan',
      'pro',
    );
    const appId = await adminOn(
      target,
      'app',
      'add',
      '--email',
      email,
      '--url',
      'https://apps.apple.com/us/app/focus-timer/id1500000001',
    );
    const session = await signIn(email, 'recovery-password-123', target.origin);
    const key = await createKey(session, 'read-write', 'delivery');
    const { endpoint } = await trpc<{ endpoint: { id: string } }>(session, 'webhooks.create', {
      url: receiver.url('/hooks'),
      eventTypes: ['keyword.added'],
    });
    const terms = Array.from({ length: 4 }, (_, index) => `killed delivery term ${index}`);
    for (const term of terms)
      expect(
        (
          await session.context.post(`${target.origin}${API}/apps/${appId}/keywords`, {
            headers: bearer(key),
            data: { terms: [term] },
          })
        ).status(),
      ).toBe(200);
    const statuses = async () => {
      const response = await session.context.get(`${target.origin}${API}/webhook-endpoints/${endpoint.id}/deliveries`, {
        headers: bearer(session.token),
      });
      return ((await response.json()) as { status: string }[]).map((delivery) => delivery.status).sort();
    };
    // Killed while the held delivery alone is in flight: the three others answered and recorded.
    await expect.poll(() => receiver.held.length, { timeout: 60_000 }).toBe(1);
    await expect.poll(statuses, { timeout: 60_000 }).toEqual(['pending', 'succeeded', 'succeeded', 'succeeded']);
    await session.context.dispose();
    await killLauncher();
    await startLauncher(false);
    // The held delivery's attempt runs again once its job expires (docs/api-decisions.md, "Webhooks").
    const [heldId] = ids(receiver.held);
    await expect.poll(() => ids(receiver.received), { timeout: 180_000 }).toContain(heldId);
    // Long enough for another attempt to arrive, if one were made.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(ids(receiver.received)).toHaveLength(4);
    expect(new Set(ids(receiver.received)).size).toBe(4);
  } finally {
    await receiver.close();
  }
});

test('a restart that fails for a while (its port taken) is tried again, each failure logged with its cause, until the cluster is back', async ({
  request,
}) => {
  const { pid, port } = postmaster();
  const health = async () => (await request.get(`${target.origin}/api/health`)).status();
  expect(await health()).toBe(200);
  process.kill(pid, 'SIGKILL');
  // The port taken as soon as it is free: no restart can listen on it while the blocker holds it.
  blocker = net.createServer();
  await expect
    .poll(
      () =>
        new Promise<boolean>((resolve) =>
          blocker!.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)),
        ),
      { timeout: 60_000, intervals: [20] },
    )
    .toBe(true);
  const failures = () =>
    output.match(/did not start again \(attempt \d+\): [^\n]*Address already in use[^\n]*trying again in [\d.]+ s/g)
      ?.length ?? 0;
  // More attempts than the supervisor used to make before giving up, the app answering 503 all along.
  await expect.poll(failures, { timeout: 120_000 }).toBeGreaterThan(6);
  expect(await health()).toBe(503);
  expect(launcher!.exitCode).toBeNull();
  await new Promise((resolve) => blocker!.close(resolve));
  blocker = undefined;
  await expect.poll(health, { timeout: 120_000 }).toBe(200);
  expect(output).toMatch(/embedded PostgreSQL started again \(attempt \d+\)/);
});

test('a cluster whose files are gone cannot be started again: the launcher says why and exits non-zero', async () => {
  const { pid } = postmaster();
  const exited = new Promise<number | null>((resolve) => launcher!.once('exit', (code) => resolve(code)));
  rmSync(`${DATA_DIR}/pg/PG_VERSION`);
  process.kill(pid, 'SIGKILL');
  expect(await exited).toBe(1);
  expect(output).toMatch(/cannot be started again: its data directory .* is gone: stopping/);
});
