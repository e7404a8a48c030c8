// Settings → API access: the account's keys, for the dashboard and, under /keys, for a session token on the public
// API (a script or CI of the account's owner). Never for an API key: a leaked key must not mint keys (scope 'admin').
// The key's expiry policy, usage and request log are the dashboard's.
import { z } from 'zod';
import { dashboardProcedure, settingsProcedure } from '@/server/api/trpc';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, updateApiKey } from '@/server/services/api-keys/api-keys';
import { keyExpiryPolicy, setKeyExpiryPolicy } from '@/server/services/api-keys/key-expiry';
import { rollApiKey } from '@/server/services/api-keys/key-rolls';
import { keyUsage, listKeyCalls } from '@/server/services/api-keys/key-calls';
import {
  apiKeyOutput,
  apiKeyWithSecretOutput,
  createApiKeyInput,
  keyIdInput,
  keyUsageInput,
  listKeyCallsInput,
  restrictApiKeyInput,
  rolledApiKeyOutput,
  rollApiKeyInput,
  toApiKeyOutput,
  updateApiKeyInput,
} from './api-keys.schema';

const SETTINGS = { tags: ['API keys'], protect: true };
const ADMIN = { scope: 'admin', credits: 0, permission: 'keys.manage' } as const;

export const listApiKeysProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'GET',
      path: '/keys',
      summary: 'List API keys',
      description:
        'Every key of the account, newest first, revoked and expired ones included, with its restrictions, last use and status. Never a secret.',
    },
    ...ADMIN,
  })
  .input(z.object({}).optional())
  .output(z.array(apiKeyOutput))
  .query(async ({ ctx }) => (await listApiKeys(ctx.actor.accountId, ctx.now)).map(toApiKeyOutput));

export const createApiKeyProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/keys',
      summary: 'Create an API key',
      description:
        'A new key with a name, a scope (`read-only` or `read-write`), an optional expiry (at most 366 days ahead; required when the account’s owner says so) and optional restrictions. The secret is in this answer only. Send an `Idempotency-Key`: a retried create then answers the same key, never a second one (the stored answer is encrypted).',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
    problems: ['LIMIT_REACHED'],
  })
  .input(createApiKeyInput)
  .output(apiKeyWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { key, secret } = await createApiKey({ accountId: ctx.actor.accountId, userId: ctx.userId }, input, ctx.now);
    return { key: toApiKeyOutput(key), secret };
  });

export const getApiKeyProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'GET',
      path: '/keys/{keyId}',
      summary: 'Get an API key',
      description: 'One key of the account: another account’s key is a 404.',
    },
    ...ADMIN,
  })
  .input(keyIdInput)
  .output(apiKeyOutput)
  .query(async ({ ctx, input }) => toApiKeyOutput(await getApiKey(ctx.actor.accountId, input.keyId, ctx.now)));

export const updateApiKeyProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'PATCH',
      path: '/keys/{keyId}',
      summary: 'Rename or restrict an API key',
      description:
        'Changes the members sent: `name`, and each restriction sent (`appIds`, `allowedCidrs`, `monthlyBudget`; the others stay). Applies from the key’s next call. Only an active key changes.',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(updateApiKeyInput)
  .output(apiKeyOutput)
  .mutation(async ({ ctx, input }) => toApiKeyOutput((await updateApiKey(ctx.actor.accountId, input, ctx.now)).key));

export const rollApiKeyProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/keys/{keyId}/roll',
      summary: 'Roll an API key',
      description:
        'A new secret with the same name, scope, expiry and restrictions (a new key id); the old secret keeps working for the grace period, then is refused. The new secret is in this answer only. A key rolls once: roll its successor next time.',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(rollApiKeyInput)
  .output(rolledApiKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { key, secret, previous } = await rollApiKey(ctx.actor.accountId, input, ctx.now);
    return { key: toApiKeyOutput(key), secret, previous: toApiKeyOutput(previous) };
  });

export const revokeApiKeyProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/keys/{keyId}/revoke',
      summary: 'Revoke an API key',
      description:
        'The key is refused (401) from its next call, for good. Idempotent: revoking a revoked key answers it unchanged. The key stays listed, as revoked.',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(keyIdInput)
  .output(apiKeyOutput)
  .mutation(async ({ ctx, input }) => toApiKeyOutput(await revokeApiKey(ctx.actor.accountId, input.keyId, ctx.now)));

/** Dashboard only: the Restrict dialog (the REST surface changes restrictions with PATCH /keys/{keyId}). */
export const restrictApiKeyProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(restrictApiKeyInput)
  .mutation(async ({ ctx, input }) => toApiKeyOutput((await updateApiKey(ctx.actor.accountId, input, ctx.now)).key));

export const keyExpiryPolicyProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .query(({ ctx }) => keyExpiryPolicy(ctx.actor.accountId));

export const setKeyExpiryPolicyProcedure = dashboardProcedure
  .meta({ permission: 'account.manage' })
  .input(z.object({ requireKeyExpiry: z.boolean() }))
  .mutation(({ ctx, input }) => setKeyExpiryPolicy(ctx.actor.accountId, input.requireKeyExpiry));

/** A key's calls and credits per day (the last 30 days unless a range is given). */
export const keyUsageProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(keyUsageInput)
  .query(({ ctx, input }) => keyUsage(ctx.actor.accountId, input, ctx.now));

/** A page of a key's request log: its last calls, failures included. */
export const keyCallsProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(listKeyCallsInput)
  .query(({ ctx, input }) => listKeyCalls(ctx.actor.accountId, input));
