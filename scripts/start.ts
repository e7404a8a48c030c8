// `npm start` (production build) and `npm run dev`: prepares the database, then runs the app's server
// (src/server/main.ts) and prints where to sign in. Configuration: src/server/core/config.ts, README "Configuration".
import { spawn } from 'node:child_process';
import { config, exportToEnvironment } from '../src/server/core/config';
import { demoPassword, ensureAuthSecret, prepareDatabase, settleDataProvider } from '../src/server/runtime/prepare';
import { DEMO_EMAIL, generateDemoPassword, seedDemoData } from '../src/server/services/seed/demo';
import { disconnectDb } from '../src/server/db';
import { dataProvider } from '../src/server/services/ingest/providers';
import { refreshAllApps } from '../src/server/services/ingest/refresh';
import { startBackgroundWork } from '../src/server/runtime/background';
import { serverArgs } from '../src/server/runtime/server-process';
import { keepDatabaseThroughSignals } from '../src/server/db/embedded';
import { announced } from '../src/server/runtime/progress';

const dev = process.argv.includes('--dev');
const port = config().PORT;
const log = (line: string) => console.error(`[start] ${line}`);

// Fail fast on a misconfigured provider, before any database work.
settleDataProvider();
log(`data provider: ${dataProvider().name}`);
const usesEmbeddedDatabase = !config().DATABASE_URL;
/** How the launcher stops: at once until the app's server runs, then gracefully (shutdown, below). */
let stopLauncher = (code: number): void => process.exit(code);
// An embedded cluster that cannot be started again: exit non-zero, for a process manager to restart everything.
const database = await announced(log, 'preparing the database', () =>
  prepareDatabase(log, {
    onGiveUp: (error) => {
      log(`${error.message}: stopping`);
      stopLauncher(1);
    },
  }),
);
await ensureAuthSecret();
const shouldSeed = config().SEED_DEMO ?? usesEmbeddedDatabase;
let password: string | undefined;
if (shouldSeed) {
  const demo = await demoPassword(generateDemoPassword);
  password = demo;
  await announced(log, 'loading the demo accounts', () => seedDemoData({ password: demo }));
}
// With the demo provider, data is current before the first request: a new app's history is backfilled, an existing
// one caught up. The live stores are not asked here, in a burst before the server starts: the schedule's catch-up
// hands every app to its store's queue (src/server/services/ingest/scheduler.ts), and the data served meanwhile is
// the last observed, with its age.
if (dataProvider().hasHistory) {
  const refreshed = await announced(log, 'bringing the data up to date', () => refreshAllApps());
  log(
    `data refreshed for ${refreshed.summaries.length} apps${refreshed.failures.length ? `; ${refreshed.failures.length} could not be refreshed now and keep their data (see the log)` : ''}`,
  );
}
// The refresh schedule and webhook deliveries run here, in the launcher, never on a request's path.
const background = config().SCHEDULER ? await startBackgroundWork(database.url, log) : null;

const origin = config().NEXTAUTH_URL ?? `http://localhost:${port}`;
// The app's server inherits this environment, with the database, the secret and the origin settled here.
exportToEnvironment({ NEXTAUTH_URL: origin, PORT: String(port) });
// An IPC channel, so that the app's server stops when the launcher dies without stopping it (src/server/main.ts).
const next = spawn(process.execPath, serverArgs(dev ? 'dev' : 'start', port), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

/** How long Next.js may take to finish the requests in flight before it is killed. */
const DRAIN_DEADLINE_MS = 30_000;
const nextExited = new Promise<void>((resolve) => {
  if (next.exitCode !== null) resolve();
  else next.once('exit', () => resolve());
});

// Graceful shutdown (SIGTERM, SIGINT): Next.js stops accepting connections and finishes the requests in flight
// while the background work finishes its jobs in progress; only then does the database go.
keepDatabaseThroughSignals();
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  if (next.exitCode === null) {
    log('stopping: finishing the requests and jobs in progress');
    next.kill('SIGTERM');
  }
  const deadline = setTimeout(() => next.kill('SIGKILL'), DRAIN_DEADLINE_MS);
  await Promise.all([nextExited, background?.stop()]);
  clearTimeout(deadline);
  await disconnectDb();
  await database.stop().catch(() => {});
  process.exit(code);
}
stopLauncher = (code) => void shutdown(code);
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
next.on('exit', (code) => {
  if (!stopping) void shutdown(code ?? 1);
});

// Announce once the app answers its health check.
const healthy = await announced(log, "starting the app's server", async () => {
  for (let attempt = 0; attempt < 600 && !stopping; attempt++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
});
if (healthy) {
  const lines = [`App ready at ${origin}`];
  if (password) lines.push(`Demo sign-in: ${DEMO_EMAIL} / ${password}`);
  console.log(['', ...lines.map((line) => `  ${line}`), ''].join('\n'));
}
