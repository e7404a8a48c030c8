// retryOnConflict on a real deadlock: two transactions lock two rows in opposite orders; PostgreSQL aborts one,
// which is run again and then succeeds once the other has committed.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { makeAccount } from '../../../test/factories';
import { db, retryOnConflict } from './index';

function barrier() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('retryOnConflict', () => {
  it('runs a Prisma transaction again after PostgreSQL aborted it to break a deadlock', async () => {
    const first = await makeAccount();
    const second = await makeAccount();
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    const theirsHolds = barrier();
    const oursHolds = barrier();
    let runs = 0;
    let firstError: unknown;

    // Theirs locks the first row, then, once ours waits for it (PostgreSQL says ours is blocked by theirs: a pause of
    // fixed length was too short on a slow host), the second: ours waits first, so PostgreSQL's deadlock check
    // (deadlock_timeout after the wait began) runs in ours and aborts ours.
    const theirPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const blockedByTheirs = async () =>
      (
        await db.$queryRaw<{ blocked: number }[]>`
          SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE ${theirPid}::int = ANY (pg_blocking_pids(pid))`
      )[0]!.blocked;
    const theirs = (async () => {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [first.accountId]);
      theirsHolds.open();
      await oursHolds.opened;
      await expect.poll(blockedByTheirs).toBe(1);
      await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [second.accountId]);
      await other.query('COMMIT');
    })();

    const ours = retryOnConflict(() =>
      db.$transaction(
        async (tx) => {
          runs += 1;
          try {
            await tx.$queryRaw`SELECT 1 FROM accounts WHERE id = ${second.accountId}::uuid FOR UPDATE`;
            oursHolds.open();
            await theirsHolds.opened;
            await tx.$queryRaw`SELECT 1 FROM accounts WHERE id = ${first.accountId}::uuid FOR UPDATE`;
          } catch (error) {
            firstError ??= error;
            throw error;
          }
          return 'done';
        },
        { timeout: 20_000 },
      ),
    );

    const [result] = await Promise.all([ours, theirs]);
    await other.end();
    expect(result).toBe('done');
    expect(runs).toBe(2);
    expect(
      String(
        (firstError as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }).meta
          ?.driverAdapterError?.cause?.originalCode,
      ),
    ).toBe('40P01');
  });

  it('does not retry other failures', async () => {
    let runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw Object.assign(new Error('duplicate key'), { code: '23505' });
      }),
    ).rejects.toThrow('duplicate key');
    expect(runs).toBe(1);
  });
});
