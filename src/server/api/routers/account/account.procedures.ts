// The procedures about the account: sign-up, and the dashboard layout's summary.
import { dashboardProcedure, publicProcedure } from '@/server/api/trpc';
import { createAccount, getAccountSummary, onboardingOf } from '@/server/services/accounts/accounts';
import { countSignUp } from '@/server/services/accounts/sign-up-limit';
import { signUpInput } from './account.schema';

/** New accounts start on the configured trial, or on Free when trials are off. At most SIGN_UPS_PER_ADDRESS an hour from one client address. */
export const signUpProcedure = publicProcedure.input(signUpInput).mutation(async ({ ctx, input }) => {
  await countSignUp(ctx.clientIp);
  const { accountId } = await createAccount({ ...input, plan: 'free' }, { withTrial: true, now: ctx.now });
  return { accountId };
});

export const getAccountProcedure = dashboardProcedure.query(async ({ ctx }) => {
  const account = await getAccountSummary(ctx.actor.accountId);
  return { ...account, trial: account.trial && { ...account.trial, endsAt: account.trial.endsAt.toISOString() }, createdAt: account.createdAt.toISOString() };
});

/** The home page's checklist: add an app, create a key, make a first call. */
export const getOnboardingProcedure = dashboardProcedure.query(({ ctx }) => onboardingOf(ctx.actor.accountId));
