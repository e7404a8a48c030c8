// `npm run bench`: throughput and latency of the API on a data-heavy app (1,000 tracked keywords × 365 days of
// history), each endpoint against two servers answering the same bytes (status, headers and body; no database),
// measured in the same rounds: Next.js's bare route, a route handler of a one-route Next.js app (bench/baseline) under
// `next start`, the reference the developers' guide measured; and the limit, a bare node:http server
// (bench/node-http/server.mjs), what any server on this machine could answer at most (issue 42). Besides: the MCP
// tool list's tokens, the rate limiter, webhooks (./bench-webhooks.ts) and an export of a million rows (./bench-exports.ts). Prints ratios, not absolute verdicts: the machine decides the absolute
// numbers. Needs `npm run build` first; the baseline app is built on first use.
// Each endpoint is measured in BENCH_ROUNDS (default 3) rounds of BENCH_SECONDS (default 3), each round right after
// the two baseline measurements, after BENCH_WARMUP_SECONDS (default 5) of the same load on it; BENCH_CONNECTIONS
// (default 32) sets the load. The data under .data/bench is built
// once and reused (`npm run bench -- --fresh` rebuilds it). `npm run bench -- --only "apps/\{id\}$"` measures the
// endpoints whose names match the pattern. The JSON report goes to .data/bench-report.json (`--report <file>`).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serverArgs } from '../src/server/runtime/server-process';
import { benchRateLimit } from './bench-rate-limit';
import { STATEMENT_STATISTICS_SETTINGS, statementStatistics, type StatementShare } from './bench-statements';
import { benchExports, type ExportBench } from './bench-exports';
import { benchParquetWriters, type WriterMeasurement } from './bench-parquet-writers';
import { benchWebhooks, type WebhookBench } from './bench-webhooks';

