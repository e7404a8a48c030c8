// The procedures about the account: sign-up, and the dashboard layout's summary.
import { dashboardProcedure, publicProcedure } from '@/server/api/trpc';
import { createAccount, getAccountSummary, onboardingOf } from '@/server/services/accounts/accounts';
import { resetSandbox } from '@/server/services/accounts/sandboxes';
import { countSignUp } from '@/server/services/accounts/sign-up-limit';
import { signUpInput } from './account.schema';

/** New accounts start on the configured trial, or on Free when trials are off. At most SIGN_UPS_PER_ADDRESS an hour from one client address. */
export const signUpProcedure = publicProcedure
  .meta({ permission: 'account.read' })
  .input(signUpInput)
  .mutation(async ({ ctx, input }) => {
    await countSignUp(ctx.clientIp);
    const { accountId } = await createAccount({ ...input, plan: 'free' }, { withTrial: true, now: ctx.now });
    return { accountId };
  });

/** The live account's summary, and whether the dashboard is in test mode (acting on its sandbox). */
export const getAccountProcedure = dashboardProcedure.meta({ permission: 'account.read' }).query(async ({ ctx }) => {
  const account = await getAccountSummary(ctx.actor.liveAccountId);
  return {
    ...account,
    trial: account.trial && { ...account.trial, endsAt: account.trial.endsAt.toISOString() },
    createdAt: account.createdAt.toISOString(),
    livemode: ctx.actor.mode === 'live',
    /** The signed-in member's role here: the pages offer only what it allows. */
    role: ctx.actor.role ?? null,
    userId: ctx.actor.userId ?? null,
  };
});

/** The home page's checklist: add an app, create a key, make a first call. */
export const getOnboardingProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .query(({ ctx }) => onboardingOf(ctx.actor.accountId));

/** "Reset test data" (Settings → API access in test mode): the sandbox back to its sample apps; its keys stay. */
export const resetTestDataProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .mutation(async ({ ctx }) => {
    const { apps } = await resetSandbox(ctx.actor.liveAccountId);
    return { apps };
  });
