// The statements about an account's tier: ending trials (src/server/services/accounts/trials.ts), and reading the tier
// under the account's row lock, for a change of tier and for the plan's caps.
import type { Prisma } from '@/generated/prisma/client';

export interface EndedTrial {
  accountId: string;
  /** The tier tried. */
  fromPlan: string;
}

/**
 * Moves every account whose trial ended by `now` to Free and clears the trial. Rows another transaction holds are
 * skipped (the next run takes them), so that two processes never end one trial twice.
 */
export function endTrialsDue(tx: Prisma.TransactionClient, now: Date): Promise<EndedTrial[]> {
  return tx.$queryRaw<EndedTrial[]>`
    WITH due AS (
      SELECT id, plan FROM accounts WHERE trial_ends_at <= ${now} ORDER BY trial_ends_at LIMIT 500 FOR UPDATE SKIP LOCKED
    )
    UPDATE accounts a SET plan = 'free', trial_ends_at = NULL, trial_credits = NULL
    FROM due WHERE a.id = due.id
    RETURNING a.id::text AS "accountId", due.plan::text AS "fromPlan"`;
}

/**
 * The account's tier and trial, its row locked until the transaction ends: a change of tier reads what it replaces, and a
 * cap (tracked apps, keywords) counted under it holds against concurrent additions.
 */
export async function lockAccountPlan(
  tx: Prisma.TransactionClient,
  accountId: string,
): Promise<{ plan: string; trialEndsAt: Date | null; trialCredits: number | null } | undefined> {
  const [row] = await tx.$queryRaw<{ plan: string; trialEndsAt: Date | null; trialCredits: number | null }[]>`
    SELECT plan::text AS plan, trial_ends_at AS "trialEndsAt", trial_credits AS "trialCredits" FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  return row;
}

/**
 * Locks a tracked app's row until the transaction ends. Taken before the account's (lockAccountPlan) by a change to
 * the app that counts against a cap: the database's triggers lock an app's row and then its account's (a refresh, a
 * backfill's progress), so taking them in the same order never deadlocks against them.
 */
export async function lockTrackedApp(tx: Prisma.TransactionClient, appId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM tracked_apps WHERE id = ${appId}::uuid FOR UPDATE`;
}
