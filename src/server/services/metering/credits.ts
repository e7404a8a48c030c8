// Monthly credits (SPEC "Limits", CONTRACT "Credits"). A charge is a conditional upsert of the period's usage that
// never passes the plan's limit and, in the same statement (the `charge_credits` database function), the ledger row
// and the daily rollup. Concurrent requests and several app processes sharing the database therefore never charge
// more than the allowance, and the ledger always sums to `used`. The period is the calendar month (UTC) of the request, so the allowance
// resets by itself: a new month is a new row.
import { db, retryOnConflict } from '@/server/db';
import { applyCharges, readUsageRows, refundRequestCharge } from '@/server/db/credit-statements';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { groupCommit } from '@/server/core/group-commit';
import { logError } from '@/server/core/log';
import { AppError } from '@/server/errors/app-error';
import type { KeyRestrictions } from '@/server/services/api-keys/restrictions';
import { recordEvents } from '@/server/services/events/events';

export interface Period {
  start: Date;
  /** Start of the next period: when the allowance resets. */
  end: Date;
}

/**
 * The period of the last month asked for, kept: every metered request asks for it several times (its credential's
 * usage, its charge, its headers). Shared between callers, so never mutated (frozen; its dates are not).
 */
let lastPeriod: { month: number; period: Readonly<Period> } = {
  month: Number.NaN,
  period: { start: new Date(0), end: new Date(0) },
};

export function periodOf(now: Date): Readonly<Period> {
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (lastPeriod.month !== month) {
    const period = Object.freeze({
      start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    });
    lastPeriod = { month, period };
  }
  return lastPeriod.period;
}

