// The statement of the background work that reads a store account's reviews as soon as it is connected: several
// processes run it at once, and each takes requests no other process holds (FOR UPDATE SKIP LOCKED).
import { db } from './index';

/**
 * Takes up to `limit` store accounts whose reviews were asked to be read (of one account only, if given), clearing the
 * request: their accounts.
 */
export function claimRequestedReviewReads(limit: number, accountId: string | null = null) {
  return db.$queryRaw<{ account_id: string }[]>`
    UPDATE store_accounts SET reviews_requested_at = NULL
    WHERE id IN (
      SELECT id FROM store_accounts
      WHERE reviews_requested_at IS NOT NULL AND (${accountId}::uuid IS NULL OR account_id = ${accountId}::uuid)
      ORDER BY reviews_requested_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING account_id::text`;
}
