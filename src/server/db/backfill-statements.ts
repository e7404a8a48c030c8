// The statements of the background backfill's queue (app_backfills): one claim at a time per worker, across processes.
import { hotQuery } from './index';

/**
 * Claims the next backfill nobody runs (or whose worker stopped answering for `leaseSeconds`), counting the attempt.
 * Rows other workers are claiming are skipped, not waited for. The next is a live app's before a test sandbox's (its
 * sample data is generated, a customer's new app waits for its history), and among those each account's in turn: an
 * account's k-th unfinished backfill goes after every other account's (k-1)-th, so that one account adding many apps
 * delays another's first by one backfill, not by all of its own. Oldest first within the same turn.
 *
 * The app's row is locked with the backfill's, and an app another transaction holds is skipped too: the claim's update
 * moves the app's data version (a trigger), so it takes the app's row after the backfill's, the other way round from
 * every other writer (an app being removed holds its row and then deletes its backfill).
 */
export async function claimNextBackfill(
  now: Date,
  leaseSeconds: number,
): Promise<{ appId: string; attempts: number; daysTotal: number } | undefined> {
  const [row] = await hotQuery<{ appId: string; attempts: number; daysTotal: number }>(
    `UPDATE app_backfills SET claimed_at = $1, attempts = attempts + 1
     WHERE app_id = (
       SELECT backfill.app_id
       FROM app_backfills backfill
       JOIN tracked_apps owner ON owner.id = backfill.app_id
       JOIN (
         SELECT queued.app_id, account.live_account_id IS NOT NULL AS sandbox,
                row_number() OVER (PARTITION BY app.account_id ORDER BY queued.created_at, queued.app_id) AS turn
         FROM app_backfills queued
         JOIN tracked_apps app ON app.id = queued.app_id
         JOIN accounts account ON account.id = app.account_id
         WHERE queued.finished_at IS NULL
       ) ranked ON ranked.app_id = backfill.app_id
       WHERE backfill.finished_at IS NULL AND (backfill.claimed_at IS NULL OR backfill.claimed_at < $1::timestamptz - make_interval(secs => $2))
       ORDER BY ranked.sandbox, ranked.turn, backfill.created_at, backfill.app_id
       LIMIT 1 FOR NO KEY UPDATE OF owner SKIP LOCKED FOR UPDATE OF backfill SKIP LOCKED
     )
     RETURNING app_id::text AS "appId", attempts, days_total AS "daysTotal"`,
    [now, leaseSeconds],
  );
  return row;
}
