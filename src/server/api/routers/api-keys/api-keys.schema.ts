// Settings → API access, on the dashboard and under /keys on the public API: the shapes of a key as answered.
import { z } from 'zod';
import type { ApiKeyView } from '@/server/services/api-keys/api-keys';
import { API_KEY_SCOPES, ROLL_GRACE_PERIODS, type RollGracePeriod } from '@/server/services/api-keys/api-keys';

export const keyIdInput = z.strictObject({ keyId: z.uuid('Must be a UUID.').meta({ description: 'The key’s id (`id` in its answers).', example: '6f1d2c3b-8a4e-4d5f-9b7c-1e2d3c4b5a69' }) });
export const revokeApiKeyInput = keyIdInput;

export const keyRestrictionsOutput = z.object({
  appIds: z.array(z.uuid()).nullable().describe('The apps the key reaches; null: every app of the account, those added later included.'),
  allowedCidrs: z.array(z.string()).describe('The client addresses (IPv4 and IPv6 CIDR ranges) the key may call from; empty: any.'),
  monthlyBudget: z.int().nullable().describe('Credits the key may spend a month; null: only the account’s allowance bounds it.'),
});

export const apiKeyOutput = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  displayPrefix: z.string().describe('`svc_live_` and the first 4 characters of the secret, as the dashboard shows the key.'),
  lastFour: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  rolledAt: z.iso.datetime().nullable().describe('Set on a key that was rolled: its successor is another key; this one works until `expiresAt`.'),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
  restrictions: keyRestrictionsOutput,
  spentThisMonth: z.int().describe('Credits spent this month against the key’s budget (0 for a key without one).'),
});
export type ApiKeyOutput = z.infer<typeof apiKeyOutput>;

export const apiKeyWithSecretOutput = z.object({
  key: apiKeyOutput,
  secret: z.string().describe('The key itself: shown in this answer only, never again (only its SHA-256 digest is stored).'),
});

export const rolledApiKeyOutput = apiKeyWithSecretOutput.extend({
  previous: apiKeyOutput.describe('The key that was rolled: it works until its `expiresAt`, the end of the grace period.'),
});

export const gracePeriodInput = z
  .enum(Object.keys(ROLL_GRACE_PERIODS) as [RollGracePeriod, ...RollGracePeriod[]])
  .describe('How long the old secret keeps working: `now` (at once), `1h`, `24h` or `7d`.');

/** Dates as ISO strings: the dashboard client receives JSON without a transformer. */
export function toApiKeyOutput(key: ApiKeyView): ApiKeyOutput {
  return {
    ...key,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    rolledAt: key.rolledAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
