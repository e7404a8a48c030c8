// The account's row lock, for the caps that must hold under concurrent creations.
import type { Prisma } from '@/generated/prisma/client';
import { db } from './index';

/**
 * Runs `work` in a transaction that holds the account's row lock: a count of the account's rows read in it stays
 * true until it commits, so a cap (active keys, webhook endpoints) holds under concurrent creations.
 */
export function withAccountLock<T>(accountId: string, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
    return work(tx);
  });
}
