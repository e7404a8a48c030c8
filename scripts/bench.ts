// `npm run bench`: throughput and latency of the API on a data-heavy app (1,000 tracked keywords × 365 days of
// history), each endpoint against the bare-route baseline (GET /api/ping, no database) measured in the same run.
// Prints ratios, not absolute verdicts: the machine decides the absolute numbers. Needs `npm run build` first.
// BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 32) tune the load; the data under .data/bench is
// built once and reused (`npm run bench -- --fresh` rebuilds it). `npm run bench -- --only "apps/\{id\}$"` measures
// the baseline and the endpoints whose names match the pattern.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchWebhooks, type WebhookBench } from './bench-webhooks';

const fresh = process.argv.includes('--fresh');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? new RegExp(process.argv[onlyIndex + 1] ?? '') : null;
const dataDir = path.resolve('.data/bench');
if (fresh) await rm(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
if (!existsSync('.next/BUILD_ID')) {
  console.error('Run `npm run build` first: the bench measures the production build.');
  process.exit(1);
}

const { prepareDatabase, ensureAuthSecret } = await import('../src/server/runtime/prepare');
const { db, disconnectDb } = await import('../src/server/db');
const { createAccount } = await import('../src/server/services/accounts/accounts');
const { createApiKey } = await import('../src/server/services/api-keys/api-keys');
const { addKeywords } = await import('../src/server/services/apps/apps');
const { refreshApp } = await import('../src/server/services/ingest/refresh');
const { vocabularyFor } = await import('../src/server/services/ingest/demo/vocabulary');

const log = (line: string) => console.error(`[bench] ${line}`);
const database = await prepareDatabase(log);
await ensureAuthSecret();

const EMAIL = 'bench@example.com';
const MODIFIERS = ['app', 'free', 'for kids', 'for adults', 'music', 'sounds', 'timer', 'tracker', 'guide', 'daily', 'offline', 'pro', 'at night', 'for beginners', 'best', 'quick', 'journal', 'coach', 'plan', 'challenge', 'widget', 'with friends', 'ipad', 'watch', 'premium'];

async function benchData() {
  const existing = await db.user.findUnique({ where: { email: EMAIL }, select: { accountId: true } });
  if (existing) {
    const app = await db.trackedApp.findFirstOrThrow({ where: { accountId: existing.accountId, bundleId: 'com.calmlabs.breathe' } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    return { accountId: existing.accountId, appId: app.id, keywordId: keyword.id };
  }
  const { accountId } = await createAccount({ email: EMAIL, password: 'bench-password-123', plan: 'enterprise' });
  const app = await db.trackedApp.create({
    data: { accountId, store: 'app_store', storeId: '1459969523', bundleId: 'com.calmlabs.breathe', name: 'Breathe: Sleep & Meditation', developer: 'Calm Labs Inc.', category: 'Health & Fitness', primaryCountry: 'US' },
  });
  const terms = vocabularyFor('Health & Fitness').flatMap((term) => MODIFIERS.map((modifier) => `${term} ${modifier}`)).slice(0, 1_000);
  for (let i = 0; i < terms.length; i += 100) await addKeywords(accountId, { appId: app.id, terms: terms.slice(i, i + 100) });
  const started = performance.now();
  const summary = await refreshApp(app.id, { days: 365 });
  log(`ingested ${summary.days.length} days, ${summary.keywordRanks} keyword ranks in ${Math.round((performance.now() - started) / 1000)} s`);
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  return { accountId, appId: app.id, keywordId: keyword.id };
}

const data = await benchData();
// One key per measured endpoint: each key has its own request-rate limit (per minute).
const keyFor = async (name: string) => (await createApiKey({ accountId: data.accountId }, { name: `bench ${name}`, scope: 'read-write' })).secret;
const trackedCount = await db.trackedKeyword.count({ where: { appId: data.appId } });
const days = await db.ratingSnapshot.count({ where: { appId: data.appId } });
log(`bench app: ${trackedCount} tracked keywords, ${days} days of history`);

const port = Number(process.env.BENCH_PORT ?? 3900);
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the app under load.
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
if (await fetch(`http://127.0.0.1:${port}/api/ping`).then(() => true, () => false)) {
  throw new Error(`port ${port} is already in use (a server left over?): stop it or set BENCH_PORT`);
}
// Its own process group, so that the whole tree (next start and its server) is stopped at the end.
const server = spawn(process.execPath, [...nodeArgs, 'node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
  env: { ...process.env, DATABASE_URL: database.url, LOG_REQUESTS: 'false', NODE_ENV: 'production' },
});
const base = `http://127.0.0.1:${port}`;
for (let attempt = 0; ; attempt++) {
  if (await fetch(`${base}/api/health`).then((response) => response.ok, () => false)) break;
  if (attempt > 240) throw new Error('the app did not start');
  await new Promise((resolve) => setTimeout(resolve, 250));
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const api = `/api/public/v1/apps/${data.appId}`;
const targets: [string, string][] = [
  ['baseline: GET /api/ping (no database)', '/api/ping'],
  ['401: no credential (no database)', '/api/public/v1/apps'],
  ['GET /apps', '/api/public/v1/apps'],
  ['GET /apps/{id}', api],
  ['GET /apps/{id}/keywords (1,000)', `${api}/keywords`],
  ['GET /apps/{id}/keywords?rankWindow=90d', `${api}/keywords?rankWindow=90d`],
  ['GET /apps/{id}/aso-score', `${api}/aso-score`],
  ['GET /apps/{id}/opportunities', `${api}/opportunities`],
  ['GET /apps/{id}/competitors', `${api}/competitors`],
  ['GET /apps/{id}/keywords/research', `${api}/keywords/research?term=sleep`],
  ['GET /apps/{id}/reviews', `${api}/reviews`],
  ['GET /apps/{id}/reviews/insights', `${api}/reviews/insights`],
  ['GET …/keywords/{keywordId}/history?days=365', `${api}/keywords/${data.keywordId}/history?days=365`],
  ['GET …/keywords/{keywordId}/metrics-history', `${api}/keywords/${data.keywordId}/metrics-history`],
  ['GET /apps/{id}/category-rank?days=365', `${api}/category-rank?days=365`],
  ['GET /apps/{id}/rating-history', `${api}/rating-history`],
  ['GET /apps/{id}/metadata', `${api}/metadata`],
  ['GET /apps/{id}/metadata/changelog', `${api}/metadata/changelog`],
  ['GET /apps/{id}/keyword-spy', `${api}/keyword-spy`],
  ['GET /usage', '/api/public/v1/usage'],
].filter(([name], index) => index === 0 || !only || only.test(name!)) as [string, string][];

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per request (µs) of the app's processes and of PostgreSQL's, where /proc tells (Linux). */
  appCpu: number | null;
  dbCpu: number | null;
}

/**
 * CPU time (ms) used so far by the processes that `belongs` picks, from /proc (null elsewhere). Throughput on a
 * shared machine is noisy; CPU per request says where the time goes.
 */
function cpuMs(belongs: (pid: number, ppid: number, group: number) => boolean): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (belongs(Number(entry), Number(fields[1]), Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const appCpuMs = () => cpuMs((_pid, _ppid, group) => group === server.pid);
const dbCpuMs = () => cpuMs((pid, ppid) => pid === postmaster || ppid === postmaster);
const secrets = new Map<string, string>();
const expectsStatus = (name: string) => (name.startsWith('401') ? 401 : 200);
for (const [name] of targets) if (expectsStatus(name) === 200) secrets.set(name, await keyFor(name));
const rows: Row[] = [];
for (const [name, url] of targets) {
  const secret = secrets.get(name);
  const options = { url: base + url, connections, headers: (secret ? { Authorization: `Bearer ${secret}` } : {}) as Record<string, string> };
  // Let the previous target's in-flight requests drain, so each measurement is its own.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const probe = await fetch(base + url, { headers: options.headers });
  if (probe.status !== expectsStatus(name)) throw new Error(`${name} answered ${probe.status}: ${await probe.text()}`);
  await autocannon({ ...options, duration: 1 }); // warm-up
  const [app0, db0] = [appCpuMs(), dbCpuMs()];
  const result = await autocannon({ ...options, duration: seconds });
  const [app1, db1] = [appCpuMs(), dbCpuMs()];
  const perRequest = (start: number | null, end: number | null) => (start === null || end === null ? null : Math.max(0, ((end - start) * 1000) / result.requests.total));
  rows.push({
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: (expectsStatus(name) === 200 ? result.non2xx : result['2xx']) + result.errors,
    appCpu: perRequest(app0, app1),
    dbCpu: perRequest(db0, db1),
  });
  log(`${name}: ${Math.round(result.requests.average)} req/s`);
}
const webhooks: WebhookBench | null =
  !only || only.test('webhooks') ? await benchWebhooks({ base, accountId: data.accountId, databaseUrl: database.url, connections, events: 1_000, log }) : null;
await new Promise((resolve) => {
  server.once('exit', resolve);
  process.kill(-server.pid!, 'SIGTERM');
});
await disconnectDb();
await database.stop();

const baseline = rows[0]!;
const meteredRead = rows.find((row) => row.name === 'GET /apps/{id}');
const pad = (value: string, width: number) => value.padEnd(width);
console.log(`\n${connections} connections, ${seconds} s per endpoint. Ratio = req/s relative to the baseline of this run.\n`);
const micros = (value: number | null) => (value === null ? 'n/a' : String(Math.round(value))).padStart(9);
console.log(
  `${pad('endpoint', 48)} ${'req/s'.padStart(8)} ${'ratio'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'unexpected'.padStart(10)} ${'app µs/req'.padStart(10)} ${'db µs/req'.padStart(9)}`,
);
for (const row of rows) {
  console.log(
    `${pad(row.name, 48)} ${Math.round(row.rps).toString().padStart(8)} ${(row.rps / baseline.rps).toFixed(2).padStart(6)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.errors).padStart(10)} ${micros(row.appCpu).padStart(10)} ${micros(row.dbCpu)}`,
  );
}
if (meteredRead) console.log(
  `\nMetered 1-credit read (GET /apps/{id}: credential, lookup, charge and ledger row) at ${Math.round((meteredRead.rps / baseline.rps) * 100)} % of the bare route (aim: 60 %).`,
);
if (webhooks) {
  const added = (with_: number, without: number) => `${with_ - without >= 0 ? '+' : ''}${with_ - without} ms`;
  console.log(`\nWebhooks (a \`npm run worker\` process delivering to a local receiver):`);
  console.log(`  backlog of ${webhooks.events} events delivered at ${Math.round(webhooks.backlogDeliveriesPerSecond)} deliveries/s`);
  console.log(
    `  ${webhooks.events} × POST /apps/{id}/keywords, each recording a keyword.added event: p50 ${webhooks.withoutEndpoint.p50} → ${webhooks.withEndpoint.p50} ms (${added(webhooks.withEndpoint.p50, webhooks.withoutEndpoint.p50)}), p99 ${webhooks.withoutEndpoint.p99} → ${webhooks.withEndpoint.p99} ms (${added(webhooks.withEndpoint.p99, webhooks.withoutEndpoint.p99)}) once an endpoint subscribes`,
  );
  console.log(`  event → receiver lag: p50 ${webhooks.lagP50Ms} ms, p99 ${webhooks.lagP99Ms} ms`);
}
process.exit(rows.some((row) => row.errors > 0) || (webhooks?.errors ?? 0) > 0 ? 1 : 0);