export interface Charge {
  accountId: string;
  keyId: string | null;
  /** The key's monthly budget; null (or absent): none. */
  keyBudget?: number | null;
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
const USAGE_THRESHOLDS = [80, 100] as const;

/** Most charges one statement carries; more wait for the next. */
const MAX_BATCH = 200;

/** A charge made (the period's usage after it), or refused by the account's allowance or the key's budget. */
export type ChargeOutcome = { charged: true; used: number } | { charged: false; refused: 'credits' | 'key_budget' };

/**
 * Charges `cost` credits if they fit in what remains of the account's allowance and of the key's monthly budget.
 *
 * Group commit (src/server/core/group-commit.ts): the charges of this process's requests that arrive while one
 * statement is on its way go together in the next (the `charge_credits` function decides each in order, exactly as
 * separate statements would). A charge whose statement fails (its account deleted meanwhile, say) fails alone.
 */
export async function chargeCredits(charge: Charge): Promise<ChargeOutcome> {
  const outcome = await chargeTogether(charge);
  if (!outcome.charged || charge.limit === null) return outcome;
  const crossed = thresholdsCrossed(charge.cost, outcome.used, charge.limit);
  // The request answers once its threshold event is recorded; the other charges of its batch do not wait for it.
  if (crossed.length) {
    await recordThresholds(charge, outcome.used, charge.limit, crossed).catch((error: unknown) =>
      logError('recording a usage threshold failed', error, { requestId: charge.requestId }),
    );
  }
  return outcome;
}

/**
 * One statement for the batch. A statement PostgreSQL aborted to break a deadlock wrote nothing (the function is
 * atomic), so it is run again rather than failing every request of the batch.
 */
async function runCharges(charges: Charge[]): Promise<ChargeOutcome[]> {
  const rows = charges.map((charge) => ({
    account_id: charge.accountId,
    period_start: isoDay(periodOf(charge.now).start),
    cost: charge.cost,
    limit: charge.limit,
    key_id: charge.keyId,
    key_budget: charge.keyBudget ?? null,
    user_id: charge.userId,
    endpoint: charge.endpoint,
    request_id: charge.requestId,
    created_at: charge.now.toISOString(),
    day: isoDay(charge.now),
    subject: subjectOf(charge),
  }));
  const outcomes = await retryOnConflict(() => applyCharges(rows));
  const results: ChargeOutcome[] = [];
  for (const row of outcomes) {
    results[row.position - 1] =
      row.used_after === null
        ? { charged: false, refused: row.refused ?? 'credits' }
        : { charged: true, used: row.used_after };
  }
  return results;
}

const chargeTogether = groupCommit(runCharges, MAX_BATCH);

/** The caller a charge is attributed to in the rollup: the key, or the signed-in user of a session token. */
function subjectOf(charge: Pick<Charge, 'keyId' | 'userId'>): string {
  return charge.keyId ?? `user:${charge.userId ?? 'unknown'}`;
}

/**
 * Gives back a charge whose call then failed (a write is charged before it runs): usage, ledger and rollup. Run again
 * if PostgreSQL aborted it to break a deadlock, as a charge is: a failed call must not stay charged.
 */
export async function refundCharge(accountId: string, requestId: string): Promise<void> {
  await retryOnConflict(() => refundRequestCharge(accountId, requestId));
}

/** Exactly one charge crosses each threshold, since charges are serialised on the usage row. */
function thresholdsCrossed(cost: number, used: number, limit: number): (typeof USAGE_THRESHOLDS)[number][] {
  return USAGE_THRESHOLDS.filter((percent) => {
    const mark = Math.ceil((limit * percent) / 100);
    return used - cost < mark && used >= mark;
  });
}

async function recordThresholds(
  charge: Charge,
  used: number,
  limit: number,
  crossed: (typeof USAGE_THRESHOLDS)[number][],
): Promise<void> {
  const period = periodOf(charge.now);
  await recordEvents(
    crossed.map((percent) => ({
      accountId: charge.accountId,
      type: 'usage.threshold_reached' as const,
      occurredAt: charge.now,
      // Named rather than read from the request's context: the event is the charge's, wherever it is recorded from.
      requestId: charge.requestId,
      data: { percent, used, limit, periodStart: period.start.toISOString(), resetsAt: period.end.toISOString() },
    })),
  );
}

/** What a key spent in the period of `now`. */
export async function keyCreditsSpent(keyId: string, now: Date): Promise<number> {
  const usage = await db.keyCreditUsage.findUnique({
    where: { keyId_periodStart: { keyId, periodStart: periodOf(now).start } },
    select: { used: true },
  });
  return usage?.used ?? 0;
}

export async function creditsUsed(accountId: string, now: Date): Promise<number> {
  const usage = await db.creditUsage.findUnique({
    where: { accountId_periodStart: { accountId, periodStart: periodOf(now).start } },
    select: { used: true },
  });
  return usage?.used ?? 0;
}

/** A key's restrictions, from its row's columns; null for a dashboard session (or a key no longer there). */
function restrictionsOfRow(row: {
  all_apps: boolean | null;
  app_ids: string[] | null;
  allowed_cidrs: string[] | null;
  monthly_budget: number | null;
}): KeyRestrictions | null {
  if (row.all_apps === null) return null;
  return {
    appIds: row.all_apps ? null : (row.app_ids ?? []),
    allowedCidrs: row.allowed_cidrs ?? [],
    monthlyBudget: row.monthly_budget,
  };
}

/**
 * Who spent: a key, a connected app (an OAuth grant, src/server/services/oauth/connected-apps.ts), or a member's
 * session tokens (the dashboard's, the API reference's, a script's), one entry per member.
 */
function spenderOf(row: {
  subject: string;
  name: string | null;
  kind: 'api_key' | 'oauth_grant' | null;
  display_prefix: string | null;
  last_four: string | null;
  member_email: string | null;
}) {
  const session = row.subject.startsWith('user:');
  const connectedApp = row.kind === 'oauth_grant';
  return {
    keyId: session ? null : row.subject,
    kind: session ? ('session' as const) : connectedApp ? ('connected_app' as const) : ('api_key' as const),
    name: session ? `Session of ${row.member_email ?? 'a deleted user'}` : (row.name ?? 'deleted key'),
    key: row.display_prefix && !connectedApp ? `${row.display_prefix}…${row.last_four}` : null,
    member: session ? { userId: row.subject.slice('user:'.length), email: row.member_email } : null,
  };
}

/** How far back the dashboard's usage ledger reaches, in days before today. */
export const USAGE_LEDGER_DAYS = 366;

/**
 * A range of days (YYYY-MM-DD, inclusive) the usage may be read for: it ends by today (`to` defaults to today) and
 * starts within USAGE_LEDGER_DAYS of it, on or before its last day.
 */
export function usageRange(now: Date, range: { from: string; to?: string }): { from: string; to: string } {
  const today = isoDay(startOfUtcDay(now));
  const { from, to = today } = range;
  const earliest = isoDay(addDays(startOfUtcDay(now), -USAGE_LEDGER_DAYS));
  if (from > to)
    throw new AppError('VALIDATION_ERROR', 'The range must start on or before its last day.', {
      errors: [{ in: 'body', pointer: '#/from', detail: 'Must be on or before `to`.' }],
    });
  if (from < earliest || to > today) {
    const pointer = from < earliest ? '#/from' : '#/to';
    throw new AppError('VALIDATION_ERROR', `The range must lie between ${earliest} and today.`, {
      errors: [{ in: 'body', pointer, detail: `Must be from ${earliest} to ${today}.` }],
    });
  }
  return { from, to };
}

/**
 * The ledger of a range of days: calls and credits per day, endpoint and key (the rows GET /usage sums for its
 * period), for the dashboard's usage chart and its CSV export. By default the current period up to today. Oldest day
 * first. A range must end by today and start within USAGE_LEDGER_DAYS of it.
 */
export async function usageLedger(accountId: string, now: Date, range: { from?: string; to?: string } = {}) {
  const { from, to } = usageRange(now, { from: range.from ?? isoDay(periodOf(now).start), to: range.to });
  const rows = await readUsageRows(accountId, from, to);
  return {
    from,
    to,
    rows: rows.map((row) => {
      const { keyId, name, key } = spenderOf(row);
      return {
        date: row.day,
        endpoint: row.endpoint,
        keyId,
        keyName: name,
        key,
        calls: row.calls,
        credits: row.credits,
      };
    }),
  };
}

/**
 * How the ledger names a call made through the MCP server: "mcp <tool>", where a REST call is "GET /apps/{id}"; so
 * GET /usage's `byEndpoint`, the dashboard's ledger and a key's request log tell the channel and the tool apart.
 */
export function mcpLedgerEndpoint(tool: string): string {
  return `mcp ${tool}`;
}

/**
 * GET /usage: the period, the allowance, and where the credits went (by endpoint, by key, by day), from the rollup.
 * `knownUsed`: the period's usage when the caller has just read it (the public API reads it with the credential).
 */
export async function usageReport(accountId: string, limit: number | null, now: Date, knownUsed?: number) {
  const period = periodOf(now);
  const [used, rows, account] = await Promise.all([
    knownUsed ?? creditsUsed(accountId, now),
    readUsageRows(accountId, isoDay(period.start), isoDay(addDays(period.end, -1))),
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { id: true, name: true } }),
  ]);
  const byEndpoint = new Map<string, { endpoint: string; calls: number; credits: number }>();
  const byKey = new Map<
    string,
    ReturnType<typeof spenderOf> & { restrictions: KeyRestrictions | null; calls: number; credits: number }
  >();
  const byDay = new Map<string, { calls: number; credits: number }>();
  for (const row of rows) {
    const endpoint = byEndpoint.get(row.endpoint) ?? { endpoint: row.endpoint, calls: 0, credits: 0 };
    endpoint.calls += row.calls;
    endpoint.credits += row.credits;
    byEndpoint.set(row.endpoint, endpoint);
    const key = byKey.get(row.subject) ?? {
      ...spenderOf(row),
      restrictions: restrictionsOfRow(row),
      calls: 0,
      credits: 0,
    };
    key.calls += row.calls;
    key.credits += row.credits;
    byKey.set(row.subject, key);
    const day = byDay.get(row.day) ?? { calls: 0, credits: 0 };
    day.calls += row.calls;
    day.credits += row.credits;
    byDay.set(row.day, day);
  }
  const byCredits = <T extends { credits: number }>(a: T, b: T, tie: (a: T, b: T) => number) =>
    b.credits - a.credits || tie(a, b);
  const today = startOfUtcDay(now);
  const daily: { date: string; calls: number; credits: number }[] = [];
  for (let day = period.start; day <= today; day = addDays(day, 1))
    daily.push({ date: isoDay(day), ...(byDay.get(isoDay(day)) ?? { calls: 0, credits: 0 }) });
  return {
    account,
    periodStart: period.start,
    periodEnd: period.end,
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    byEndpoint: [...byEndpoint.values()].sort((a, b) =>
      byCredits(a, b, (x, y) => x.endpoint.localeCompare(y.endpoint)),
    ),
    byKey: [...byKey.values()].sort((a, b) => byCredits(a, b, (x, y) => x.name.localeCompare(y.name))),
    daily,
  };
}
