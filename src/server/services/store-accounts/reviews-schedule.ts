// The connected store accounts' reviews are read every day (./owned-reviews.ts): Google Play gives a week's, so a day
// is never missed while the background work runs. One process at a time across those sharing the database, each
// account in turn; one account's failure does not hold the others back.
import type PgBoss from 'pg-boss';
import { db } from '@/server/db';
import { logError } from '@/server/core/log';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { collectOwnedReviews } from './owned-reviews';

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
        const accounts = await db.storeAccount.findMany({ distinct: ['accountId'], select: { accountId: true } });
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
