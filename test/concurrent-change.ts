// A change another connection makes while a call is under way (the owner in another tab, a script, a second request):
// the change is made but not yet committed when the call starts, so the call still sees the rows as they were; it
// commits once the call waits for it, or, should the call never wait, once the call is over.
import pg from 'pg';
import { db } from '@/server/db';

/** The server process of a connection: what pg_blocking_pids names. */
export async function backendPid(client: pg.Client | Pick<typeof db, '$queryRaw'>): Promise<number> {
  if (client instanceof pg.Client)
    return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const [row] = await client.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  return row!.pid;
}

/**
 * Waits (30 s at most) until some connection waits for a lock the connection `blocker` holds, or `done()`: the other
 * side of a race is then where the test wants it.
 */
export async function untilBlockedBy(blocker: number, done: () => boolean = () => false): Promise<void> {
  for (let tries = 0; !done() && tries < 1_200; tries++) {
    const [row] = await db.$queryRaw<
      { blocked: boolean }[]
    >`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE ${blocker}::int = ANY (pg_blocking_pids(pid))) AS blocked`;
    if (row!.blocked) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One statement of the other connection's change. */
interface Statement {
  text: string;
  values: unknown[];
}

/**
 * `beforeCommit`, once the call waits for the change or is over: what the other connection does next (more statements
 * of the same transaction), or a look at whether the call was over before the change was committed.
 */
export async function duringChange<T>(
  change: Statement[],
  call: () => Promise<T>,
  beforeCommit: (other: pg.Client, settled: boolean) => Promise<void> | void = () => {},
): Promise<PromiseSettledResult<T>> {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query('BEGIN');
    for (const statement of change) await other.query(statement.text, statement.values);
    let settled = false;
    const result = call().finally(() => (settled = true));
    void result.catch(() => undefined);
    await untilBlockedBy(await backendPid(other), () => settled);
    await beforeCommit(other, settled);
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
