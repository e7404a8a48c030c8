// `npm start` keeps its embedded PostgreSQL running (src/server/db/embedded.ts, supervise): its postmaster killed
// under load, the launcher starts the cluster again, the app answers 503 meanwhile and 200 again within seconds,
// without a restart, every success charged once. When the cluster cannot be started again, the launcher gives up
// after a few attempts and exits non-zero, for a process manager to take over.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminOn, API, bearer, createKey, signIn, type Target } from '../helpers';

const PORT = 3217;
const DATA_DIR = '.data/e2e-recovery';
const target: Target = { origin: `http://127.0.0.1:${PORT}`, adminEnvironment: { DATA_DIR, DATABASE_URL: undefined, EMBEDDED_PG_PORT: undefined } };
let launcher: ChildProcess | undefined;
let output = '';
let blocker: net.Server | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR, PORT: String(PORT), SEED_DEMO: 'false', LOG_REQUESTS: 'false', NEXTAUTH_URL: target.origin };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_PORT;
  launcher = spawn('sh', ['-c', `rm -rf ${DATA_DIR} && exec ${process.execPath} dist/start.mjs`], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 120_000 }).toContain('App ready at');
});

test.afterAll(async () => {
  // The whole process group: the launcher, its app server and its cluster.
  if (launcher?.exitCode === null) process.kill(-launcher.pid!, 'SIGKILL');
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
  test.setTimeout(180_000);
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
  await expect.poll(() => outcomes.filter((outcome) => outcome.phase === 'down' && outcome.status === 503).length, { timeout: 30_000 }).toBeGreaterThan(5);
  // Back without a restart of the app, within seconds.
  const killedAt = Date.now();
  await expect.poll(() => output, { timeout: 30_000 }).toContain('embedded PostgreSQL started again');
  phase = 'back';
  await expect.poll(() => outcomes.filter((outcome) => outcome.phase === 'back' && outcome.status === 200).length, { timeout: 30_000 }).toBeGreaterThan(50);
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

test('a cluster that cannot be started again: the launcher gives up after its attempts and exits non-zero', async () => {
  test.setTimeout(120_000);
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
