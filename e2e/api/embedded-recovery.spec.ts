// `npm start` keeps its embedded PostgreSQL running (src/server/db/embedded.ts, supervise): its postmaster killed
// under load, the launcher starts the cluster again, the app answers 503 meanwhile and 200 again within seconds,
// without a restart, every success charged once. The launcher itself SIGKILLed in the middle of a webhook delivery
// (its background work is the embedded default's worker) and started again: the delivery is made, no event is lost and
// none is acknowledged twice. When the cluster cannot be started again, the launcher gives up after a few attempts and
// exits non-zero, for a process manager to take over.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminOn, API, bearer, createKey, signIn, startWebhookReceiver, trpc, type Target } from '../helpers';

const PORT = 3217;
const DATA_DIR = '.data/e2e-recovery';
const target: Target = { origin: `http://127.0.0.1:${PORT}`, adminEnvironment: { DATA_DIR, DATABASE_URL: undefined, EMBEDDED_PG_PORT: undefined } };
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
  launcher = spawn('sh', ['-c', `${fresh ? `rm -rf ${DATA_DIR} && ` : ''}exec ${process.execPath} dist/start.mjs`], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

test('the postmaster killed under load: 503 meanwhile, 200 again within seconds, each success charged once', async ({ playwright }) => {
  const email = `recovery-${Date.now()}@example.test`;
  await adminOn(target, 'account', 'create', '--email', email, '--password', 'recovery-password-123', '--plan', 'agency');
  const appId = await adminOn(target, 'app', 'add', '--email', email, '--url', 'https://apps.apple.com/us/app/focus-timer/id1500000001');
  const session = await signIn(email, 'recovery-password-123', target.origin);
  const key = await createKey(session, 'read-only', 'recovery');
  const client: APIRequestContext = await playwright.request.newContext({ baseURL: target.origin });

  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'up';
  let running = true;
  const load = async () => {
    while (running) {
      const response = await client.get(`${API}/apps/${appId}`, { headers: bearer(key) });
      const headers = response.headers();
      outcomes.push({ status: response.status(), problem: (headers['content-type'] ?? '').startsWith('application/problem+json'), cost: headers['x-credits-cost'], phase });
      await response.dispose();
    }
  };
  const loops = Array.from({ length: 4 }, load);
  await expect.poll(() => outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(50);

  const before = postmaster();
  phase = 'down';
  process.kill(before.pid, 'SIGKILL');
  await expect.poll(() => outcomes.filter((outcome) => outcome.phase === 'down' && outcome.status === 503).length).toBeGreaterThan(5);
  // Back without a restart of the app, within seconds.
  const killedAt = Date.now();
  await expect.poll(() => output).toContain('embedded PostgreSQL started again');
  phase = 'back';
  await expect.poll(() => outcomes.filter((outcome) => outcome.phase === 'back' && outcome.status === 200).length).toBeGreaterThan(50);
  expect(Date.now() - killedAt).toBeLessThan(30_000);
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
  await client.dispose();
});

test('the launcher SIGKILLed in the middle of a webhook delivery: started again, it delivers it; no event lost, none acknowledged twice', async () => {
  test.setTimeout(300_000);
  // The first delivery is held without an answer while the launcher that sent it is killed.
  let holding = true;
  const receiver = await startWebhookReceiver({ hold: () => holding && !(holding = false) });
  const ids = (requests: { body: string }[]) => requests.map((request) => (JSON.parse(request.body) as { id: string }).id);
  try {
    const email = `delivery-${Date.now()}@example.test`;
    await adminOn(target, 'account', 'create', '--email', email, '--password', 'recovery-password-123', '--plan', 'pro');
    const appId = await adminOn(target, 'app', 'add', '--email', email, '--url', 'https://apps.apple.com/us/app/focus-timer/id1500000001');
    const session = await signIn(email, 'recovery-password-123', target.origin);
    const key = await createKey(session, 'read-write', 'delivery');
    const { endpoint } = await trpc<{ endpoint: { id: string } }>(session, 'webhooks.create', { url: receiver.url('/hooks'), eventTypes: ['keyword.added'] });
    const terms = Array.from({ length: 4 }, (_, index) => `killed delivery term ${index}`);
    for (const term of terms) expect((await session.context.post(`${target.origin}${API}/apps/${appId}/keywords`, { headers: bearer(key), data: { terms: [term] } })).status()).toBe(200);
    const statuses = async () => {
      const response = await session.context.get(`${target.origin}${API}/webhook-endpoints/${endpoint.id}/deliveries`, { headers: bearer(session.token) });
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

test('a cluster that cannot be started again: the launcher gives up after its attempts and exits non-zero', async () => {
  const { pid, port } = postmaster();
  const exited = new Promise<number | null>((resolve) => launcher!.once('exit', (code) => resolve(code)));
  process.kill(pid, 'SIGKILL');
  // The port taken as soon as it is free: no restart can listen on it.
  blocker = net.createServer();
  await expect
    .poll(() => new Promise<boolean>((resolve) => blocker!.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true))), { timeout: 10_000, intervals: [20] })
    .toBe(true);
  expect(await exited).toBe(1);
  expect(output).toMatch(/did not start again after 5 attempts/);
});
