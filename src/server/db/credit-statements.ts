// The statements of the credit ledger, on the pg pool. Charges and refunds are database functions (migrations
// batched_charges, credit_rollup): a batch of charges is one statement, exact under concurrency.
import type { Prisma } from '@/generated/prisma/client';
import { hotQuery } from './index';

/** One charge as charge_credits() takes it. */
export interface ChargeRow {
  account_id: string;
  /** YYYY-MM-DD */
  period_start: string;
  cost: number;
  /** null: unlimited. */
  limit: number | null;
  key_id: string | null;
  /** The key's monthly budget; null: none. */
  key_budget: number | null;
  user_id: string | null;
  endpoint: string;
  request_id: string;
  created_at: string;
  /** YYYY-MM-DD */
  day: string;
  subject: string;
}

/**
 * Applies the charges in order; for each (by its 1-based position) the period's usage after it, or null and why it
 * was refused: the account's allowance ('credits') or the key's monthly budget ('key_budget').
 */
export function applyCharges(charges: ChargeRow[]) {
  return hotQuery<{ position: number; used_after: number | null; refused: 'credits' | 'key_budget' | null }>(
    'SELECT "position", "used_after", "refused" FROM charge_credits($1::jsonb)',
    [JSON.stringify(charges)],
  );
}

/** Gives back the charge of a request: usage, ledger and rollup. */
export async function refundRequestCharge(accountId: string, requestId: string): Promise<void> {
  await hotQuery('SELECT refund_credits($1::uuid, $2::uuid)', [accountId, requestId]);
}

/**
 * The rollup rows of an account's days from `from` to `to` (inclusive, YYYY-MM-DD), with the name and display prefix
 * of each key (an account with many keys has hundreds of rows, where Prisma's per-row cost shows).
 */
export function readUsageRows(accountId: string, from: string, to: string) {
  return hotQuery<{
    day: string;
    endpoint: string;
    subject: string;
    calls: number;
    credits: number;
    name: string | null;
    kind: 'api_key' | 'oauth_grant' | null;
    display_prefix: string | null;
    last_four: string | null;
    all_apps: boolean | null;
    app_ids: string[] | null;
    allowed_cidrs: string[] | null;
    monthly_budget: number | null;
    member_email: string | null;
  }>(
    `SELECT d.day::text AS day, d.endpoint, d.subject, d.calls, d.credits, k.name, k.kind::text AS kind, k.display_prefix, k.last_four,
            k.all_apps, k.app_ids::text[] AS app_ids, k.allowed_cidrs, k.monthly_budget, u.email AS member_email
     FROM credit_usage_daily d
     -- CASE fixes the evaluation order: a session subject ("user:…") is never cast to uuid, nor a key's to a user's.
     LEFT JOIN api_keys k ON k.id = CASE WHEN d.subject LIKE 'user:%' THEN NULL ELSE d.subject::uuid END
     LEFT JOIN users u ON u.id = CASE WHEN d.subject LIKE 'user:%' THEN substr(d.subject, 6)::uuid ELSE NULL END
     WHERE d.account_id = $1::uuid AND d.day BETWEEN $2::date AND $3::date AND d.calls > 0
     ORDER BY d.day, d.endpoint, d.subject`,
    [accountId, from, to],
  );
}

/**
 * Starts keeping a key's spending in the period (when it is given a monthly budget): what its ledger rows say. The
 * account's usage row is locked first, as a charge locks it, so no charge of the account commits meanwhile; calls
 * already under way when the budget is set are charged without it (the charging statement tracks budgeted keys only).
 */
export async function seedKeySpending(
  tx: Prisma.TransactionClient,
  key: { id: string; accountId: string },
  periodStart: Date,
): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM credit_usage WHERE account_id = ${key.accountId}::uuid AND period_start = ${periodStart}::date FOR UPDATE`;
  await tx.$executeRaw`
    INSERT INTO key_credit_usage (key_id, period_start, used)
    SELECT ${key.id}::uuid, ${periodStart}::date, COALESCE(SUM(cost), 0)::int FROM credit_ledger
    WHERE key_id = ${key.id}::uuid AND period_start = ${periodStart}::date
    ON CONFLICT (key_id, period_start) DO UPDATE SET used = EXCLUDED.used`;
}
