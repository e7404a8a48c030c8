// Migrations on a database of their own: applied once when several processes start together (the lock is held by
// transactions, so that it also holds behind a pooler in transaction mode), and a failed one recorded and refused.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from './migrate';

const maintenanceUrl = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: '/postgres' }).toString();
const name = `migrate_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
const directory = mkdtempSync(path.join(tmpdir(), 'migrations-'));

async function run<T extends pg.QueryResultRow>(connection: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: connection });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

function migration(folder: string, sql: string): void {
  mkdirSync(path.join(directory, folder));
  writeFileSync(path.join(directory, folder, 'migration.sql'), sql);
}

beforeAll(async () => {
  await run(maintenanceUrl, `CREATE DATABASE ${name}`);
});

afterAll(async () => {
  await run(maintenanceUrl, `DROP DATABASE ${name} WITH (FORCE)`);
  rmSync(directory, { recursive: true, force: true });
});

describe('applyMigrations', () => {
  it('applies each migration once when four processes start together', async () => {
    migration('20260101000000_first', 'CREATE TABLE marks (id serial PRIMARY KEY, note text NOT NULL);');
    // Not idempotent: applied twice, it would leave two rows.
    migration('20260102000000_second', "INSERT INTO marks (note) VALUES ('second');");
    const results = await Promise.all(Array.from({ length: 4 }, () => applyMigrations(url, () => {}, directory)));
    expect(results.flat().sort()).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(await run(url, 'SELECT note FROM marks')).toEqual([{ note: 'second' }]);
    const recorded = await run<{ migration_name: string; applied_steps_count: number }>(
      url,
      'SELECT migration_name, applied_steps_count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    expect(recorded).toEqual([
      { migration_name: '20260101000000_first', applied_steps_count: 1 },
      { migration_name: '20260102000000_second', applied_steps_count: 1 },
    ]);
  });

  it('records a failed migration without its changes, and refuses to go on until it is resolved', async () => {
    migration('20260103000000_broken', "INSERT INTO marks (note) VALUES ('broken'); SELECT * FROM no_such_table;");
    await expect(applyMigrations(url, () => {}, directory)).rejects.toThrow(
      /migration 20260103000000_broken failed: .*no_such_table/,
    );
    expect(await run(url, "SELECT note FROM marks WHERE note = 'broken'")).toEqual([]);
    const [failed] = await run<{ finished_at: Date | null; logs: string }>(
      url,
      `SELECT finished_at, logs FROM "_prisma_migrations" WHERE migration_name = '20260103000000_broken'`,
    );
    expect(failed).toMatchObject({ finished_at: null, logs: expect.stringContaining('no_such_table') });
    await expect(applyMigrations(url, () => {}, directory)).rejects.toThrow(
      /failed earlier and needs manual resolution/,
    );
  });

  it('fails, without stopping the process, when its connection is lost (the server stopped)', async () => {
    const lost = `${name}_lost`;
    const lostDirectory = mkdtempSync(path.join(tmpdir(), 'migrations-lost-'));
    await run(maintenanceUrl, `CREATE DATABASE ${lost}`);
    try {
      mkdirSync(path.join(lostDirectory, '20260101000000_lost'));
      writeFileSync(
        path.join(lostDirectory, '20260101000000_lost', 'migration.sql'),
        'SELECT pg_terminate_backend(pg_backend_pid());',
      );
      const lostUrl = Object.assign(new URL(url), { pathname: `/${lost}` }).toString();
      await expect(applyMigrations(lostUrl, () => {}, lostDirectory)).rejects.toThrow(/terminat/);
    } finally {
      await run(maintenanceUrl, `DROP DATABASE ${lost} WITH (FORCE)`);
      rmSync(lostDirectory, { recursive: true, force: true });
    }
  });
});
