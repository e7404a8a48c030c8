// The statement that ends trials, in the transaction of their history rows and events
// (src/server/services/accounts/trials.ts).
import type { Prisma } from '@/generated/prisma/client';

export interface EndedTrial {
  accountId: string;
  /** The tier tried. */
  fromPlan: string;
}

/**
 * Moves every account whose trial ended by `now` to Free and clears the trial. Rows another transaction holds are
 * skipped (the next run takes them), so that two processes never end one trial twice. The lock is the one the update
 * takes anyway (src/server/db/row-locks.ts says why not FOR UPDATE).
 */
export function endTrialsDue(tx: Prisma.TransactionClient, now: Date): Promise<EndedTrial[]> {
  return tx.$queryRaw<EndedTrial[]>`
    WITH due AS (
      SELECT id, plan FROM accounts WHERE trial_ends_at <= ${now} ORDER BY trial_ends_at LIMIT 500 FOR NO KEY UPDATE SKIP LOCKED
    )
    UPDATE accounts a SET plan = 'free', trial_ends_at = NULL, trial_credits = NULL
    FROM due WHERE a.id = due.id
    RETURNING a.id::text AS "accountId", due.plan::text AS "fromPlan"`;
}
