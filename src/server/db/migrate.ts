// Applies prisma/migrations at start, under a PostgreSQL advisory lock so that several app processes
// sharing one database apply each migration once. Records them in Prisma's own _prisma_migrations table
// (same columns, same SHA-256 checksum), so `prisma migrate deploy` and `migrate status` stay usable.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const ADVISORY_LOCK_KEY = 72_707_369; // Prisma Migrate's own lock key, so we never race it either.

export async function migrationNames(): Promise<string[]> {
  if (!existsSync(path.join(process.cwd(), 'prisma', 'migrations'))) return [];
  const entries = await readdir(path.join(process.cwd(), 'prisma', 'migrations'), { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(path.join(process.cwd(), 'prisma', 'migrations', entry.name, 'migration.sql')))
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

export async function applyMigrations(databaseUrl: string, log: (line: string) => void = () => {}): Promise<string[]> {
  const directory = path.join(process.cwd(), 'prisma', 'migrations');
  const names = await migrationNames();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const recorded = new Map(rows.map((row) => [row.migration_name, row]));
    for (const name of names) {
      const sql = await readFile(path.join(directory, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = recorded.get(name);
      if (previous?.finished_at) {
        if (previous.checksum !== checksum) log(`warning: migration ${name} was edited after it was applied`);
        continue;
      }
      if (previous) {
        throw new Error(`migration ${name} failed earlier and needs manual resolution (see _prisma_migrations.logs)`);
      }
      const id = randomUUID();
      await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, checksum, name]);
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, String(error)]);
        throw new Error(`migration ${name} failed: ${String(error)}`);
      }
      applied.push(name);
      log(`applied migration ${name}`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return applied;
}
