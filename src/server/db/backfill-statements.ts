// The statements of the background backfill's queue (app_backfills): one claim at a time per worker, across processes.
import { hotQuery } from './index';

/**
 * Claims the oldest backfill nobody runs (or whose worker stopped answering for `leaseSeconds`), counting the attempt.
 * Rows other workers are claiming are skipped, not waited for.
 */
export async function claimNextBackfill(now: Date, leaseSeconds: number): Promise<{ appId: string; attempts: number; daysTotal: number } | undefined> {
  const [row] = await hotQuery<{ appId: string; attempts: number; daysTotal: number }>(
    `UPDATE app_backfills SET claimed_at = $1, attempts = attempts + 1
     WHERE app_id = (
       SELECT app_id FROM app_backfills
       WHERE finished_at IS NULL AND (claimed_at IS NULL OR claimed_at < $1::timestamptz - make_interval(secs => $2))
       ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     RETURNING app_id::text AS "appId", attempts, days_total AS "daysTotal"`,
    [now, leaseSeconds],
  );
  return row;
}
