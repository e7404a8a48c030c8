// The `integration-own-database` project's files: each on a database of its own, a copy of the migrated one its
// cluster holds (test/global-setup.ts), made before the file's modules load. They run beside the other files: what
// they assert, or the jobs they run over every account, stays within their own database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

const migrated = new URL(inject('databaseUrl'));
const name = `own_${randomBytes(6).toString('hex')}`;
const maintenance = new pg.Client({
  connectionString: Object.assign(new URL(migrated), { pathname: '/postgres' }).toString(),
});
await maintenance.connect();
try {
  await maintenance.query(
    `CREATE DATABASE ${name} TEMPLATE ${pg.escapeIdentifier(decodeURIComponent(migrated.pathname.slice(1)))}`,
  );
} finally {
  await maintenance.end();
}
process.env.DATABASE_URL = Object.assign(new URL(migrated), { pathname: `/${name}` }).toString();
