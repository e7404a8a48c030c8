import { db, poolStatistics } from './index';
import { migrationNames } from './migrate';

let expected: Promise<string[]> | undefined;

export async function databaseHealth(): Promise<{
  status: 'ok' | 'unavailable';
  database: string;
  pendingMigrations?: string[];
}> {
  try {
    expected ??= migrationNames();
    const rows = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    const applied = new Set(rows.map((row) => row.migration_name));
    const pending = (await expected).filter((name) => !applied.has(name));
    return pending.length
      ? { status: 'unavailable', database: 'migrations pending', pendingMigrations: pending }
      : { status: 'ok', database: 'ok' };
  } catch {
    // Reachable but never migrated (no _prisma_migrations table), or not reachable at all.
    const reachable = await db.$queryRaw`SELECT 1`.then(
      () => true,
      () => false,
    );
    return { status: 'unavailable', database: reachable ? 'migrations pending' : 'unreachable' };
  }
}

interface Readiness {
  status: 'ready' | 'not ready';
  /** ok, migrations pending or unreachable, as for liveness. */
  database: string;
  pendingMigrations?: string[];
  /** saturated: every connection of this process's pool is taken and queries wait for one. */
  pool:
    | { status: 'ok' | 'saturated'; size: number; open: number; idle: number; waiting: number }
    | { status: 'ok'; size: null };
  /** The job queue's tables (pg-boss, schema pgboss): reachable once a launcher or worker has created them. */
  jobQueue: 'ok' | 'unreachable';
}

/** Readiness: liveness's database and migrations, the pool's capacity, and the job queue. */
export async function readiness(): Promise<Readiness> {
  const [health, jobQueue] = await Promise.all([
    databaseHealth(),
    db.$queryRaw`SELECT version FROM pgboss.version`.then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    ),
  ]);
  const pool = poolStatistics();
  const poolCheck: Readiness['pool'] = pool
    ? {
        status: pool.waiting > 0 && pool.total >= pool.size ? 'saturated' : 'ok',
        size: pool.size,
        open: pool.total,
        idle: pool.idle,
        waiting: pool.waiting,
      }
    : { status: 'ok', size: null };
  const ready = health.status === 'ok' && poolCheck.status === 'ok' && jobQueue === 'ok';
  return {
    status: ready ? 'ready' : 'not ready',
    database: health.database,
    ...(health.pendingMigrations && { pendingMigrations: health.pendingMigrations }),
    pool: poolCheck,
    jobQueue,
  };
}
