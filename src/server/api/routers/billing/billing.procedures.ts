// The procedures of Settings → Plan & billing: dashboard only (an API key never changes what the account pays).
import { dashboardProcedure } from '@/server/api/trpc';
import { pageOrigin } from '@/server/core/origin';
import { billingOverview, openCustomerPortal, startCheckout } from '@/server/services/billing/billing';
import { billingOverviewOutput, checkoutInput, redirectOutput } from './billing.schema';

export const billingOverviewProcedure = dashboardProcedure
  .meta({ permission: 'billing.manage' })
  .output(billingOverviewOutput)
  .query(async ({ ctx }) => {
    const overview = await billingOverview({ accountId: ctx.actor.liveAccountId, userId: ctx.actor.userId! }, ctx.now);
    return {
      ...overview,
      trial: overview.trial && { ...overview.trial, endsAt: overview.trial.endsAt.toISOString() },
      periodEnd: overview.periodEnd.toISOString(),
      history: overview.history.map((change) => ({ ...change, changedAt: change.changedAt.toISOString() })),
    };
  });

/** A Checkout Session for the tier (or the portal, when a subscription is live): the page sends the browser there. */
export const checkoutProcedure = dashboardProcedure
  .meta({ permission: 'billing.manage' })
  .input(checkoutInput)
  .output(redirectOutput)
  .mutation(async ({ ctx, input }) => {
    const { url } = await startCheckout(
      { accountId: ctx.actor.liveAccountId, userId: ctx.actor.userId! },
      input.tier,
      pageOrigin(),
    );
    return { url };
  });

export const portalProcedure = dashboardProcedure
  .meta({ permission: 'billing.manage' })
  .output(redirectOutput)
  .mutation(({ ctx }) => openCustomerPortal(ctx.actor.liveAccountId, pageOrigin()));
