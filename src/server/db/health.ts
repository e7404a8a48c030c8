import { db } from './index';
import { migrationNames } from './migrate';

let expected: Promise<string[]> | undefined;

export async function databaseHealth(): Promise<{ status: 'ok' | 'unavailable'; database: string; pendingMigrations?: string[] }> {
  try {
    expected ??= migrationNames();
    const rows = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    const applied = new Set(rows.map((row) => row.migration_name));
    const pending = (await expected).filter((name) => !applied.has(name));
    return pending.length ? { status: 'unavailable', database: 'migrations pending', pendingMigrations: pending } : { status: 'ok', database: 'ok' };
  } catch {
    // Reachable but never migrated (no _prisma_migrations table), or not reachable at all.
    const reachable = await db.$queryRaw`SELECT 1`.then(() => true, () => false);
    return { status: 'unavailable', database: reachable ? 'migrations pending' : 'unreachable' };
  }
}
