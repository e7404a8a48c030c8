// Every change of an account's tier goes through here: the account row, a line of its plan history (plan_changes)
// and a `plan.changed` event, in the caller's transaction, so that none is written without the others.
import type { Prisma } from '@/generated/prisma/client';
import type { PlanTier } from '@/generated/prisma/enums';
import { lockAccountPlan } from '@/server/db/row-locks';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { accountTier } from './plans';

export type PlanChangeReason = 'trial_started' | 'trial_ended' | 'stripe' | 'operator';

export interface PlanChange {
  accountId: string;
  from: PlanTier | null;
  to: PlanTier;
  reason: PlanChangeReason;
  stripeEventId?: string | null;
  now: Date;
}

/** The history line and the event of a change already applied to the account's row. */
export async function recordPlanChange(tx: Prisma.TransactionClient, change: PlanChange): Promise<void> {
  await tx.planChange.create({
    data: {
      accountId: change.accountId,
      fromPlan: change.from,
      toPlan: change.to,
      reason: change.reason,
      stripeEventId: change.stripeEventId ?? null,
      changedAt: change.now,
    },
  });
  // A new account has no webhook endpoint to tell, and a tier set to itself is no change.
  if (change.from === null || change.from === change.to) return;
  await recordSecurityEvent(
    {
      accountId: change.accountId,
      kind: 'plan.changed',
      target: { type: 'account', id: change.accountId, label: 'the account' },
      before: { plan: change.from },
      after: { plan: change.to, reason: change.reason },
      occurredAt: change.now,
    },
    tx,
  );
  await recordEvents(
    [
      {
        accountId: change.accountId,
        type: 'plan.changed',
        occurredAt: change.now,
        data: {
          from: change.from && accountTier(change.from),
          to: accountTier(change.to),
          reason: change.reason,
          changedAt: change.now.toISOString(),
        },
      },
    ],
    tx,
  );
}

/**
 * Sets the account's tier (its trial, if any, ends: the tier is now chosen, not tried) and records the change.
 * Returns the tier before.
 */
export async function changePlan(
  tx: Prisma.TransactionClient,
  change: Omit<PlanChange, 'from'> & {
    billing?: { stripeCustomerId?: string; stripeSubscriptionId?: string | null; subscriptionStatus?: string | null };
  },
): Promise<PlanTier> {
  const before = await lockAccountPlan(tx, change.accountId);
  if (!before) throw new Error(`account ${change.accountId} does not exist`);
  // A trial that has ended is Free, whatever its row says until the job that ends trials has run.
  const from = before.trialEndsAt && before.trialEndsAt <= change.now ? 'free' : before.plan;
  await tx.account.update({
    where: { id: change.accountId },
    data: { plan: change.to, trialEndsAt: null, trialCredits: null, ...change.billing },
  });
  if (from !== change.to || before.trialEndsAt) await recordPlanChange(tx, { ...change, from });
  return from;
}
