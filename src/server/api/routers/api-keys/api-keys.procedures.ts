// Settings → API access. Dashboard only: an API key can never manage keys.
import { dashboardProcedure } from '@/server/api/trpc';
import { z } from 'zod';
import {
  createApiKey,
  createApiKeyInput,
  keyExpiryPolicy,
  listApiKeys,
  restrictApiKey,
  restrictApiKeyInput,
  revokeApiKey,
  rollApiKey,
  rollApiKeyInput,
  setKeyExpiryPolicy,
} from '@/server/services/api-keys/api-keys';
import { keyUsage, keyUsageInput, listKeyCalls, listKeyCallsInput } from '@/server/services/api-keys/key-calls';
import { revokeApiKeyInput, toApiKeyOutput } from './api-keys.schema';

export const listApiKeysProcedure = dashboardProcedure.query(async ({ ctx }) => (await listApiKeys(ctx.actor.accountId, ctx.now)).map(toApiKeyOutput));

export const createApiKeyProcedure = dashboardProcedure.input(createApiKeyInput).mutation(async ({ ctx, input }) => {
  const { key, secret } = await createApiKey({ accountId: ctx.actor.accountId, userId: ctx.userId }, input, ctx.now);
  return { key: toApiKeyOutput(key), secret };
});

export const revokeApiKeyProcedure = dashboardProcedure
  .input(revokeApiKeyInput)
  .mutation(async ({ ctx, input }) => toApiKeyOutput(await revokeApiKey(ctx.actor.accountId, input.keyId, ctx.now)));

export const rollApiKeyProcedure = dashboardProcedure.input(rollApiKeyInput).mutation(async ({ ctx, input }) => {
  const { key, secret, previous } = await rollApiKey(ctx.actor.accountId, input, ctx.now);
  return { key: toApiKeyOutput(key), secret, previous: toApiKeyOutput(previous) };
});

export const restrictApiKeyProcedure = dashboardProcedure
  .input(restrictApiKeyInput)
  .mutation(async ({ ctx, input }) => toApiKeyOutput((await restrictApiKey(ctx.actor.accountId, input, ctx.now)).key));

export const keyExpiryPolicyProcedure = dashboardProcedure.query(({ ctx }) => keyExpiryPolicy(ctx.actor.accountId));

export const setKeyExpiryPolicyProcedure = dashboardProcedure
  .input(z.object({ requireKeyExpiry: z.boolean() }))
  .mutation(({ ctx, input }) => setKeyExpiryPolicy(ctx.actor.accountId, input.requireKeyExpiry));

/** A key's calls and credits per day (the last 30 days unless a range is given). */
export const keyUsageProcedure = dashboardProcedure.input(keyUsageInput).query(({ ctx, input }) => keyUsage(ctx.actor.accountId, input, ctx.now));

/** A page of a key's request log: its last calls, failures included. */
export const keyCallsProcedure = dashboardProcedure.input(listKeyCallsInput).query(({ ctx, input }) => listKeyCalls(ctx.actor.accountId, input));
