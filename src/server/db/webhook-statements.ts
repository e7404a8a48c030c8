// The statements of the webhook fan-out and queue that several processes run at once: each takes rows no other
// process holds (FOR UPDATE SKIP LOCKED).
import type { Prisma } from '@/generated/prisma/client';
import { db } from './index';

/** Locks and returns up to `limit` domain events not yet dispatched, oldest first, within the transaction `tx`. */
/** The events not yet dispatched, locked, each with whether its account is live (false: a test sandbox's). */
export function lockUndispatchedEvents(tx: Prisma.TransactionClient, limit: number) {
  return tx.$queryRaw<
    {
      id: string;
      account_id: string;
      type: string;
      data: unknown;
      occurred_at: Date;
      request_id: string | null;
      livemode: boolean;
    }[]
  >`
    SELECT e.id::text, e.account_id::text, e.type, e.data, e.occurred_at, e.request_id::text, a.live_account_id IS NULL AS livemode
    FROM domain_events e JOIN accounts a ON a.id = e.account_id
    WHERE e.dispatched_at IS NULL ORDER BY e.occurred_at, e.id LIMIT ${limit} FOR UPDATE OF e SKIP LOCKED`;
}

/**
 * The enabled endpoints of the accounts whose events are fanned out, each held (FOR KEY SHARE) until the transaction
 * ends: an endpoint deleted meanwhile is deleted once its deliveries are written, and takes them with it, rather than
 * failing the whole fan-out on their foreign key. An edit of the endpoint (FOR NO KEY UPDATE) does not wait.
 */
export async function lockFanOutEndpoints(
  tx: Prisma.TransactionClient,
  accountIds: string[],
): Promise<{ id: string; accountId: string; eventTypes: string[]; apiVersion: string | null }[]> {
  return tx.$queryRaw<{ id: string; accountId: string; eventTypes: string[]; apiVersion: string | null }[]>`
    SELECT id::text, account_id::text AS "accountId", event_types AS "eventTypes", api_version AS "apiVersion"
    FROM webhook_endpoints WHERE account_id = ANY (${accountIds}::uuid[]) AND enabled FOR KEY SHARE`;
}

/**
 * Holds an endpoint (FOR KEY SHARE) until the transaction ends, so that a delivery written for it in the transaction
 * cannot lose it to a deletion; false if it is gone (a deletion under way is waited for).
 */
export async function holdEndpoint(tx: Prisma.TransactionClient, endpointId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT 1 FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR KEY SHARE`;
  return rows.length > 0;
}

/** Locks an endpoint's row for a change until the transaction ends; false if it is gone (deleted meanwhile). */
export async function lockEndpoint(tx: Prisma.TransactionClient, endpointId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT 1 FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/** Takes up to 100 deliveries asked for from the dashboard (test events, redeliveries), oldest request first: each once. */
export function takeRequestedDeliveries() {
  return db.$queryRaw<{ id: string; attempts: number }[]>`
    UPDATE webhook_deliveries SET requested_at = NULL
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE requested_at IS NOT NULL ORDER BY requested_at LIMIT 100 FOR UPDATE SKIP LOCKED)
    RETURNING id::text, attempts`;
}

/** For the metrics: deliveries of the last 24 hours by status, and the lag from event to delivery over the last hour. */
export async function deliveryStatistics(): Promise<{
  byStatus: { status: string; count: number }[];
  lagSeconds: { p50: number | null; p99: number | null };
}> {
  const [byStatus, [lag]] = await Promise.all([
    db.$queryRaw<{ status: string; count: number }[]>`
      SELECT status, count(*)::int AS count FROM webhook_deliveries WHERE created_at > now() - interval '24 hours' GROUP BY status`,
    db.$queryRaw<{ p50: number | null; p99: number | null }[]>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99
      FROM (SELECT extract(epoch FROM d.completed_at - e.occurred_at)::float8 AS lag
            FROM webhook_deliveries d JOIN domain_events e ON e.id = d.event_id
            WHERE d.status = 'succeeded' AND d.completed_at > now() - interval '1 hour') AS recent`,
  ]);
  return { byStatus, lagSeconds: lag ?? { p50: null, p99: null } };
}

/** For the metrics: runs of a pg-boss queue finished in the last 24 hours, by state, with their mean and longest duration. */
export function jobRunStatistics(queues: string[]) {
  return db.$queryRaw<{ state: string; count: number; mean_seconds: number | null; max_seconds: number | null }[]>`
    SELECT state::text, count(*)::int AS count,
           avg(extract(epoch FROM completed_on - started_on))::float8 AS mean_seconds,
           max(extract(epoch FROM completed_on - started_on))::float8 AS max_seconds
    FROM (SELECT state, started_on, completed_on FROM pgboss.job WHERE name = ANY(${queues}) AND completed_on > now() - interval '24 hours'
          UNION ALL
          SELECT state, started_on, completed_on FROM pgboss.archive WHERE name = ANY(${queues}) AND completed_on > now() - interval '24 hours') AS runs
    GROUP BY state`;
}
