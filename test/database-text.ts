// Every row of every table of the test's database, as text: what the governance scan searches for a secret that must
// never be stored readable.
import { db } from '@/server/db';

export async function databaseAsText(): Promise<string> {
  const tables = await db.$queryRaw<
    { name: string }[]
  >`SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema IN ('public', 'pgboss')`;
  const parts = await Promise.all(
    tables.map(async ({ name }) =>
      (await db.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${name} t`))
        .map((row) => row.row)
        .join('\n'),
    ),
  );
  return parts.join('\n');
}
