// Monthly credits (SPEC "Limits", CONTRACT "Credits"). A charge is one SQL statement: a conditional upsert of the
// period's usage that never passes the plan's limit, and, in the same statement, the ledger row. Concurrent
// requests and several app processes sharing the database therefore never charge more than the allowance, and
// the ledger always sums to `used`. The period is the calendar month (UTC) of the request, so the allowance
// resets by itself: a new month is a new row.
import { db, hotQuery } from '@/server/db';
import { addDays, isoDay, startOfUtcDay } from '@/server/domain/dates';
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
  // $1 account, $2 period start, $3 cost, $4 limit (null: unlimited), $5 key, $6 user, $7 endpoint, $8 request, $9 time,
  // $10 day, $11 subject.
  const rows = await hotQuery<{ used: number }>(
    `WITH charged AS (
       INSERT INTO credit_usage AS usage (account_id, period_start, used)
       SELECT $1::uuid, $2::date, $3::int
       WHERE $4::int IS NULL OR $3::int <= $4::int
       ON CONFLICT (account_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used
         WHERE $4::int IS NULL OR usage.used + EXCLUDED.used <= $4::int
       RETURNING used
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, period_start, key_id, user_id, endpoint, cost, request_id, created_at)
       SELECT $1::uuid, $2::date, $5::uuid, $6::uuid, $7, $3::int, $8::uuid, $9::timestamptz FROM charged
     ), rollup AS (
       INSERT INTO credit_usage_daily AS daily (account_id, period_start, day, endpoint, subject, calls, credits)
       SELECT $1::uuid, $2::date, $10::date, $7, $11, 1, $3::int FROM charged
       ON CONFLICT (account_id, day, endpoint, subject) DO UPDATE SET calls = daily.calls + 1, credits = daily.credits + EXCLUDED.credits
     )
     SELECT used FROM charged`,
    [charge.accountId, period.start, charge.cost, limit, charge.keyId, charge.userId, charge.endpoint, charge.requestId, charge.now, startOfUtcDay(charge.now), subjectOf(charge)],
  );
  const used = rows[0]?.used ?? null;
  if (used !== null && limit !== null) await recordThresholds(charge, used, limit);
  return used;
}

/** The caller a charge is attributed to in the rollup: the key, or the signed-in user of a session token. */
function subjectOf(charge: Pick<Charge, 'keyId' | 'userId'>): string {
  return charge.keyId ?? `user:${charge.userId ?? 'unknown'}`;
}

/** Gives back a charge whose call then failed (a write is charged before it runs): usage, ledger and rollup. */
export async function refundCharge(accountId: string, requestId: string): Promise<void> {
  await db.$executeRaw`
    WITH removed AS (
      DELETE FROM credit_ledger WHERE account_id = ${accountId}::uuid AND request_id = ${requestId}::uuid
      RETURNING period_start, cost, endpoint, COALESCE(key_id::text, 'user:' || COALESCE(user_id::text, 'unknown')) AS subject,
                (created_at AT TIME ZONE 'UTC')::date AS day
    ), usage AS (
      UPDATE credit_usage SET used = credit_usage.used - removed.cost
      FROM removed WHERE credit_usage.account_id = ${accountId}::uuid AND credit_usage.period_start = removed.period_start
    )
    UPDATE credit_usage_daily SET calls = credit_usage_daily.calls - 1, credits = credit_usage_daily.credits - removed.cost
    FROM removed
    WHERE credit_usage_daily.account_id = ${accountId}::uuid AND credit_usage_daily.day = removed.day
      AND credit_usage_daily.endpoint = removed.endpoint AND credit_usage_daily.subject = removed.subject`;
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

/** GET /usage: the period, the allowance, and where the credits went (by endpoint, by key, by day), from the rollup. */
export async function usageReport(accountId: string, limit: number | null, now: Date) {
  const period = periodOf(now);
  const [used, rows] = await Promise.all([
    creditsUsed(accountId, now),
    db.$queryRaw<{ day: Date; endpoint: string; subject: string; calls: number; credits: number; name: string | null; display_prefix: string | null; last_four: string | null }[]>`
      SELECT d.day, d.endpoint, d.subject, d.calls, d.credits, k.name, k.display_prefix, k.last_four
      FROM credit_usage_daily d
      -- CASE fixes the evaluation order: a session subject ("user:…") is never cast to uuid.
      LEFT JOIN api_keys k ON k.id = CASE WHEN d.subject LIKE 'user:%' THEN NULL ELSE d.subject::uuid END
      WHERE d.account_id = ${accountId}::uuid AND d.period_start = ${period.start}::date AND d.calls > 0`,
  ]);
  const byEndpoint = new Map<string, { endpoint: string; calls: number; credits: number }>();
  const byKey = new Map<string, { keyId: string | null; name: string; key: string | null; calls: number; credits: number }>();
  const byDay = new Map<string, { calls: number; credits: number }>();
  for (const row of rows) {
    const endpoint = byEndpoint.get(row.endpoint) ?? { endpoint: row.endpoint, calls: 0, credits: 0 };
    endpoint.calls += row.calls;
    endpoint.credits += row.credits;
    byEndpoint.set(row.endpoint, endpoint);
    const session = row.subject.startsWith('user:');
    const key = byKey.get(row.subject) ?? {
      keyId: session ? null : row.subject,
      name: session ? 'Dashboard session' : (row.name ?? 'deleted key'),
      key: row.display_prefix ? `${row.display_prefix}…${row.last_four}` : null,
      calls: 0,
      credits: 0,
    };
    key.calls += row.calls;
    key.credits += row.credits;
    byKey.set(row.subject, key);
    const day = byDay.get(isoDay(row.day)) ?? { calls: 0, credits: 0 };
    day.calls += row.calls;
    day.credits += row.credits;
    byDay.set(isoDay(row.day), day);
  }
  const byCredits = <T extends { credits: number }>(a: T, b: T, tie: (a: T, b: T) => number) => b.credits - a.credits || tie(a, b);
  const today = startOfUtcDay(now);
  const daily: { date: string; calls: number; credits: number }[] = [];
  for (let day = period.start; day <= today; day = addDays(day, 1)) daily.push({ date: isoDay(day), ...(byDay.get(isoDay(day)) ?? { calls: 0, credits: 0 }) });
  return {
    periodStart: period.start,
    periodEnd: period.end,
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    byEndpoint: [...byEndpoint.values()].sort((a, b) => byCredits(a, b, (x, y) => x.endpoint.localeCompare(y.endpoint))),
    byKey: [...byKey.values()].sort((a, b) => byCredits(a, b, (x, y) => x.name.localeCompare(y.name))),
    daily,
  };
}
