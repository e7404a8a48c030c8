// The statements of the webhook fan-out and queue that several processes run at once: each takes rows no other
// process holds (FOR UPDATE SKIP LOCKED).
import type { Prisma } from '@/generated/prisma/client';
import { db } from './index';

/** Locks and returns up to `limit` domain events not yet dispatched, oldest first, within the transaction `tx`. */
export function lockUndispatchedEvents(tx: Prisma.TransactionClient, limit: number) {
  return tx.$queryRaw<{ id: string; account_id: string; type: string; data: unknown; occurred_at: Date }[]>`
    SELECT id::text, account_id::text, type, data, occurred_at FROM domain_events
    WHERE dispatched_at IS NULL ORDER BY occurred_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

/** Takes up to 100 deliveries asked for from the dashboard (test events, redeliveries), oldest request first: each once. */
export function takeRequestedDeliveries() {
  return db.$queryRaw<{ id: string; attempts: number }[]>`
    UPDATE webhook_deliveries SET requested_at = NULL
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE requested_at IS NOT NULL ORDER BY requested_at LIMIT 100 FOR UPDATE SKIP LOCKED)
    RETURNING id::text, attempts`;
}