const fresh = process.argv.includes('--fresh');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? new RegExp(process.argv[onlyIndex + 1] ?? '') : null;
const reportIndex = process.argv.indexOf('--report');
const reportPath = path.resolve(reportIndex > 0 ? process.argv[reportIndex + 1]! : '.data/bench-report.json');
const dataDir = path.resolve('.data/bench');
const METERED_READ = 'GET /apps/{id}';
const TEST_MODE_READ = 'GET /apps/{id} in test mode';
const MCP_TOOL_CALL = 'MCP tools/call apps_get';
const MCP_OAUTH_TOOL_CALL = 'MCP tools/call apps_get, OAuth token';
if (fresh) await rm(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
if (!existsSync('.next/BUILD_ID') || !existsSync('dist/main.mjs')) {
  console.error('Run `npm run build` first: the bench measures the production build.');
  process.exit(1);
}

const { prepareDatabase, ensureAuthSecret } = await import('../src/server/runtime/prepare');
const { db, disconnectDb } = await import('../src/server/db');
const { createAccount } = await import('../src/server/services/accounts/accounts');
const { createApiKey, revokeApiKey } = await import('../src/server/services/api-keys/api-keys');
const { generateApiKey, randomBase62 } = await import('../src/server/services/api-keys/key-format');
const { createConnectedApp, revokeConnectedApp } = await import('../src/server/services/oauth/connected-apps');
const { upsertOAuthRecord } = await import('../src/server/db/oauth-records');
const { configuredOrigin } = await import('../src/server/core/origin');
const { addKeywords } = await import('../src/server/services/apps/apps');
const { sandboxOf } = await import('../src/server/services/accounts/sandboxes');
const { runNextBackfill } = await import('../src/server/services/ingest/backfill-worker');
const { REQUESTS_PER_MINUTE } = await import('../src/server/services/limits/request-rates');
const { MAX_ACTIVE_KEYS } = await import('../src/server/services/api-keys/api-keys');
const { refreshApp } = await import('../src/server/services/ingest/refresh');
const { vocabularyFor } = await import('../src/server/services/ingest/demo/vocabulary');

const log = (line: string) => console.error(`[bench] ${line}`);
const { responseCacheMegabytes } = await import('../src/server/operations/response-cache');
// The app's response cache (src/server/operations/response-cache.ts) replays an endpoint's answer while its data is
// unchanged, so the reads below measure replays after their first call: RESPONSE_CACHE_MB=0 measures computed answers.
const responseCacheMb = responseCacheMegabytes();
const { researchMaxAgeSeconds } = await import('../src/server/services/aso/research');
// BENCH_PG_STATS=1: each endpoint's statements, counted per request (./bench-statements.ts).
const countStatements = process.env.BENCH_PG_STATS === '1';
const database = await prepareDatabase(log, countStatements ? { settings: STATEMENT_STATISTICS_SETTINGS } : {});
const statements = countStatements ? await statementStatistics(database.url) : null;
await ensureAuthSecret();

const EMAIL = 'bench@example.com';
const MODIFIERS = [
  'app',
  'free',
  'for kids',
  'for adults',
  'music',
  'sounds',
  'timer',
  'tracker',
  'guide',
  'daily',
  'offline',
  'pro',
  'at night',
  'for beginners',
  'best',
  'quick',
  'journal',
  'coach',
  'plan',
  'challenge',
  'widget',
  'with friends',
  'ipad',
  'watch',
  'premium',
];

async function benchData() {
  const existing = await db.user.findUnique({ where: { email: EMAIL }, select: { accountId: true } });
  if (existing?.accountId) {
    const { accountId } = existing;
    const app = await db.trackedApp.findFirstOrThrow({ where: { accountId, bundleId: 'com.calmlabs.breathe' } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    return { accountId, appId: app.id, keywordId: keyword.id };
  }
  const { accountId } = await createAccount({ email: EMAIL, password: 'bench-password-123', plan: 'enterprise' });
  const app = await db.trackedApp.create({
    data: {
      accountId,
      store: 'app_store',
      storeId: '1459969523',
      bundleId: 'com.calmlabs.breathe',
      name: 'Breathe: Sleep & Meditation',
      developer: 'Calm Labs Inc.',
      category: 'Health & Fitness',
      primaryCountry: 'US',
    },
  });
  const terms = vocabularyFor('Health & Fitness')
    .flatMap((term) => MODIFIERS.map((modifier) => `${term} ${modifier}`))
    .slice(0, 1_000);
  for (let i = 0; i < terms.length; i += 100)
    await addKeywords(accountId, { appId: app.id, terms: terms.slice(i, i + 100) });
  const started = performance.now();
  const summary = await refreshApp(app.id, { days: 365 });
  log(
    `ingested ${summary.days.length} days, ${summary.keywordRanks} keyword ranks in ${Math.round((performance.now() - started) / 1000)} s`,
  );
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  return { accountId, appId: app.id, keywordId: keyword.id };
}

/** The app that POST /apps/{id}/keywords adds to: its terms are cleared at every run, so that data does not grow. */
async function writesApp(accountId: string): Promise<string> {
  const app =
    (await db.trackedApp.findFirst({ where: { accountId, bundleId: 'com.bench.writes' } })) ??
    (await db.trackedApp.create({
      data: {
        accountId,
        store: 'app_store',
        storeId: '1000000002',
        bundleId: 'com.bench.writes',
        name: 'Bench Writes',
        developer: 'Bench',
        category: 'Health & Fitness',
        primaryCountry: 'US',
      },
    }));
  await db.trackedKeyword.deleteMany({ where: { appId: app.id } });
  // A refreshed app, as a customer's: each new term gets its rank and metric history in the call (an app never
  // refreshed skips that, which once made this measurement depend on whether the app process had refreshed it).
  if (!app.refreshedThrough) await refreshApp(app.id, { days: 365 });
  return app.id;
}

/**
 * The bench account's test sandbox and the App Store sample app its test-mode read asks for. Its year of history is
 * loaded here, once per bench database, so that no backfill runs in the app's process while anything is measured.
 */
async function sandboxData() {
  const sandboxId = await sandboxOf(data.accountId);
  while (await runNextBackfill()) {
    // the sandbox's sample apps, one after another
  }
  const app = await db.trackedApp.findFirstOrThrow({
    where: { accountId: sandboxId, store: 'app_store' },
    orderBy: { storeId: 'asc' },
  });
  return { sandboxId, sandboxAppId: app.id };
}

const data = { ...(await benchData()), writeAppId: '', sandboxId: '', sandboxAppId: '' };
data.writeAppId = await writesApp(data.accountId);
Object.assign(data, await sandboxData());
// The keys and usage of earlier runs go too: GET /usage then reports on this run alone (it grew by a key per
// measurement and run, ~60, so its answer was not the same from one run to the next).
await db.$transaction([
  db.creditLedger.deleteMany({ where: { accountId: data.accountId } }),
  db.creditUsageDaily.deleteMany({ where: { accountId: data.accountId } }),
  db.creditUsage.deleteMany({ where: { accountId: data.accountId } }),
  db.apiKey.deleteMany({ where: { accountId: data.accountId } }),
]);
/** The sandbox's usage and keys of earlier runs and measurements: a run spends about its monthly test allowance. */
const clearSandboxUsage = () =>
  db.$transaction([
    db.creditLedger.deleteMany({ where: { accountId: data.sandboxId } }),
    db.creditUsageDaily.deleteMany({ where: { accountId: data.sandboxId } }),
    db.creditUsage.deleteMany({ where: { accountId: data.sandboxId } }),
    db.apiKey.deleteMany({ where: { accountId: data.sandboxId } }),
  ]);
await clearSandboxUsage();
// Fresh keys per measurement (withKeys, below): each key has its own request-rate limit (per minute).
const keyFor = (name: string) =>
  createApiKey({ accountId: data.accountId }, { name: `bench ${name}`, scope: 'read-write' });
const trackedCount = await db.trackedKeyword.count({ where: { appId: data.appId } });
const { storeAppId, primaryCountry } = await db.trackedApp.findUniqueOrThrow({ where: { id: data.appId } });
const days = await db.ratingSnapshot.count({ where: { storeAppId, country: primaryCountry } });
log(`bench app: ${trackedCount} tracked keywords, ${days} days of history`);

const port = Number(process.env.BENCH_PORT ?? 3900);
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the app under load.
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
// The answers the baseline repeats (see the paired rounds below).
const bodyDir = path.join(dataDir, 'bodies');
await mkdir(bodyDir, { recursive: true });

interface Server {
  base: string;
  process: ChildProcess;
}

const NEXT_CLI = 'node_modules/next/dist/bin/next';
const BASELINE_DIR = 'bench/baseline';

/**
 * A server in its own process group, so that the whole tree is stopped at the end: the app's server as `npm start`
 * runs it, or the baseline app under `next start`.
 */
async function startServer(serverPort: number, args: string[], ready: string): Promise<Server> {
  const base = `http://127.0.0.1:${serverPort}`;
  if (
    await fetch(`${base}${ready}`).then(
      () => true,
      () => false,
    )
  ) {
    throw new Error(`port ${serverPort} is already in use (a server left over?): stop it or set BENCH_PORT`);
  }
  // Its stdout is a pipe the bench drains, as a deployment's log collector reads one, and the request log is on as by
  // default (BENCH_LOG_REQUESTS=false measures without it): the log line is part of what a request costs.
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      LOG_REQUESTS: process.env.BENCH_LOG_REQUESTS ?? 'true',
      NODE_ENV: 'production',
      BENCH_BODY_DIR: bodyDir,
      PORT: String(serverPort),
    },
  });
  child.stdout!.resume();
  // Should the bench fail half-way, its servers do not outlive it (the normal end stops them gracefully, below).
  process.on('exit', () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  for (let attempt = 0; ; attempt++) {
    if (
      await fetch(`${base}${ready}`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (attempt > 240) throw new Error(`${args.join(' ')} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, process: child };
}

// The baseline app is built once (its build is kept in bench/baseline/.next), by the same Next.js as the app.
if (!existsSync(path.join(BASELINE_DIR, '.next', 'BUILD_ID'))) {
  log('building the baseline app (bench/baseline)');
  const build = spawnSync(process.execPath, [NEXT_CLI, 'build', BASELINE_DIR], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('the baseline app did not build');
}
const app = await startServer(port, serverArgs('start', port, nodeArgs), '/api/health');
const viaNext = await startServer(port + 1, [NEXT_CLI, 'start', BASELINE_DIR, '--port', String(port + 1)], '/api/ping');
const viaNode = await startServer(port + 2, ['bench/node-http/server.mjs'], '/api/ping');
const base = app.base;

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
// Long enough for V8 to have compiled the endpoint's hot path: with a second of it, the first round of an endpoint
// whose code no earlier row ran (the MCP tool call, any row of an --only run) measured partly unoptimised code
// (docs/benchmarks.md, "The warm-up"). The baselines' servers answer every row with the same code, warm after the first.
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const api = `/api/public/v1/apps/${data.appId}`;

interface Target {
  name: string;
  path: string;
  /** The status every answer must have. */
  status: number;
  /** Sent with an API key of the bench account (a fresh key per round: each key has its own per-minute limit). */
  authorized: boolean;
  /** Sent as the Authorization header instead (a credential refused without a lookup). */
  authorization?: string;
  /** With an OAuth access token of a connected app instead of a key (the MCP server's sign-in, src/server/oauth/). */
  oauth?: boolean;
  /** With svc_test_ keys of the bench account's sandbox instead (test mode). */
  testMode?: boolean;
  /**
   * Another target measured beside this one in each round (after it, or before it every other round), for a ratio of
   * the two measured seconds apart: two rows' ratios to their own baselines, each as noisy as its baseline, compare
   * less exactly.
   */
  pairedWith?: string;
  /** A metered read: its aims are ≥ 1.5 × the baseline and p99 ≤ 50 ms (issue 19). */
  meteredRead: boolean;
  method?: 'POST';
  /** A body per request (POST). */
  body?: () => string;
  /** More request headers. */
  headers?: Record<string, string>;
}

const read = (name: string, url: string): Target => ({
  name,
  path: url,
  status: 200,
  authorized: true,
  meteredRead: true,
});
const issued = generateApiKey().secret;
const wrongChecksum = issued.slice(0, -1) + (issued.endsWith('0') ? '1' : '0');
let termCounter = 0;
const runTag = Date.now().toString(36);
const allTargets: Target[] = [
  // Refused on their shape, without the database, by the REST pipeline's first step (src/server/rest/pipeline.ts).
  {
    name: '401: no credential (no database)',
    path: '/api/public/v1/apps',
    status: 401,
    authorized: false,
    meteredRead: false,
  },
  {
    name: '401: malformed credential (no database)',
    path: `${api}/keywords`,
    status: 401,
    authorized: false,
    authorization: 'Bearer not-a-key',
    meteredRead: false,
  },
  {
    name: '401: key with a wrong checksum (no database)',
    path: `${api}/keywords`,
    status: 401,
    authorized: false,
    authorization: `Bearer ${wrongChecksum}`,
    meteredRead: false,
  },
  {
    name: '404: unknown app',
    path: `/api/public/v1/apps/${randomUUID()}`,
    status: 404,
    authorized: true,
    meteredRead: false,
  },
  read('GET /apps', '/api/public/v1/apps'),
  read(METERED_READ, api),
  // The same read with a test key, on a sample app of the account's sandbox: test mode costs nothing more.
  { ...read(TEST_MODE_READ, `/api/public/v1/apps/${data.sandboxAppId}`), testMode: true, pairedWith: METERED_READ },
  read('GET /apps/{id}/keywords (1,000)', `${api}/keywords`),
  read('GET /apps/{id}/keywords?rankWindow=90d', `${api}/keywords?rankWindow=90d`),
  read('GET /apps/{id}/aso-score', `${api}/aso-score`),
  read('GET /apps/{id}/opportunities', `${api}/opportunities`),
  read('GET /apps/{id}/competitors', `${api}/competitors`),
  read('GET /apps/{id}/keywords/research', `${api}/keywords/research?term=sleep`),
  read('GET /apps/{id}/reviews', `${api}/reviews`),
  read('GET /apps/{id}/reviews/insights', `${api}/reviews/insights`),
  read('GET …/keywords/{keywordId}/history?days=365', `${api}/keywords/${data.keywordId}/history?days=365`),
  read('GET …/keywords/{keywordId}/metrics-history', `${api}/keywords/${data.keywordId}/metrics-history`),
  read('GET /apps/{id}/category-rank?days=365', `${api}/category-rank?days=365`),
  read('GET /apps/{id}/rating-history', `${api}/rating-history`),
  read('GET /apps/{id}/metadata', `${api}/metadata`),
  read('GET /apps/{id}/metadata/changelog', `${api}/metadata/changelog`),
  read('GET /apps/{id}/keyword-spy', `${api}/keyword-spy`),
  // Usage costs no credit but reads the account's ledger: held to the same aims as the reads.
  read('GET /usage', '/api/public/v1/usage'),
  {
    name: 'POST /apps/{id}/keywords (a new term each)',
    path: `/api/public/v1/apps/${data.writeAppId}/keywords`,
    status: 200,
    authorized: true,
    meteredRead: false,
    method: 'POST',
    body: () => JSON.stringify({ terms: [`bench ${runTag} ${termCounter++}`] }),
  },
  // The same metered read as a tool of the MCP server (src/server/mcp/mcp-endpoint.ts): one JSON-RPC request per call,
  // measured beside the REST read in every round, as the test-mode read is.
  {
    name: MCP_TOOL_CALL,
    path: '/api/mcp',
    status: 200,
    authorized: true,
    meteredRead: false,
    pairedWith: METERED_READ,
    method: 'POST',
    headers: { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
    body: () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'apps_get', arguments: { id: data.appId } },
      }),
  },
  // The same tool call on an OAuth access token: checked as a key is, by one statement (issue 38).
  {
    name: MCP_OAUTH_TOOL_CALL,
    path: '/api/mcp',
    status: 200,
    authorized: true,
    oauth: true,
    meteredRead: false,
    method: 'POST',
    headers: { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
    body: () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'apps_get', arguments: { id: data.appId } },
      }),
  },
];
const targets = allTargets.filter((target) => !only || only.test(target.name));

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  unexpected: number;
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
const appCpuMs = (server: Server) => cpuMs((_pid, _ppid, group) => group === server.process.pid);
const dbCpuMs = () => cpuMs((pid, ppid) => pid === postmaster || ppid === postmaster);

/**
 * Fresh keys for a measurement of `duration` seconds, shared out among the connections: enough that no key reaches
 * the Enterprise limit of 12,000 requests a minute at up to 10,000 requests a second (a 429 would count as unexpected),
 * revoked once the measurement is done.
 */
/** tools/list's tools, as the server answers them, in o200k tokens: the default toolsets, read-only, and all. */
async function benchToolList() {
  const key = await keyFor('tools/list');
  try {
    const listed = async (query: string) => {
      const response = await fetch(`${base}/api/mcp${query}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key.secret}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      const text = await response.text();
      // A Streamable HTTP answer: JSON, or one server-sent event holding it.
      const json = text.startsWith('{') ? text : text.slice(text.indexOf('data: ') + 6).split('\n')[0]!;
      const tools = (JSON.parse(json) as { result: { tools: unknown[] } }).result.tools;
      return { tools: tools.length, tokens: countTokens(JSON.stringify(tools)) };
    };
    return { default: await listed(''), readOnly: await listed('?readonly=true'), all: await listed('?toolsets=all') };
  } finally {
    await revokeApiKey(data.accountId, key.key.id);
  }
}

async function withKeys<T>(target: Target, duration: number, use: (secrets: string[]) => Promise<T>): Promise<T> {
  if (!target.authorized) return use([]);
  const count = Math.max(1, Math.ceil((duration * 10_000) / 12_000));
  if (target.testMode) return withTestKeys(target, duration, use);
  if (target.oauth) {
    const tokens = await Promise.all(Array.from({ length: count }, () => oauthTokenFor(target.name)));
    try {
      return await use(tokens.map((token) => token.value));
    } finally {
      await Promise.all(tokens.map((token) => revokeConnectedApp(data.accountId, token.connectedAppId)));
    }
  }
  const keys = await Promise.all(Array.from({ length: count }, (_, index) => keyFor(`${target.name} ${index}`)));
  try {
    return await use(keys.map((key) => key.secret));
  } finally {
    // Revoked once used: an account has at most 50 active keys.
    await Promise.all(keys.map((key) => revokeApiKey(data.accountId, key.key.id)));
  }
}

/**
 * Test keys for a measurement: the test rate is a tenth of Enterprise's, so more keys are shared out, enough for
 * 5,000 requests a second (up to the 50 an account may hold: a BENCH_SECONDS past 12 s shows as 429s among the
 * unexpected answers). The sandbox's usage is cleared first: a measurement spends a good part of the test allowance.
 */
async function withTestKeys<T>(target: Target, duration: number, use: (secrets: string[]) => Promise<T>): Promise<T> {
  await clearSandboxUsage();
  const count = Math.min(MAX_ACTIVE_KEYS, Math.max(1, Math.ceil((duration * 5_000) / REQUESTS_PER_MINUTE.test)));
  const keys = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      createApiKey({ accountId: data.sandboxId }, { name: `bench ${target.name} ${index}`, scope: 'read-write' }),
    ),
  );
  try {
    return await use(keys.map((key) => key.secret));
  } finally {
    await Promise.all(keys.map((key) => revokeApiKey(data.sandboxId, key.key.id)));
  }
}

