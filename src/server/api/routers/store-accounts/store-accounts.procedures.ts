// The procedures of store accounts (issue 67): list, connect (or replace) and remove, for a signed-in member whose
// role manages them (owner and admin), in the dashboard only: a key or an agent never holds a store's credential.
import { z } from 'zod';
import { dashboardProcedure } from '@/server/api/trpc';
import {
  connectStoreAccount,
  listStoreAccounts,
  removeStoreAccount,
} from '@/server/services/store-accounts/store-accounts';
import {
  connectStoreAccountInput,
  removeStoreAccountInput,
  storeAccountOutput,
  toStoreAccountOutput,
} from './store-accounts.schema';

const MANAGE = { permission: 'store-accounts.manage' } as const;

export const listStoreAccountsProcedure = dashboardProcedure
  .meta(MANAGE)
  .output(z.array(storeAccountOutput))
  .query(async ({ ctx }) => (await listStoreAccounts(ctx.actor.accountId)).map(toStoreAccountOutput));

export const connectStoreAccountProcedure = dashboardProcedure
  .meta(MANAGE)
  .input(connectStoreAccountInput)
  .output(storeAccountOutput)
  .mutation(async ({ ctx, input }) => toStoreAccountOutput(await connectStoreAccount(ctx.actor, input, ctx.now)));

export const removeStoreAccountProcedure = dashboardProcedure
  .meta(MANAGE)
  .input(removeStoreAccountInput)
  .output(z.object({ removed: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await removeStoreAccount(ctx.actor, input.store);
    return { removed: true as const };
  });
