// Group commit of charges: concurrent charges of one process share statements, and each is still decided in order
// as if it ran alone.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { seedKeySpending } from '@/server/db/credit-statements';
import { withAccountLock } from '@/server/db/row-locks';
import { backendPid, duringChange, untilBlockedBy } from '../../../../test/concurrent-change';
import { makeAccount } from '../../../../test/factories';
import { chargeCredits as charge, periodOf, type Charge } from './credits';

/** The usage after each charge, or null for a refused one. */
const chargeCredits = async (made: Charge) => {
  const outcome = await charge(made);
  return outcome.charged ? outcome.used : null;
};

const NOW = new Date('2026-05-10T08:00:00.000Z');

function chargeOf(accountId: string, cost: number, limit: number | null): Charge {
  return {
    accountId,
    keyId: null,
    userId: null,
    endpoint: 'GET /apps',
    cost,
    requestId: randomUUID(),
    limit,
    now: NOW,
  };
}

function countChargeStatements() {
  const query = pg.Pool.prototype.query;
  let statements = 0;
  vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text?.includes('charge_credits')) statements += 1;
    return (query as (...params: unknown[]) => unknown).apply(this, args);
  } as never);
  return () => statements;
}

afterEach(() => vi.restoreAllMocks());

describe('batched charges', () => {
  it('decides each charge in order, as separate statements would, while sharing statements', async () => {
    const { accountId } = await makeAccount('solo');
    await db.creditUsage.create({ data: { accountId, periodStart: periodOf(NOW).start, used: 5 } });
    const statements = countChargeStatements();
    // 5 of 10 remain. 2 passes (3 left), 8 does not fit, 2 passes (1 left), 2 does not fit, 1 passes (0 left).
    const results = await Promise.all([2, 8, 2, 2, 1].map((cost) => chargeCredits(chargeOf(accountId, cost, 10))));
    expect(results).toEqual([7, null, 9, null, 10]);
    // The first goes at once; the four others queue behind it and go together.
    expect(statements()).toBe(2);
    const ledger = await db.creditLedger.findMany({ where: { accountId }, select: { cost: true } });
    expect(ledger.map((row) => row.cost).sort()).toEqual([1, 2, 2]);
    const rollup = await db.creditUsageDaily.findMany({ where: { accountId } });
    expect(rollup).toMatchObject([{ calls: 3, credits: 5, endpoint: 'GET /apps', subject: 'user:unknown' }]);
  });

  it('keeps the accounts of one batch apart', async () => {
    const first = await makeAccount('solo');
    const second = await makeAccount('solo');
    const charges = [
      chargeOf(first.accountId, 3, 4),
      chargeOf(second.accountId, 4, 4),
      chargeOf(first.accountId, 3, 4),
      chargeOf(second.accountId, 1, null),
    ];
    expect(await Promise.all(charges.map(chargeCredits))).toEqual([3, 4, null, 5]);
  });

  it("decides a budgeted key's charges in order too, and a batch that spans two periods in each period", async () => {
    const { accountId } = await makeAccount('solo');
    const key = await db.apiKey.create({
      data: {
        accountId,
        name: 'budgeted',
        scope: 'read_only',
        secretHash: randomBytes(32),
        displayPrefix: 'svc_live_',
        lastFour: 'abcd',
        monthlyBudget: 5,
      },
    });
    const keyed = (cost: number, now = NOW): Charge => ({
      ...chargeOf(accountId, cost, 10),
      keyId: key.id,
      keyBudget: 5,
      now,
    });
    // The key's 5: 3 passes, 3 does not fit its budget (the account's 10 would take it), 2 passes; then the account's
    // limit: 4 passes (9 of 10), 2 does not fit. A charge dated in the next month starts that period's usage afresh.
    const nextMonth = new Date('2026-06-01T00:00:01.000Z');
    const charges = [
      keyed(3),
      keyed(3),
      keyed(2),
      chargeOf(accountId, 4, 10),
      chargeOf(accountId, 2, 10),
      { ...chargeOf(accountId, 7, 10), now: nextMonth },
    ];
    const outcomes = await Promise.all(charges.map(charge));
    expect(outcomes).toEqual([
      { charged: true, used: 3 },
      { charged: false, refused: 'key_budget' },
      { charged: true, used: 5 },
      { charged: true, used: 9 },
      { charged: false, refused: 'credits' },
      { charged: true, used: 7 },
    ]);
    const usage = await db.creditUsage.findMany({
      where: { accountId },
      orderBy: { periodStart: 'asc' },
      select: { used: true },
    });
    expect(usage.map((row) => row.used)).toEqual([9, 7]);
    expect((await db.keyCreditUsage.findFirstOrThrow({ where: { keyId: key.id } })).used).toBe(5);
    // Each ledger row is its own charge's: its cost, its key (or none), its request.
    const ledger = await db.creditLedger.findMany({
      where: { accountId },
      select: { cost: true, keyId: true, requestId: true },
    });
    const accepted = [charges[0]!, charges[2]!, charges[3]!, charges[5]!];
    expect(new Set(ledger.map((row) => `${row.requestId} ${row.cost} ${row.keyId}`))).toEqual(
      new Set(accepted.map((made) => `${made.requestId} ${made.cost} ${made.keyId}`)),
    );
    const rollup = await db.creditUsageDaily.findMany({
      where: { accountId },
      orderBy: [{ day: 'asc' }, { subject: 'asc' }],
      select: { subject: true, calls: true, credits: true },
    });
    expect(rollup).toEqual([
      { subject: key.id, calls: 2, credits: 5 },
      { subject: 'user:unknown', calls: 1, credits: 4 },
      { subject: 'user:unknown', calls: 1, credits: 7 },
    ]);
  });

  it('fails only the charge that cannot be written, not the others of its batch', async () => {
    const { accountId } = await makeAccount('solo');
    const results = await Promise.allSettled([
      chargeCredits(chargeOf(accountId, 1, 100)),
      chargeCredits(chargeOf(accountId, 1, 100)),
      chargeCredits(chargeOf(randomUUID(), 1, 100)), // no such account: the foreign key refuses it
      chargeCredits(chargeOf(accountId, 1, 100)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // Each charge is counted once, whatever order the retried batch applied them in (it is not the calls' order).
    expect(
      results
        .filter((result) => result.status === 'fulfilled')
        .map((result) => result.value)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect((await db.creditUsage.findFirstOrThrow({ where: { accountId } })).used).toBe(3);
  });
});

// A transaction under the account's row lock (withAccountLock: a key's change, a cap counted) that then asks for the
// account's usage row (a key's first budget seeds its spending) while a charge of the account holds that row and
// writes its ledger (whose foreign key checks the account's row): a CI run's e2e server answered such a charge 500
// with "deadlock detected".
describe('a charge beside a transaction holding the account’s row lock', () => {
  it('neither waits for the other’s lock in turn: both finish', async () => {
    const { accountId } = await makeAccount('solo');
    const key = await db.apiKey.create({
      data: {
        accountId,
        name: 'to budget',
        scope: 'read_only',
        secretHash: randomBytes(32),
        displayPrefix: 'svc_live_',
        lastFour: 'efgh',
      },
    });
    await db.creditUsage.create({ data: { accountId, periodStart: periodOf(new Date()).start, used: 5 } });
    let charged!: Promise<number | null>;
    await withAccountLock(accountId, async (tx) => {
      charged = chargeCredits({ ...chargeOf(accountId, 1, 100), now: new Date(), keyId: key.id });
      let settled = false;
      void charged.finally(() => (settled = true)).catch(() => undefined);
      // Until the charge is written, or waits for this transaction's lock (to write its ledger, before the change).
      await untilBlockedBy(await backendPid(tx), () => settled);
      await seedKeySpending(tx, key, periodOf(new Date()).start);
    });
    expect(await charged).toBe(6);
    expect((await db.creditUsage.findFirstOrThrow({ where: { accountId } })).used).toBe(6);
  }, 30_000);
});

describe('a charge PostgreSQL aborts to break a deadlock', () => {
  it('is run again, and charged once', async () => {
    const { accountId } = await makeAccount('solo');
    const key = await db.apiKey.create({
      data: {
        accountId,
        name: 'budgeted',
        scope: 'read_only',
        secretHash: randomBytes(32),
        displayPrefix: 'svc_live_',
        lastFour: 'ijkl',
        monthlyBudget: 50,
      },
    });
    const period = periodOf(NOW).start;
    await db.creditUsage.create({ data: { accountId, periodStart: period, used: 5 } });
    await db.keyCreditUsage.create({ data: { keyId: key.id, periodStart: period, used: 2 } });
    // The other transaction takes the key's spending row, then (once the charge waits for it, holding the account's
    // usage row) the usage row: a cycle. It checks for deadlocks only after a minute, so the charge's check (after
    // the default second) finds it, and PostgreSQL aborts the charge.
    const charged = await duringChange(
      [
        { text: "SET LOCAL deadlock_timeout = '60s'", values: [] },
        { text: 'SELECT 1 FROM key_credit_usage WHERE key_id = $1 FOR UPDATE', values: [key.id] },
      ],
      () => chargeCredits({ ...chargeOf(accountId, 3, 100), keyId: key.id, keyBudget: 50 }),
      (other) =>
        other.query('SELECT 1 FROM credit_usage WHERE account_id = $1 FOR UPDATE', [accountId]).then(() => undefined),
    );
    expect(charged).toEqual({ status: 'fulfilled', value: 8 });
    expect((await db.keyCreditUsage.findFirstOrThrow({ where: { keyId: key.id } })).used).toBe(5);
    expect(await db.creditLedger.count({ where: { accountId } })).toBe(1);
  }, 30_000);
});
