// A change another connection makes while a call is under way (the owner in another tab, a script, a second request):
// the change is made but not yet committed when the call starts, so the call still sees the rows as they were; it
// commits once the call waits for it, or, should the call never wait, once the call is over.
import pg from 'pg';
import { db } from '@/server/db';

/** One statement of the other connection's change. */
interface Statement {
  text: string;
  values: unknown[];
}

export async function duringChange<T>(change: Statement[], call: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query('BEGIN');
    for (const statement of change) await other.query(statement.text, statement.values);
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

/** The tables whose rows the races delete. */
type Table = 'tracked_apps' | 'webhook_endpoints';

/** `call` while another connection deletes the row (see duringChange). */
export function duringDeletion<T>(table: Table, id: string, call: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  return duringChange([{ text: `DELETE FROM ${table} WHERE id = $1`, values: [id] }], call);
}