/** A connected app of the bench account and an access token of it, as the authorization server stores them. */
async function oauthTokenFor(name: string): Promise<{ value: string; connectedAppId: string }> {
  const owner = await db.user.findUniqueOrThrow({ where: { email: EMAIL }, select: { id: true } });
  const grantId = randomUUID();
  const connected = await createConnectedApp({
    accountId: data.accountId,
    userId: owner.id,
    grantId,
    clientId: `bench-${grantId}`,
    clientName: `bench ${name}`,
    scope: 'read-write',
    restrictions: {},
  });
  const value = randomBase62(43);
  const resource = `${configuredOrigin() ?? `http://localhost:${port}`}/api/mcp`;
  await upsertOAuthRecord(
    'AccessToken',
    value,
    {
      jti: value,
      kind: 'AccessToken',
      grantId,
      clientId: `bench-${grantId}`,
      aud: resource,
      scope: 'read-only read-write',
    },
    3_600,
  );
  return { value, connectedAppId: connected.id };
}

function optionsFor(target: Target, keys: string[], server: Server = app) {
  const headers: Record<string, string> = {};
  if (keys[0]) headers.Authorization = `Bearer ${keys[0]}`;
  if (target.authorization) headers.Authorization = target.authorization;
  if (target.method) headers['Content-Type'] = 'application/json';
  Object.assign(headers, target.headers);
  const body = target.body;
  let connection = 0;
  return {
    url: server.base + target.path,
    connections,
    method: target.method ?? 'GET',
    headers,
    // Each connection sends one of the keys throughout (set once per connection: no cost per request).
    ...(keys.length > 1
      ? {
          setupClient: (client: { setHeaders(headers: Record<string, string>): void }) =>
            client.setHeaders({ ...headers, Authorization: `Bearer ${keys[connection++ % keys.length]}` }),
        }
      : {}),
    ...(body
      ? { requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, body: body() }) }] }
      : {}),
  } as autocannon.Options;
}

