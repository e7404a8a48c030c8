// The statements of the export worker, which several processes run at once: each takes an export no other process
// holds (FOR UPDATE SKIP LOCKED), marking it claimed in the same statement.
import { db } from './index';

/**
 * Takes the oldest export to run: a queued one, or a running one whose claim is older than `staleBefore` (its worker
 * died: it runs again from its first file), of one account only if given. Its claim and attempt are set in the same
 * statement.
 */
export async function claimNextExport(
  staleBefore: Date,
  accountId: string | null = null,
): Promise<{ id: string; attempts: number } | null> {
  const [row] = await db.$queryRaw<{ id: string; attempts: number }[]>`
    UPDATE exports SET state = 'running', claimed_at = now(), attempts = attempts + 1,
      started_at = COALESCE(started_at, now())
    WHERE id = (
      SELECT id FROM exports
      WHERE (state = 'queued' OR (state = 'running' AND claimed_at < ${staleBefore}))
        AND (${accountId}::uuid IS NULL OR account_id = ${accountId}::uuid)
      ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text, attempts`;
  return row ?? null;
}
