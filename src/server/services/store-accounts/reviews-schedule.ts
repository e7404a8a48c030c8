// The connected store accounts' reviews are read every day (./owned-reviews.ts): Google Play gives a week's, so a day
// is never missed while the background work runs. A store account just connected is read at once (startReviewReads). One process at a time across those sharing the database, each
// account in turn; one account's failure does not hold the others back.
import type PgBoss from 'pg-boss';
import { db } from '@/server/db';
import { claimRequestedReviewReads } from '@/server/db/store-account-statements';
import { logError } from '@/server/core/log';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { collectOwnedReviews } from './owned-reviews';
import { startPollingLoop } from '@/server/core/polling-loop';

export const OWNED_REVIEWS_QUEUE = 'store-account-reviews';
export const OWNED_REVIEWS_CRON = '40 4 * * *';

export function scheduleOwnedReviews(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: OWNED_REVIEWS_QUEUE,
      cron: OWNED_REVIEWS_CRON,
      retryDelaySeconds: 600,
      failure: 'store account reviews failed',
      run: async () => {
        const accounts = await db.storeAccount.findMany({
          where: { simulated: false },
          distinct: ['accountId'],
          select: { accountId: true },
        });
        let read = 0;
        let added = 0;
        for (const { accountId } of accounts) {
          try {
            const summary = await collectOwnedReviews(accountId, new Date());
            read += summary.read;
            added += summary.added;
          } catch (error) {
            logError('an account’s store account reviews could not be read', error, { accountId });
          }
        }
        return accounts.length
          ? `store accounts: ${read} reviews read for ${accounts.length} accounts, ${added} new kept`
          : null;
      },
    },
    log,
  );
}

/**
 * Reads the reviews of store accounts just connected (`reviews_requested_at`), polled every `intervalMs` by the
 * background work: the owner sees the whole history within seconds, not at the next daily run. A request is taken by
 * one process; a read that fails is left to the daily run. `accountId`: one account's requests only (a test's, beside
 * other tests' accounts whose stores are not its).
 */
export function startReviewReads({
  intervalMs = 1000,
  accountId = null,
}: {
  intervalMs?: number;
  accountId?: string | null;
} = {}): () => Promise<void> {
  return startPollingLoop(
    async () => {
      for (const { account_id: requested } of await claimRequestedReviewReads(5, accountId)) {
        await collectOwnedReviews(requested, new Date()).catch((error: unknown) =>
          logError('a store account just connected could not be read; the daily run reads it', error, {
            accountId: requested,
          }),
        );
      }
    },
    { intervalMs, failure: 'the store accounts to read could not be taken' },
  );
}
