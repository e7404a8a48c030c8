// A deployment as docs/deploy.md describes it, on this machine: Debian's PostgreSQL server as a cluster of its own on
// a free port (optionally behind Debian's PgBouncer in transaction mode, optionally with Debian's Redis for the
// request rates), two web processes (`npm start` with SCHEDULER=false) and one `npm run worker`, all on one
// DATABASE_URL. The e2e/external specs run against it, and break it on purpose: the database killed and started again,
// the worker killed and replaced, Redis stopped and resumed.
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/server/db/embedded';
import type { Target } from '../helpers';

export type Pooler = 'none' | 'pgbouncer';

export interface DeploymentOptions {
  pooler: Pooler;
  /** Redis for the request rates' counts (REDIS_URL), as several hosts may use; else they are in PostgreSQL. */
  redis: boolean;
}

export interface Deployment extends Target {
  /** The two web processes' origins (the first one is `origin`). */
  web: [string, string];
  /** The database directly (never through the pooler): for the tests' own checks. */
  directUrl: string;
  /** Whether the request rates count in Redis. */
  redis: boolean;
  /** Everything the processes printed, for a failure's report. */
  output(): string;
  /** PostgreSQL SIGKILLed (a crash): every connection to it is gone at once. */
  killDatabase(): Promise<void>;
  /** PostgreSQL started again on its port and data, as a process manager would. */
  startDatabase(): Promise<void>;
  /** The worker SIGKILLed, whatever it was doing. */
  killWorker(): Promise<void>;
  /** A new worker process, as a process manager would start. */
  startWorker(): void;
  /** Redis stopped (SIGSTOP: it holds its connections and answers nothing), or resumed (SIGCONT). */
  pauseRedis(): void;
  resumeRedis(): void;
  stop(): Promise<void>;
}

const USER = 'aso';
const DATABASE = 'aso';

/** Debian's PostgreSQL binaries, the newest installed major version (scripts/ensure-packages.mjs installs 15). */
function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    throw new Error('Debian’s PostgreSQL server is not installed: run `apt-get install postgresql`');
  return path.join(root, versions[0]!, 'bin');
}

/**
 * PostgreSQL and PgBouncer refuse to run as root: as root, they run as Debian's `postgres` user (setpriv execs the
 * program itself, so the child is the server and gets the signals sent to it).
 */
function asDatabaseUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

function giveToDatabaseUser(directory: string): void {
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', directory]);
}

async function waitForDatabase(url: string, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new Error(`no database at ${url.replace(/:[^:@]*@/, ':…@')}\n${output()}`);
}

