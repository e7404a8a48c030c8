// Row locks held until a transaction ends: the account's, for the caps that must hold under concurrent creations and
// for a change of tier; a tracked app's, for what changes it. The database's triggers lock an app's row before its
// account's (a refresh, a backfill's progress, a removal), so every lock here is taken in that order too: an app's
// first, then its account's. Taken the other way round, two transactions can deadlock.
//
// The account's lock is FOR NO KEY UPDATE, the lock an UPDATE of the row takes: it excludes the other holders of the
// account's lock, as the caps need, but not the foreign-key checks of rows written for the account (FOR KEY SHARE).
// FOR UPDATE excluded those too: a charge, holding the account's usage row, waited for it to write its ledger row,
// and a holder that then asked for the usage row (a key's first budget seeds its spending) deadlocked with it.
import type { Prisma } from '@/generated/prisma/client';
import type { PlanTier } from '@/generated/prisma/enums';
import { db } from './index';

/**
 * Runs `work` in a transaction that holds the account's row lock: a count of the account's rows read in it stays
 * true until it commits, so a cap (active keys, webhook endpoints) holds under concurrent creations.
 */
export function withAccountLock<T>(accountId: string, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
    return work(tx);
  });
}

/**
 * The account's tier and trial, its row locked until the transaction ends: a change of tier reads what it replaces, and a
 * cap (tracked apps, keywords) counted under it holds against concurrent additions.
 */
export async function lockAccountPlan(
  tx: Prisma.TransactionClient,
  accountId: string,
): Promise<{ plan: PlanTier; trialEndsAt: Date | null; trialCredits: number | null } | undefined> {
  const [row] = await tx.$queryRaw<{ plan: PlanTier; trialEndsAt: Date | null; trialCredits: number | null }[]>`
    SELECT plan::text AS plan, trial_ends_at AS "trialEndsAt", trial_credits AS "trialCredits" FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
  return row;
}

/**
 * Locks a tracked app's row until the transaction ends; before the account's, if both are needed (see above). False
 * if the app is gone: removed meanwhile (a removal under way is waited for), so that nothing is written for it.
 *
 * FOR NO KEY UPDATE, as for the account and for the same reason: it is the lock the triggers' update of the app's row
 * takes after each write of its data, whose foreign-key checks hold FOR KEY SHARE until then. FOR UPDATE waited for
 * every such writer in the middle of a statement; with it, a stress run of additions, refreshes and removals of one
 * app deadlocked (docs/testing.md), and it did not once this lock, refreshes taking it first, removals taking
 * FOR UPDATE at once and the backfill claim skipping a held app were in.
 */
export async function lockTrackedApp(tx: Prisma.TransactionClient, appId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM tracked_apps WHERE id = ${appId}::uuid FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/**
 * Locks a store app's row (FOR NO KEY UPDATE: the apps and competitors that name it are not held back) for a writer that
 * rebuilds a chain of its facts from what is stored (its listings): two such writers of one store app write one after
 * the other. The triggers that move its version take the same lock, one statement at a time.
 */
export async function lockStoreApp(tx: Prisma.TransactionClient, storeAppId: number): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM store_apps WHERE id = ${storeAppId} FOR NO KEY UPDATE`;
}

/**
 * Locks a tracked app's row to delete it (FOR UPDATE, which its deletion takes: taken at once rather than after the
 * app's lock, so that the deletion does not wait for writers of the app while holding a lock they need). False if the
 * app is gone. Writers of the app queued behind one another can still deadlock with it: run its transaction with
 * retryOnConflict.
 */
export async function lockTrackedAppToRemove(tx: Prisma.TransactionClient, appId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM tracked_apps WHERE id = ${appId}::uuid FOR UPDATE`;
  return rows.length > 0;
}

/**
 * Locks every tracked app's row of the account to delete them (FOR UPDATE, see lockTrackedAppToRemove), in one order
 * (by id), before the account's; their ids. An app added before the account's lock is taken is not among them.
 */
export async function lockAccountApps(tx: Prisma.TransactionClient, accountId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id::text FROM tracked_apps WHERE account_id = ${accountId}::uuid ORDER BY id FOR UPDATE`;
  return rows.map((row) => row.id);
}

/**
 * Runs `work` while no other process runs work under the same name (a transaction-scoped advisory lock). `timeout`
 * bounds the wait for the lock and the work together (Prisma's interactive transaction, 5 s by default).
 */
export function withNamedLock<T>(
  name: string,
  work: () => Promise<T>,
  { timeout }: { timeout?: number } = {},
): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${name}))`;
      return work();
    },
    timeout === undefined ? undefined : { timeout, maxWait: timeout },
  );
}
