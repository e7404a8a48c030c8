import { dashboardProcedure, publicProcedure, router } from '@/server/api/trpc';
import { createAccount, createAccountInput, getAccountSummary } from '@/server/services/accounts/accounts';
import { countSignUp } from '@/server/services/accounts/sign-up-limit';

const signUpInput = createAccountInput.pick({ email: true, password: true, userName: true });

export const accountRouter = router({
  /** New accounts start on the Free tier. At most SIGN_UPS_PER_ADDRESS an hour from one client address. */
  signUp: publicProcedure.input(signUpInput).mutation(async ({ ctx, input }) => {
    await countSignUp(ctx.clientIp);
    const { accountId } = await createAccount({ ...input, plan: 'free' });
    return { accountId };
  }),

  get: dashboardProcedure.query(async ({ ctx }) => {
    const account = await getAccountSummary(ctx.actor.accountId);
    return { ...account, createdAt: account.createdAt.toISOString() };
  }),
});
