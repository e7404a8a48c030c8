// A row deleted by another connection while a call uses it (the owner in another tab, a script): the deletion is under
// way (its row locked, not yet committed) when the call starts, so the call still sees the row, and it commits once
// the call waits for it, or, should the call never wait, once the call is over.
import pg from 'pg';
import { db } from '@/server/db';

/** The tables whose rows the races delete. */
type Table = 'tracked_apps' | 'webhook_endpoints';

export async function duringDeletion<T>(table: Table, id: string, call: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    const { pid } = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
    let settled = false;
    const result = call().finally(() => (settled = true));
    void result.catch(() => undefined);
    for (let tries = 0; !settled && tries < 1_200; tries++) {
      const [waiting] = await db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM pg_stat_activity WHERE ${pid}::int = ANY (pg_blocking_pids(pid))`;
      if (waiting!.count > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await other.query('COMMIT');
    return (await Promise.allSettled([result]))[0]!;
  } finally {
    await other.end();
  }
}
