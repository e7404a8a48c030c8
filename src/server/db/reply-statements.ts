// The statements of the reply sender, which several processes run at once: each takes drafts no other process holds
// (FOR UPDATE SKIP LOCKED), and marks them `sending` in the same statement, committed before the store is asked.
import type { Prisma } from '@/generated/prisma/client';
import { db } from './index';

/**
 * Takes up to `limit` drafts due to be sent: approved ones whose next attempt is due, and ones left `sending` since
 * before `staleBefore` (a process died while the store was asked). Each is marked `sending` now, its attempt counted;
 * `was` says which it was, since a stale one is settled with the store's own answer before it is sent again.
 */
export function claimDueReplies(limit: number, staleBefore: Date) {
  return db.$queryRaw<{ id: string; was: 'approved' | 'sending' }[]>`
    WITH due AS (
      SELECT id, state AS was FROM reply_drafts
      WHERE (state = 'approved' AND next_attempt_at <= now()) OR (state = 'sending' AND sending_since < ${staleBefore})
      ORDER BY next_attempt_at NULLS FIRST, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    UPDATE reply_drafts AS draft
    SET state = 'sending', sending_since = now(), attempts = draft.attempts + (due.was = 'approved')::int, updated_at = now()
    FROM due WHERE draft.id = due.id
    RETURNING draft.id::text, due.was`;
}

/** Locks a store account's review until the transaction ends: one draft of it is made at a time. */
export async function lockStoreAccountReview(tx: Prisma.TransactionClient, reviewId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT 1 FROM store_account_reviews WHERE id = ${reviewId}::uuid FOR NO KEY UPDATE`;
  return rows.length > 0;
}