function measure(target: Target, duration: number, server: Server = app): Promise<Measurement> {
  return withKeys(target, duration, (keys) => measureWith(target, duration, optionsFor(target, keys, server), server));
}

async function measureWith(
  target: Target,
  duration: number,
  options: autocannon.Options,
  server: Server,
): Promise<Measurement> {
  // The previous measurement's in-flight requests drain first, so that each measurement is its own.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const [app0, db0] = [appCpuMs(server), dbCpuMs()];
  const result = await autocannon({ ...options, duration });
  const [app1, db1] = [appCpuMs(server), dbCpuMs()];
  const requests = result.requests.total;
  const perRequest = (start: number | null, end: number | null) =>
    start === null || end === null ? null : Math.max(0, ((end - start) * 1000) / requests);
  const statusCounts = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const expected = statusCounts[String(target.status)]?.count ?? 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    unexpected: requests - expected + result.errors + result.timeouts,
    appCpu: perRequest(app0, app1),
    dbCpu: perRequest(db0, db1),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const medianOrNull = (values: (number | null)[]) =>
  values.some((value) => value === null) ? null : median(values as number[]);

interface Row {
  name: string;
  path: string;
  method: string;
  meteredRead: boolean;
  /** Size of the answer's body. */
  bytes: number;
  /** Medians over the rounds. */
  rps: number;
  /** Next.js's bare route answering the same bytes. */
  baselineRps: number;
  ratio: number;
  p50: number;
  p99: number;
  appCpu: number | null;
  baselineAppCpu: number | null;
  dbCpu: number | null;
  unexpected: number;
  /** p99 of the bare route answering the same bytes (median over the rounds): what Next.js alone gives. */
  baselineP99: number;
  /** The bare node:http server answering the same bytes: its req/s, the target's ratio to it, its p99 (medians). */
  limitRps: number;
  limitRatio: number;
  limitP99: number;
  /** Against the target it is paired with (Target.pairedWith): the median of the rounds' req/s ratios. */
  versus: { name: string; ratio: number } | null;
  /** BENCH_PG_STATS=1: the database statements of its measured rounds, per request answered. */
  statements: StatementShare[] | null;
  rounds: (Measurement & { baseline: Measurement; ratio: number; limit: Measurement; limitRatio: number })[];
}

/** Headers the server adds to every answer, the baseline's included. */
const SERVER_HEADERS = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding', 'vary']);

// Paired rounds: each round measures the baseline and then the target, back to back, and a ratio is the median of
// the rounds' ratios. The machine's speed drifts over minutes; a ratio of measurements seconds apart does not.
// Each target's baseline is the bare route answering the same bytes as the target (GET /api/ping?body=…, from a
// file the bench writes): the ratio then measures the API's work, not the size of its answer.
const rows: Row[] = [];
for (const [index, target] of targets.entries()) {
  const probe = await withKeys(target, 0, (keys) =>
    fetch(base + target.path, { ...optionsFor(target, keys), body: target.body?.() } as RequestInit),
  );
  const answer = await probe.text();
  if (probe.status !== target.status) throw new Error(`${target.name} answered ${probe.status}: ${answer}`);
  const bodyName = `target-${index}`;
  await writeFile(path.join(bodyDir, `${bodyName}.json`), answer);
  // The same status and headers too (a 401's challenge, the request id, the credit headers): the same bytes on the wire.
  // Those the server writes itself for every answer are left to it.
  const headers = [...probe.headers].filter(([name]) => !SERVER_HEADERS.has(name));
  await writeFile(path.join(bodyDir, `${bodyName}.head.json`), JSON.stringify({ status: probe.status, headers }));
  const baselineTarget: Target = {
    name: `same bytes as ${target.name}`,
    path: `/api/ping?body=${bodyName}`,
    status: target.status,
    authorized: false,
    meteredRead: false,
  };
  const paired = target.pairedWith ? allTargets.find((other) => other.name === target.pairedWith)! : null;
  await measure(target, warmUpSeconds); // warm-up
  // A pair no earlier row measured (an --only run of this row alone) is warmed up as well.
  if (paired && !rows.some((row) => row.name === paired.name)) await measure(paired, warmUpSeconds);
  await measure(baselineTarget, 1, viaNext);
  await measure(baselineTarget, 1, viaNode);
  const runs: Row['rounds'] = [];
  const versus: number[] = [];
  let pairedRequests = 0;
  await statements?.reset();
  for (let round = 0; round < rounds; round++) {
    // The paired target goes before the target in every other round: neither gains from going first.
    const pairedFirst = paired && round % 2 ? await measure(paired, seconds) : null;
    const limit = await measure(baselineTarget, seconds, viaNode);
    const baseline = await measure(baselineTarget, seconds, viaNext);
    const run = await measure(target, seconds);
    runs.push({ ...run, baseline, ratio: run.rps / baseline.rps, limit, limitRatio: run.rps / limit.rps });
    if (paired) {
      const pairedRun = pairedFirst ?? (await measure(paired, seconds));
      versus.push(run.rps / pairedRun.rps);
      pairedRequests += pairedRun.requests;
    }
  }
  const medianOf = (value: (run: Row['rounds'][number]) => number) => median(runs.map(value));
  const medianCpu = (value: (run: Row['rounds'][number]) => number | null) => medianOrNull(runs.map(value));
  const row: Row = {
    name: target.name,
    path: target.path,
    method: target.method ?? 'GET',
    meteredRead: target.meteredRead,
    bytes: Buffer.byteLength(answer),
    rps: medianOf((run) => run.rps),
    baselineRps: medianOf((run) => run.baseline.rps),
    ratio: medianOf((run) => run.ratio),
    p50: medianOf((run) => run.p50),
    p99: medianOf((run) => run.p99),
    baselineP99: medianOf((run) => run.baseline.p99),
    limitRps: medianOf((run) => run.limit.rps),
    limitRatio: medianOf((run) => run.limitRatio),
    limitP99: medianOf((run) => run.limit.p99),
    appCpu: medianCpu((run) => run.appCpu),
    baselineAppCpu: medianCpu((run) => run.baseline.appCpu),
    dbCpu: medianCpu((run) => run.dbCpu),
    unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
    versus: paired ? { name: paired.name, ratio: median(versus) } : null,
    // A paired target's statements are counted with its pair's, in the same window, per request of both.
    statements: statements
      ? await statements.perRequest(runs.reduce((sum, run) => sum + run.requests, pairedRequests))
      : null,
    rounds: runs,
  };
  rows.push(row);
  log(
    `${target.name}: ${Math.round(row.rps)} req/s, ${row.ratio.toFixed(2)} of Next.js's bare route (rounds: ${runs.map((run) => run.ratio.toFixed(2)).join(', ')}), ${row.limitRatio.toFixed(3)} of node:http's`,
  );
}
// What an agent pays before its first call: the MCP server's tools/list for a read-write key, in tokens (o200k, the
// encoding of OpenAI's current models), for the default toolsets, read-only, and every toolset (issue 66's aim: the
// default at most 4,000).
const toolList = !only || only.test('tools/list') ? await benchToolList() : null;
// While the database still runs: it stops with the servers.
const rateLimit = !only || only.test('rate limit') ? await benchRateLimit() : null;
const webhooks: WebhookBench | null =
  !only || only.test('webhooks')
    ? await benchWebhooks({
        base,
        accountId: data.accountId,
        databaseUrl: database.url,
        connections,
        events: 1_000,
        log,
      })
    : null;
// An export of a million rows, and of a tenth of them, each in a process of its own (issue 68).
const exportsBench: ExportBench | null =
  !only || only.test('exports')
    ? await benchExports({ databaseUrl: database.url, accountId: data.accountId, log })
    : null;
// The Parquet writers measured against each other on the same rows (issue 68's choice), each in a process of its own.
const parquetWriters: WriterMeasurement[] | null =
  !only || only.test('parquet writers') ? await benchParquetWriters(log) : null;
await Promise.all(
  [app, viaNext, viaNode].map(
    (server) =>
      new Promise((resolve) => {
        server.process.once('exit', resolve);
        process.kill(-server.process.pid!, 'SIGTERM');
      }),
  ),
);
await statements?.close();
await disconnectDb();
await database.stop();

const pad = (value: string, width: number) => value.padEnd(width);
console.log(
  `\n${connections} connections; ${rounds} rounds of ${seconds} s per endpoint after ${warmUpSeconds} s of warm-up, each paired with a measurement just before it of ` +
    "Next.js's bare route (`next start`, one route handler, no database) answering the same bytes: status, headers, body (base/s), " +
    'and of a bare node:http server answering them (node/s: the limit, nothing between the socket and the answer). ' +
    "Medians over the rounds; ratio is req/s relative to Next.js's route, ×node relative to node:http.\n",
);
console.log(
  responseCacheMb > 0
    ? `Response cache on (${responseCacheMb} MB): after its first call, every read is a replay (credential, rate limit, charge; the data unchanged; research while the store's answer in it is under RESEARCH_MAX_AGE_SECONDS old). RESPONSE_CACHE_MB=0 npm run bench measures computed answers.\n`
    : 'Response cache off (RESPONSE_CACHE_MB=0): every read is computed.\n',
);
const micros = (value: number | null) => (value === null ? 'n/a' : String(Math.round(value)));
const columns: [string, number, (row: Row) => string][] = [
  ['bytes', 8, (row) => String(row.bytes)],
  ['req/s', 7, (row) => String(Math.round(row.rps))],
  ['base/s', 7, (row) => String(Math.round(row.baselineRps))],
  ['ratio', 6, (row) => row.ratio.toFixed(2)],
  ['p50 ms', 7, (row) => String(row.p50)],
  ['p99 ms', 7, (row) => String(row.p99)],
  ['base99', 6, (row) => String(row.baselineP99)],
  ['node/s', 7, (row) => String(Math.round(row.limitRps))],
  ['×node', 6, (row) => row.limitRatio.toFixed(3)],
  ['node99', 6, (row) => String(row.limitP99)],
  ['unexp.', 6, (row) => String(row.unexpected)],
  ['app µs', 7, (row) => micros(row.appCpu)],
  ['base µs', 7, (row) => micros(row.baselineAppCpu)],
  ['db µs', 6, (row) => micros(row.dbCpu)],
];
console.log(`${pad('endpoint', 48)} ${columns.map(([title, width]) => title.padStart(width)).join(' ')}`);
for (const row of rows)
  console.log(`${pad(row.name, 48)} ${columns.map(([, width, value]) => value(row).padStart(width)).join(' ')}`);

// The aims, as verdicts on this run (a benchmark reports; it does not fail on a slow machine): every metered read at
// least 1.5 times Next.js's bare route with a p99 of at most 50 ms (issue 19), a 401 at least 2 times; and against the
// limit (issue 42): a 401 at least 0.5 of node:http, the metered read (GET /apps/{id}) at least 0.15 of it and 2.5
// times Next.js's route, with a p99 at most half of the route's.
interface Aim {
  aim: string;
  endpoint: string;
  value: number;
  meets: boolean;
  /** A throughput ratio, else a latency in ms. */
  ratio: boolean;
}
const aims: Aim[] = [];
for (const row of rows) {
  const throughput = (least: number) =>
    aims.push({
      aim: `throughput ≥ ${least} × Next.js's bare route`,
      endpoint: row.name,
      value: row.ratio,
      meets: row.ratio >= least,
      ratio: true,
    });
  if (row.meteredRead) {
    throughput(1.5);
    aims.push({ aim: 'p99 ≤ 50 ms', endpoint: row.name, value: row.p99, meets: row.p99 <= 50, ratio: false });
  }
  if (row.name.startsWith('401')) {
    throughput(2);
    aims.push({
      aim: 'throughput ≥ 0.5 × a bare node:http server',
      endpoint: row.name,
      value: row.limitRatio,
      meets: row.limitRatio >= 0.5,
      ratio: true,
    });
  }
  if (row.name === METERED_READ) {
    aims.push({
      aim: 'throughput ≥ 0.15 × a bare node:http server',
      endpoint: row.name,
      value: row.limitRatio,
      meets: row.limitRatio >= 0.15,
      ratio: true,
    });
    throughput(2.5);
    const share = row.p99 / row.baselineP99;
    aims.push({
      aim: "p99 ≤ 0.5 × Next.js's bare route's p99",
      endpoint: row.name,
      value: share,
      meets: share <= 0.5,
      ratio: true,
    });
  }
}
// Two measurements of the app against each other: each as its ratio to the baseline measured just before it, so that
// the machine's speed between the two (which moves by half on a busy machine) does not count.
const relative = (row: { ratio: number }, to: { ratio: number }) => row.ratio / to.ratio;
const toolCall = rows.find((row) => row.name === MCP_TOOL_CALL);
// The same tool call on an OAuth token against it on a key (issue 38): at least 0.9.
const oauthToolCall = rows.find((row) => row.name === MCP_OAUTH_TOOL_CALL);
if (toolCall && oauthToolCall) {
  const share = relative(oauthToolCall, toolCall);
  aims.push({
    aim: `throughput ≥ 0.9 × ${MCP_TOOL_CALL} on a key`,
    endpoint: MCP_OAUTH_TOOL_CALL,
    value: share,
    meets: share >= 0.9,
    ratio: true,
  });
}
// The same read in test mode against live, measured right after it in each round (issue 39): at least as fast. Two
// measurements of one path a few seconds apart differ by a few per cent, so "as fast" is read as at least 0.95 of it.
const testModeRead = rows.find((row) => row.name === TEST_MODE_READ);
if (testModeRead?.versus) {
  const share = testModeRead.versus.ratio;
  aims.push({
    aim: `throughput ≥ 0.95 × ${METERED_READ} with a live key`,
    endpoint: TEST_MODE_READ,
    value: share,
    meets: share >= 0.95,
    ratio: true,
  });
}
// The tool call against the REST read, measured beside it in each round (issue 37): at least 0.7 of its throughput.
const toolCallShare = toolCall?.versus?.ratio;
if (toolCallShare !== undefined) {
  aims.push({
    aim: `throughput ≥ 0.7 × ${METERED_READ} on REST`,
    endpoint: MCP_TOOL_CALL,
    value: toolCallShare,
    meets: toolCallShare >= 0.7,
    ratio: true,
  });
}
if (toolList) {
  console.log(
    `\nMCP tools/list for a read-write key (o200k tokens): default toolsets ${toolList.default.tokens} (${toolList.default.tools} tools, aim ≤ 4,000), read-only ${toolList.readOnly.tokens} (${toolList.readOnly.tools}), every toolset ${toolList.all.tokens} (${toolList.all.tools}).`,
  );
  aims.push({
    aim: 'tools/list of the default toolsets ≤ 4,000 tokens',
    endpoint: 'MCP tools/list',
    meets: toolList.default.tokens <= 4_000,
    ratio: false,
    value: toolList.default.tokens,
  });
}
// Memory that stays bounded: ten times the rows may take at most twice the growth of the tenth's peak RSS.
const growthOf = (run: ExportBench['million']) => Math.max(1, run.peakRssMb - run.rssBeforeMb);
const exportGrowth = exportsBench ? growthOf(exportsBench.million) / growthOf(exportsBench.tenth) : null;
if (exportsBench && exportGrowth !== null) {
  aims.push({
    aim: 'peak memory growth ≤ 2 × an export of a tenth of the rows',
    endpoint: 'export of 1,000,000 rows',
    value: exportGrowth,
    meets: exportGrowth <= 2,
    ratio: true,
  });
}
console.log(`\nAims: ${aims.filter((aim) => aim.meets).length} of ${aims.length} met.`);
for (const aim of aims.filter((entry) => !entry.meets))
  console.log(`  below: ${aim.endpoint}: ${aim.aim} (${aim.ratio ? `${aim.value.toFixed(2)} ×` : `${aim.value} ms`})`);
const meteredRead = rows.find((row) => row.name === METERED_READ);
if (meteredRead) {
  const steps =
    responseCacheMb > 0
      ? 'credential with data versions, replayed answer, charge and ledger row'
      : 'credential, lookup, charge and ledger row';
  console.log(
    `\nMetered 1-credit read (${METERED_READ}: ${steps}) at ${meteredRead.ratio.toFixed(2)} × Next.js's bare route and ${meteredRead.limitRatio.toFixed(3)} × a bare node:http server, p99 ${meteredRead.p99} ms (the route's ${meteredRead.baselineP99} ms, node:http's ${meteredRead.limitP99} ms).`,
  );
}
if (toolCall && toolCallShare !== undefined) {
  console.log(
    `MCP tool call (${MCP_TOOL_CALL}, the same read) at ${toolCallShare.toFixed(2)} × its REST twin's throughput, measured in the same rounds (aim ≥ 0.7), p99 ${toolCall.p99} ms.`,
  );
}
if (testModeRead?.versus) {
  console.log(
    `The same read in test mode at ${testModeRead.versus.ratio.toFixed(2)} × with a live key, measured in the same rounds (aim ≥ 0.95), p99 ${testModeRead.p99} ms.`,
  );
}
if (toolCall && oauthToolCall) {
  console.log(
    `The same tool call on an OAuth token at ${relative(oauthToolCall, toolCall).toFixed(2)} × on a key (aim ≥ 0.9), p99 ${oauthToolCall.p99} ms.`,
  );
}
for (const row of rows.filter((each) => each.statements?.length && each.meteredRead)) {
  console.log(
    `\nDatabase statements per ${row.name} (pg_stat_statements over its measured rounds: runs per request × execution time per request; indented: run inside a function):`,
  );
  for (const share of row.statements!) {
    // A statement run once a second (the keys' request log) is a few ten-thousandths of a run per request.
    const runs = share.perRequest.toFixed(share.perRequest < 0.01 ? 4 : 2);
    console.log(
      `  ${runs.padStart(6)} × ${share.microsecondsPerRequest.toFixed(1).padStart(6)} µs  ${share.topLevel ? '' : '  '}${share.statement}`,
    );
  }
}
if (rateLimit) {
  console.log(
    `\nRate limiter (a Pro key's 1,200 a minute, shared in PostgreSQL): ${rateLimit.sharedMicroseconds.toFixed(1)} µs a request, against ${rateLimit.memoryMicroseconds.toFixed(1)} µs counted in one process's memory alone; ${rateLimit.storeRoundTrips.toLocaleString('en-US')} store round trips for ${rateLimit.requests.toLocaleString('en-US')} requests.`,
  );
}
if (webhooks) {
  const added = (with_: number, without: number) => `${with_ - without >= 0 ? '+' : ''}${with_ - without} ms`;
  console.log(`\nWebhooks (a \`npm run worker\` process delivering to a local receiver):`);
  console.log(
    `  backlog of ${webhooks.events} events delivered at ${Math.round(webhooks.backlogDeliveriesPerSecond)} deliveries/s`,
  );
  console.log(
    `  ${webhooks.events} × POST /apps/{id}/keywords, each recording a keyword.added event: p50 ${webhooks.withoutEndpoint.p50} → ${webhooks.withEndpoint.p50} ms (${added(webhooks.withEndpoint.p50, webhooks.withoutEndpoint.p50)}), p99 ${webhooks.withoutEndpoint.p99} → ${webhooks.withEndpoint.p99} ms (${added(webhooks.withEndpoint.p99, webhooks.withoutEndpoint.p99)}) once an endpoint subscribes`,
  );
  console.log(`  event → receiver lag: p50 ${webhooks.lagP50Ms} ms, p99 ${webhooks.lagP99Ms} ms`);
}
if (exportsBench && exportGrowth !== null) {
  const line = (run: ExportBench['million']) =>
    `  ${run.rows.toLocaleString('en-US')} rows in ${run.seconds.toFixed(1)} s (${Math.round(run.rowsPerSecond).toLocaleString('en-US')} rows/s), ${(run.bytes / 2 ** 20).toFixed(1)} MiB; peak RSS ${Math.round(run.peakRssMb)} MB, ${Math.round(run.rssBeforeMb)} MB before it (+${Math.round(run.peakRssMb - run.rssBeforeMb)} MB)`;
  console.log(
    `\nExports (Parquet: keyword ranks and metrics of 1,000 keywords, the worker's code in a process of its own):`,
  );
  console.log(line(exportsBench.million));
  console.log(line(exportsBench.tenth));
  console.log(
    `  ten times the rows: ${(exportsBench.million.rowsPerSecond / exportsBench.tenth.rowsPerSecond).toFixed(2)} × the rows per second, ${exportGrowth.toFixed(2)} × the memory growth (aim ≤ 2)`,
  );
}
if (parquetWriters) {
  const chosen = parquetWriters.find((writer) => writer.writer === 'hyparquet-writer')!;
  console.log(
    `\nParquet writers, the same ${chosen.rows.toLocaleString('en-US')} rows each (keyword ranks), each in a process of its own:`,
  );
  for (const writer of parquetWriters)
    console.log(
      `  ${writer.writer.padEnd(17)} ${writer.seconds.toFixed(1).padStart(5)} s  ${Math.round(writer.rowsPerSecond).toLocaleString('en-US').padStart(9)} rows/s  peak RSS +${Math.round(writer.peakRssMb - writer.rssBeforeMb)} MB  ${(writer.bytes / 2 ** 20).toFixed(2)} MiB  (${(writer.rowsPerSecond / chosen.rowsPerSecond).toFixed(2)} × hyparquet-writer's rows/s)`,
    );
}
const report = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    node: process.version,
    platform: process.platform,
  },
  settings: {
    connections,
    seconds,
    rounds,
    warmUpSeconds,
    only: only?.source ?? null,
    nodeArgs,
    responseCacheMb,
    researchMaxAgeSeconds: researchMaxAgeSeconds(),
    logRequests: process.env.BENCH_LOG_REQUESTS ?? 'true',
  },
  data: { trackedKeywords: trackedCount, daysOfHistory: days },
  rows,
  aims,
  rateLimit,
  webhooks,
  toolList,
  exports: exportsBench,
  parquetWriters,
};
await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nReport: ${path.relative(process.cwd(), reportPath)}`);
process.exit(rows.some((row) => row.unexpected > 0) || (webhooks?.errors ?? 0) > 0 ? 1 : 0);
