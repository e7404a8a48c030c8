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
