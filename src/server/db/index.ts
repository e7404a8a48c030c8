// The database: one pg pool per process, shared by the Prisma client (through the pg driver adapter) and by the
// statements on every API request's path (credential lookup, app lookup, credit charge), which run on the pool
// directly (hotQuery): Prisma's per-query overhead is worth paying everywhere but there (docs/benchmarks.md).
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '@/generated/prisma/client';
import { logErrorThrottled } from '@/server/core/log';
import { isConflict } from './errors';
import { config } from '@/server/core/config';

interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
}

/**
 * A connection that runs every statement unnamed, whoever names it (hotQuery, the rate limiter's library): behind a
 * pooler in transaction mode, consecutive statements may reach different server connections, and one prepared by
 * name on one of them does not exist on the next (PgBouncer before 1.21). An unnamed statement is parsed and run in
 * one round trip, on whichever connection the pooler picks.
 */
class ConnectionWithoutNamedStatements extends pg.Client {
  constructor(settings?: pg.ClientConfig) {
    super(settings);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((statement: unknown, ...rest: unknown[]) =>
      query(withoutName(statement), ...rest)) as pg.Client['query'];
  }
}

function withoutName(statement: unknown): unknown {
  if (typeof statement !== 'object' || statement === null || !('name' in statement) || 'submit' in statement)
    return statement;
  const { name: _name, ...unnamed } = statement;
  return unnamed;
}

/** The longest a request waits for a connection before it fails with 503 (docs/api-decisions.md, "Database outage"). */
const CONNECTION_WAIT_MS = 5_000;
/**
 * The longest an interactive transaction may run, its waits for row locks included (Prisma's default: 5 s). One that
 * takes an account's row lock queues behind that account's other writes, and a burst of them over several processes
 * on a loaded database outlasts 5 s; expired, it would fail a valid request. The bound still ends a hung transaction.
 */
const TRANSACTION_TIMEOUT_MS = 30_000;

function createPool(max: number, options: { keepIdle?: boolean } = {}): pg.Pool {
  const { DATABASE_URL: connectionString, DATABASE_POOL_MODE } = config();
  if (!connectionString) {
    throw new Error('DATABASE_URL is not set: start the app with `npm start` (embedded PostgreSQL) or set it');
  }
  const pool = new pg.Pool({
    connectionString,
    max,
    // A request waits at most this long for a connection (a database that does not answer), then fails with 503.
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // 0: idle connections are never closed by the pool.
    ...(options.keepIdle && { idleTimeoutMillis: 0 }),
    ...(DATABASE_POOL_MODE === 'transaction' ? { Client: ConnectionWithoutNamedStatements } : {}),
  });
  // An idle connection that the database drops (a restart, an administrator) is an event, not a crash: the pool
  // discards it and opens a new one when next needed.
  pool.on('error', (error) =>
    logErrorThrottled('database connection lost', 5_000, 'database connection lost (idle)', error),
  );
  return pool;
}

function connect(): Database {
  const pool = createPool(config().DATABASE_POOL_SIZE);
  // An interactive transaction waits for a connection as long as a statement does (the pool's 5 s), not Prisma's 2 s.
  const transactionOptions = { maxWait: CONNECTION_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS };
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions }) };
}

/** One per process: the app's server and the pages load this module once (src/server/index.ts says how). */
let current: Database | undefined;

function database(): Database {
  current ??= connect();
  return current;
}

/** The pool's connections (for the metrics): null before the first use of the database. */
export function poolStatistics(): { size: number; total: number; idle: number; waiting: number } | null {
  if (!current) return null;
  const { pool } = current;
  return { size: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** Created on first use, so that importing this module (at build time, in the CLI) needs no database. */
export function getDb(): PrismaClient {
  return database().prisma;
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get: (_target, property) => {
    const client = getDb();
    const value = Reflect.get(client, property);
    return typeof value === 'function' ? value.bind(client) : value;
  },
});

const statementNames = new Map<string, string>();

/**
 * A parameterised statement on the shared pool, for the hot path only. It runs as a named prepared statement,
 * so each connection parses and plans it once rather than on every request (unnamed behind a transaction pooler).
 */
export async function hotQuery<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
  let name = statementNames.get(text);
  if (!name) {
    name = `hot_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return (await database().pool.query<Row>({ name, text, values })).rows;
}

/**
 * Runs `work` again (up to 3 times, after a short random pause) when PostgreSQL aborted it to break a deadlock or a
 * serialization conflict: transient by nature, never the caller's fault (e.g. deleting a webhook endpoint while its
 * deliveries are being recorded, which cascades through the same rows in another order).
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * Two connections of their own for the shared rate limits' store: a limit's count must not wait behind the requests it
 * limits (a busy pool would make the limiter give up on the store, and count per process, when it matters most).
 */
let limiterPool: pg.Pool | undefined;

export function getLimiterPool(): pg.Pool {
  // Kept open while idle: a lease that first had to connect (and authenticate, through a pooler) would wait longer than
  // the limiter waits for its store, and the process would count alone for a while.
  limiterPool ??= createPool(2, { keepIdle: true });
  return limiterPool;
}

export async function disconnectDb(): Promise<void> {
  const closing = current;
  current = undefined;
  const closingLimiter = limiterPool;
  limiterPool = undefined;
  await closingLimiter?.end().catch(() => {});
  await closing?.prisma.$disconnect();
  await closing?.pool.end().catch(() => {});
}