async function waitForHealth(origin: string, processes: ChildProcess[], output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 480; attempt++) {
    if (processes.some((child) => child.exitCode !== null))
      throw new Error(`a process of the deployment exited\n${output()}`);
    if (
      await fetch(`${origin}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${origin} never became healthy\n${output()}`);
}

export async function startDeployment({ pooler, redis }: DeploymentOptions): Promise<Deployment> {
  const directory = mkdtempSync(path.join(tmpdir(), `aso-e2e-${pooler}-`));
  const password = randomBytes(18).toString('base64url');
  /** Stopped in this order: the app's processes (they finish their requests and jobs), the pooler, PostgreSQL. */
  const stages: { app: ChildProcess[]; pooler: ChildProcess[]; database: ChildProcess[]; redis: ChildProcess[] } = {
    app: [],
    pooler: [],
    database: [],
    redis: [],
  };
  const stopped = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const killed = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (stopped(child)) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  let log = '';
  const output = () => log.slice(-20_000);
  const start = (
    stage: keyof typeof stages,
    name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv = process.env,
  ) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const record = (chunk: Buffer) => (log += chunk.toString().replace(/^/gm, `[${name}] `));
    child.stdout!.on('data', record);
    child.stderr!.on('data', record);
    stages[stage].push(child);
    return child;
  };
  const stopOne = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (stopped(child)) return resolve();
      const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', () => {
        clearTimeout(deadline);
        resolve();
      });
      child.kill(signal);
    });
  const stop = async () => {
    await Promise.all(stages.app.map((child) => stopOne(child, 'SIGTERM')));
    await Promise.all(stages.pooler.map((child) => stopOne(child, 'SIGTERM')));
    // SIGINT: PostgreSQL's fast shutdown.
    await Promise.all(stages.database.map((child) => stopOne(child, 'SIGINT')));
    await Promise.all(stages.redis.map((child) => (child.kill('SIGCONT'), stopOne(child, 'SIGTERM'))));
    rmSync(directory, { recursive: true, force: true });
  };

  try {
    // The cluster: password authentication over TCP (SCRAM, PostgreSQL's default), its socket in its own directory.
    const cluster = path.join(directory, 'cluster');
    const passwordFile = path.join(directory, 'password');
    writeFileSync(passwordFile, password);
    giveToDatabaseUser(directory);
    const binaries = postgresBinaries();
    execFileSync(
      ...asDatabaseUser(path.join(binaries, 'initdb'), [
        '-D',
        cluster,
        '-U',
        USER,
        `--pwfile=${passwordFile}`,
        '--auth-host=scram-sha-256',
        '--auth-local=trust',
        '-E',
        'UTF8',
        '--no-sync',
      ]),
      { stdio: 'pipe' },
    );
    const databasePort = await freePort();
    const postgres = () =>
      start(
        'database',
        'postgres',
        ...asDatabaseUser(path.join(binaries, 'postgres'), [
          '-D',
          cluster,
          '-p',
          String(databasePort),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${directory}`,
          '-c',
          'max_connections=200',
        ]),
      );
    postgres();
    const urlOf = (port: number, database: string) => `postgresql://${USER}:${password}@127.0.0.1:${port}/${database}`;
    const directUrl = urlOf(databasePort, DATABASE);
    await waitForDatabase(urlOf(databasePort, 'postgres'), output);
    const admin = new pg.Client({ connectionString: urlOf(databasePort, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();

    let databaseUrl = directUrl;
    const poolerSettings: Record<string, string> = {};
    if (pooler === 'pgbouncer') {
      // docs/deploy.md, "Behind a connection pooler": the settings the app needs from PgBouncer, and none other.
      const poolerPort = await freePort();
      writeFileSync(path.join(directory, 'userlist.txt'), `"${USER}" "${password}"\n`);
      writeFileSync(
        path.join(directory, 'pgbouncer.ini'),
        [
          '[databases]',
          `${DATABASE} = host=127.0.0.1 port=${databasePort} dbname=${DATABASE}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${poolerPort}`,
          `unix_socket_dir = ${directory}`,
          'auth_type = scram-sha-256',
          `auth_file = ${path.join(directory, 'userlist.txt')}`,
          'pool_mode = transaction',
          'max_client_conn = 1000',
          'default_pool_size = 40',
          // A query waiting for a server connection (PostgreSQL down) fails after 5 s, as the app's own pool does, not 120.
          'query_wait_timeout = 5',
          // A line per connection and disconnection filled the last 20,000 characters a failure attaches
          // (`output()`), and pushed out the app's and the worker's own lines, which say what went wrong.
          'log_connections = 0',
          'log_disconnections = 0',
          '',
        ].join('\n'),
      );
      giveToDatabaseUser(directory);
      start('pooler', 'pgbouncer', ...asDatabaseUser('/usr/sbin/pgbouncer', [path.join(directory, 'pgbouncer.ini')]));
      databaseUrl = urlOf(poolerPort, DATABASE);
      poolerSettings.DATABASE_POOL_MODE = 'transaction';
      await waitForDatabase(databaseUrl, output);
    }

    const secret = randomBytes(32).toString('base64url');
    const dataKey = randomBytes(32).toString('base64url');
    const ports = [await freePort(), await freePort()];
    const web: [string, string] = [`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`];
    const settings: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ...poolerSettings,
      NEXTAUTH_SECRET: secret,
      DATA_ENCRYPTION_KEY: dataKey,
      DATA_DIR: path.join(directory, 'data'),
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true',
      // An export a killed worker held is taken again by the next one after 12 s rather than a minute.
      EXPORT_CLAIM_SECONDS: '12',
    };
    delete settings.EMBEDDED_PG_PORT;
    delete settings.REDIS_URL;
    if (redis) {
      const redisPort = await freePort();
      start('redis', 'redis', 'redis-server', [
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ]);
      settings.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
    }
    // Started together: the two launchers apply the migrations at once, under the migrations' lock.
    web.forEach((origin, index) =>
      start('app', `web${index + 1}`, process.execPath, ['dist/start.mjs'], {
        ...settings,
        PORT: String(ports[index]),
        NEXTAUTH_URL: origin,
        SCHEDULER: 'false',
      }),
    );
    let workers = 0;
    const startWorker = () => void start('app', `worker${++workers}`, process.execPath, ['dist/worker.mjs'], settings);
    startWorker();
    await Promise.all(web.map((origin) => waitForHealth(origin, stages.app, output)));
    const adminEnvironment = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: settings.DATA_DIR,
      DATA_ENCRYPTION_KEY: dataKey,
      EMBEDDED_PG_PORT: undefined,
      ...poolerSettings,
    };
    const live = (children: ChildProcess[]) => children.filter((child) => !stopped(child));
    return {
      origin: web[0],
      web,
      directUrl,
      redis,
      adminEnvironment,
      output,
      // The postmaster and its backends at once, as a crash of the host takes them (the postmaster alone would leave
      // its backends serving the connections they hold).
      killDatabase: async () => {
        for (const postmaster of live(stages.database)) spawnSync('pkill', ['-KILL', '-P', String(postmaster.pid)]);
        await Promise.all(live(stages.database).map(killed));
      },
      startDatabase: async () => {
        postgres();
        await waitForDatabase(urlOf(databasePort, 'postgres'), output);
      },
      killWorker: () =>
        Promise.all(
          live(stages.app)
            .filter((child) => child.spawnargs.includes('dist/worker.mjs'))
            .map(killed),
        ).then(() => {}),
      startWorker,
      pauseRedis: () => stages.redis.forEach((child) => child.kill('SIGSTOP')),
      resumeRedis: () => stages.redis.forEach((child) => child.kill('SIGCONT')),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
