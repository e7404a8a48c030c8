// A budget given to a key that has already spent this month starts from what its ledger says it spent; the charging
// statement then refuses what would pass it, and keeps the count of budgeted keys only.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import { chargeCredits, periodOf } from '@/server/services/metering/credits';
import { createApiKey, updateApiKey } from '@/server/services/api-keys/api-keys';

it('seeds a new budget from the month’s ledger, then refuses past it', async () => {
  const owner = await makeAccount('pro');
  const { key } = await createApiKey(owner, { name: 'budget later', scope: 'read-only' });
  const now = new Date();
  const charge = (cost: number, keyBudget: number | null) =>
    chargeCredits({
      accountId: owner.accountId,
      keyId: key.id,
      keyBudget,
      userId: null,
      endpoint: 'GET /apps',
      cost,
      requestId: randomUUID(),
      limit: 5_000,
      now,
    });
  expect(await charge(2, null)).toMatchObject({ charged: true });
  expect(await charge(1, null)).toMatchObject({ charged: true });
  // Not counted while the key has no budget.
  expect(await db.keyCreditUsage.count({ where: { keyId: key.id } })).toBe(0);

  const { key: restricted } = await updateApiKey(owner.accountId, {
    keyId: key.id,
    restrictions: { monthlyBudget: 4 },
  });
  expect(restricted.spentThisMonth).toBe(3);
  expect(await charge(2, 4)).toEqual({ charged: false, refused: 'key_budget' });
  expect(await charge(1, 4)).toMatchObject({ charged: true });
  expect(await charge(1, 4)).toEqual({ charged: false, refused: 'key_budget' });
  expect(
    (
      await db.keyCreditUsage.findUniqueOrThrow({
        where: { keyId_periodStart: { keyId: key.id, periodStart: periodOf(now).start } },
      })
    ).used,
  ).toBe(4);
  // The account was charged for the four that went through, not for the refused ones.
  expect((await db.creditUsage.findFirstOrThrow({ where: { accountId: owner.accountId } })).used).toBe(4);
});
