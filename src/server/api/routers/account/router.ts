import { dashboardProcedure, publicProcedure, router } from '@/server/api/trpc';
import { createAccount, createAccountInput, getAccountSummary } from '@/server/services/accounts/accounts';

const signUpInput = createAccountInput.pick({ email: true, password: true, userName: true });

export const accountRouter = router({
  /** New accounts start on the Free tier. */
  signUp: publicProcedure.input(signUpInput).mutation(async ({ input }) => {
    const { accountId } = await createAccount({ ...input, plan: 'free' });
    return { accountId };
  }),

  get: dashboardProcedure.query(async ({ ctx }) => {
    const account = await getAccountSummary(ctx.actor.accountId);
    return { ...account, createdAt: account.createdAt.toISOString() };
  }),
});
