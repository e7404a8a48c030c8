// A transaction that waits for an account's row lock: behind a burst of that account's writes (across processes, on
// a loaded database) it waits longer than Prisma's default of 5 s for a whole transaction, and must then finish, not
// fail (a fresh clone's e2e run: 2 of 20 concurrent keyword additions on one account answered 500).
import { describe, expect, it } from 'vitest';
import { makeAccount } from '../../../test/factories';
import { lockAccountPlan, withAccountLock } from './row-locks';
import { db } from './index';

describe('a transaction waiting for an account’s row lock', () => {
  it('finishes once the lock is released, even after more than 5 s', async () => {
    const { accountId } = await makeAccount('pro');
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = withAccountLock(accountId, async () => {
      locked();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
    });
    await holding;
    const waiter = db.$transaction(async (tx) => (await lockAccountPlan(tx, accountId))?.plan);
    await holder;
    await expect(waiter).resolves.toBe('pro');
  }, 60_000);
});
