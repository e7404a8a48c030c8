// Monthly credits (SPEC "Limits", CONTRACT "Credits"). A charge is one SQL statement: a conditional upsert of the
// period's usage that never passes the plan's limit, and, in the same statement, the ledger row. Concurrent
// requests and several app processes sharing the database therefore never charge more than the allowance, and
// the ledger always sums to `used`. The period is the calendar month (UTC) of the request, so the allowance
// resets by itself: a new month is a new row.
import { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { addDays, isoDay } from '@/server/domain/dates';
import { recordEvents } from '@/server/services/events/events';

export interface Period {
  start: Date;
  /** Start of the next period: when the allowance resets. */
  end: Date;
}

export function periodOf(now: Date): Period {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

export interface Charge {
  accountId: string;
  keyId: string | null;
  userId: string | null;
  /** "GET /apps/{id}/keywords" */
  endpoint: string;
  cost: number;
  requestId: string;
  /** null: unlimited. */
  limit: number | null;
  now: Date;
}

/** Percentages of the allowance at which `usage.threshold_reached` is recorded. */
export const USAGE_THRESHOLDS = [80, 100] as const;

/** Charges `cost` credits if they fit in what remains. Returns the period's usage after the charge, or null. */
export async function chargeCredits(charge: Charge): Promise<number | null> {
  const period = periodOf(charge.now);
  const limit = charge.limit === null ? null : charge.limit;
  const rows = await db.$queryRaw<{ used: number }[]>`
    WITH charged AS (
      INSERT INTO credit_usage AS usage (account_id, period_start, used)
      SELECT ${charge.accountId}::uuid, ${period.start}::date, ${charge.cost}::int
      WHERE ${limit}::int IS NULL OR ${charge.cost}::int <= ${limit}::int
      ON CONFLICT (account_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used
        WHERE ${limit}::int IS NULL OR usage.used + EXCLUDED.used <= ${limit}::int
      RETURNING used
    ), ledger AS (
      INSERT INTO credit_ledger (account_id, period_start, key_id, user_id, endpoint, cost, request_id, created_at)
      SELECT ${charge.accountId}::uuid, ${period.start}::date, ${charge.keyId}::uuid, ${charge.userId}::uuid, ${charge.endpoint},
             ${charge.cost}::int, ${charge.requestId}::uuid, ${charge.now}
      FROM charged
    )
    SELECT used FROM charged`;
  const used = rows[0]?.used ?? null;
  if (used !== null && limit !== null) await recordThresholds(charge, used, limit);
  return used;
}

/** Gives back a charge whose call then failed (a write is charged before it runs). */
export async function refundCharge(accountId: string, requestId: string): Promise<void> {
  await db.$executeRaw`
    WITH removed AS (
      DELETE FROM credit_ledger WHERE account_id = ${accountId}::uuid AND request_id = ${requestId}::uuid RETURNING period_start, cost
    )
    UPDATE credit_usage SET used = credit_usage.used - removed.cost
    FROM removed WHERE credit_usage.account_id = ${accountId}::uuid AND credit_usage.period_start = removed.period_start`;
}

/** Exactly one charge crosses each threshold, since charges are serialised on the usage row. */
async function recordThresholds(charge: Charge, used: number, limit: number): Promise<void> {
  const crossed = USAGE_THRESHOLDS.filter((percent) => {
    const mark = Math.ceil((limit * percent) / 100);
    return used - charge.cost < mark && used >= mark;
  });
  if (!crossed.length) return;
  const period = periodOf(charge.now);
  await recordEvents(
    crossed.map((percent) => ({
      accountId: charge.accountId,
      type: 'usage.threshold_reached' as const,
      occurredAt: charge.now,
      data: { percent, used, limit, periodStart: period.start.toISOString(), resetsAt: period.end.toISOString() },
    })),
  );
}

export async function creditsUsed(accountId: string, now: Date): Promise<number> {
  const usage = await db.creditUsage.findUnique({ where: { accountId_periodStart: { accountId, periodStart: periodOf(now).start } }, select: { used: true } });
  return usage?.used ?? 0;
}

/** GET /usage: the period, the allowance, and where the credits went (by endpoint, by key, by day). */
export async function usageReport(accountId: string, limit: number | null, now: Date) {
  const period = periodOf(now);
  const inPeriod = Prisma.sql`account_id = ${accountId}::uuid AND period_start = ${period.start}::date`;
  const [used, byEndpoint, byKey, byDay] = await Promise.all([
    creditsUsed(accountId, now),
    db.$queryRaw<{ endpoint: string; calls: bigint; credits: bigint }[]>`
      SELECT endpoint, count(*) AS calls, sum(cost) AS credits FROM credit_ledger WHERE ${inPeriod}
      GROUP BY endpoint ORDER BY sum(cost) DESC, endpoint`,
    db.$queryRaw<{ key_id: string | null; name: string | null; display_prefix: string | null; last_four: string | null; calls: bigint; credits: bigint }[]>`
      SELECT l.key_id::text AS key_id, k.name, k.display_prefix, k.last_four, count(*) AS calls, sum(l.cost) AS credits
      FROM credit_ledger l LEFT JOIN api_keys k ON k.id = l.key_id
      WHERE l.account_id = ${accountId}::uuid AND l.period_start = ${period.start}::date
      GROUP BY l.key_id, k.name, k.display_prefix, k.last_four ORDER BY sum(l.cost) DESC, k.name NULLS LAST`,
    db.$queryRaw<{ day: Date; calls: bigint; credits: bigint }[]>`
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS calls, sum(cost) AS credits
      FROM credit_ledger WHERE ${inPeriod} GROUP BY 1`,
  ]);
  const perDay = new Map(byDay.map((row) => [isoDay(row.day), row]));
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const daily: { date: string; calls: number; credits: number }[] = [];
  for (let day = period.start; day <= today; day = addDays(day, 1)) {
    const row = perDay.get(isoDay(day));
    daily.push({ date: isoDay(day), calls: Number(row?.calls ?? 0), credits: Number(row?.credits ?? 0) });
  }
  return {
    periodStart: period.start,
    periodEnd: period.end,
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    byEndpoint: byEndpoint.map((row) => ({ endpoint: row.endpoint, calls: Number(row.calls), credits: Number(row.credits) })),
    byKey: byKey.map((row) => ({
      keyId: row.key_id,
      name: row.key_id ? (row.name ?? 'deleted key') : 'Dashboard session',
      key: row.display_prefix ? `${row.display_prefix}…${row.last_four}` : null,
      calls: Number(row.calls),
      credits: Number(row.credits),
    })),
    daily,
  };
}
