// Applies prisma/migrations at start, under a PostgreSQL advisory lock so that several app processes
// sharing one database (directly or through a pooler) apply each migration once. Records them in Prisma's own _prisma_migrations table
// (same columns, same SHA-256 checksum), so `prisma migrate deploy` and `migrate status` stay usable.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const ADVISORY_LOCK_KEY = 72_707_369; // Prisma Migrate's own lock key, so we never race it either.

const MIGRATIONS = path.join(process.cwd(), 'prisma', 'migrations');

export async function migrationNames(directory = MIGRATIONS): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await readdir(directory, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(path.join(directory, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function applyMigrations(
  databaseUrl: string,
  log: (line: string) => void = () => {},
  directory = MIGRATIONS,
): Promise<string[]> {
  const names = await migrationNames(directory);
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection lost between two statements (the server restarted) is emitted as an event, which unheard stops the
  // process: the next statement's rejection reports it instead.
  client.on('error', () => {});
  await client.connect();
  const applied: string[] = [];
  // Every step runs in a transaction holding a transaction-scoped lock: behind a pooler in transaction mode
  // (DATABASE_POOL_MODE), consecutive statements outside a transaction may reach different server connections, so a
  // session's lock could be taken on one and released on another.
  const locked = async <T>(work: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
      const result = await work();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  };
  try {
    await locked(() => client.query(CREATE_TABLE));
    for (const name of names) {
      const sql = await readFile(path.join(directory, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      // Read again under the lock: another process may have applied it meanwhile.
      const outcome = await locked(async (): Promise<'present' | 'applied' | { failed: string }> => {
        const { rows } = await client.query<{ checksum: string; finished_at: Date | null }>(
          'SELECT checksum, finished_at FROM "_prisma_migrations" WHERE migration_name = $1 AND rolled_back_at IS NULL',
          [name],
        );
        const previous = rows.find((row) => row.finished_at) ?? rows[0];
        if (previous?.finished_at) {
          if (previous.checksum !== checksum) log(`warning: migration ${name} was edited after it was applied`);
          return 'present';
        }
        if (previous)
          throw new Error(`migration ${name} failed earlier and needs manual resolution (see _prisma_migrations.logs)`);
        try {
          await client.query('SAVEPOINT migration');
          await client.query(sql);
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT migration');
          // Recorded as Prisma records a failed migration: started, never finished, with its error.
          await client.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs) VALUES ($1, $2, $3, $4)',
            [randomUUID(), checksum, name, String(error)],
          );
          return { failed: String(error) };
        }
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)',
          [randomUUID(), checksum, name],
        );
        return 'applied';
      });
      if (outcome === 'present') continue;
      if (typeof outcome === 'object') throw new Error(`migration ${name} failed: ${outcome.failed}`);
      applied.push(name);
      log(`applied migration ${name}`);
    }
  } finally {
    await client.end();
  }
  return applied;
}
