// Settings → API access, on the dashboard and under /keys on the public API: what a key's procedures take and answer.
import { z } from 'zod';
import { API_VERSIONS, isApiVersion } from '@/server/domain/api-versions';
import { formatAddressRange, parseAddressRange } from '@/server/core/address-ranges';
import type { ApiKeyChange, NewApiKey } from '@/server/services/api-keys/api-keys';
import type { ApiKeyView } from '@/server/services/api-keys/key-views';
import type { KeyRoll } from '@/server/services/api-keys/key-rolls';
import { API_KEY_SCOPES } from '@/server/services/api-keys/key-views';
import { ROLL_GRACE_PERIODS, type RollGracePeriod } from '@/server/services/api-keys/key-rolls';
import { KEY_CALLS_KEPT, STATUS_CLASSES } from '@/server/services/api-keys/key-calls';
import {
  MAX_KEY_APPS,
  MAX_KEY_BUDGET,
  MAX_KEY_CIDRS,
  type KeyRestrictionsChange,
} from '@/server/services/api-keys/restrictions';

export const keyIdInput = z.strictObject({
  keyId: z
    .uuid('Must be a UUID.')
    .meta({ description: 'The key’s id (`id` in its answers).', example: '6f1d2c3b-8a4e-4d5f-9b7c-1e2d3c4b5a69' }),
});

const cidr = z
  .string()
  .trim()
  .transform((entry, context) => {
    const range = parseAddressRange(entry);
    if (!range) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is neither an IP address nor a CIDR range (e.g. 203.0.113.0/24 or 2001:db8::/32).`,
      });
      return z.NEVER;
    }
    return formatAddressRange(range);
  });

/** Each member omitted keeps what the key has. */
export const keyRestrictionsInput = z.strictObject({
  appIds: z
    .array(z.uuid('An app id is a UUID.'))
    .min(1, 'Choose at least one app, or all apps (null).')
    .max(MAX_KEY_APPS, `At most ${MAX_KEY_APPS} apps.`)
    .nullable()
    .optional()
    .describe('The apps the key may reach; null: every app of the account, those added later included.'),
  allowedCidrs: z
    .array(cidr)
    .min(1, 'Give at least one address or range, or any address (null).')
    .max(MAX_KEY_CIDRS, `At most ${MAX_KEY_CIDRS} ranges.`)
    .nullable()
    .optional()
    .describe('The client addresses the key may call from, as IPv4 or IPv6 addresses and CIDR ranges; null: any.'),
  monthlyBudget: z
    .int('The budget is a whole number of credits.')
    .min(1, 'A budget is at least 1 credit; null: none.')
    .max(MAX_KEY_BUDGET, `A budget is at most ${MAX_KEY_BUDGET} credits.`)
    .nullable()
    .optional()
    .describe('Credits the key may spend a month (the account’s period); null: none beyond the account’s allowance.'),
}) satisfies z.ZodType<KeyRestrictionsChange>;

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'Give the key a name.').max(100).meta({ example: 'Reporting dashboard' }),
  scope: z.enum(API_KEY_SCOPES),
  expiresAt: z.coerce.date('Give the expiry as an ISO 8601 date or instant.').nullish(),
  /** Omitted: none (every app, any address, no budget). */
  restrictions: keyRestrictionsInput.optional(),
  apiVersion: z.enum(API_VERSIONS).optional().meta({
    description:
      'The dated API version this key’s calls are shaped by when they send no `Aso-Version`. Omitted: the account’s (pinned to the newest when its first key is created).',
  }),
}) satisfies z.ZodType<NewApiKey>;

export const updateApiKeyInput = keyIdInput.extend({
  name: createApiKeyInput.shape.name.optional(),
  /** The restrictions the input names change; the others stay as they were. */
  restrictions: keyRestrictionsInput.optional(),
}) satisfies z.ZodType<ApiKeyChange>;

/** The dashboard's Restrict dialog. */
export const restrictApiKeyInput = keyIdInput.extend({
  restrictions: keyRestrictionsInput,
}) satisfies z.ZodType<ApiKeyChange>;

const gracePeriodInput = z
  .enum(Object.keys(ROLL_GRACE_PERIODS) as [RollGracePeriod, ...RollGracePeriod[]])
  .describe('How long the old secret keeps working: `now` (at once), `1h`, `24h` or `7d`.');

export const rollApiKeyInput = keyIdInput.extend({ gracePeriod: gracePeriodInput }) satisfies z.ZodType<KeyRoll>;

/** A page of the key's request log (the dashboard's key page). */
export const listKeyCallsInput = z.object({
  keyId: z.uuid(),
  statusClass: z.enum(STATUS_CLASSES).optional(),
  endpoint: z.string().min(1).max(300).optional(),
  page: z.int().min(1).max(KEY_CALLS_KEPT).default(1),
  pageSize: z.int().min(1).max(200).default(50),
});

/** The key's calls and credits per day (the dashboard's key page). */
export const keyUsageInput = z.object({
  keyId: z.uuid(),
  from: z.iso.date('Give the first day as YYYY-MM-DD.').optional(),
  to: z.iso.date('Give the last day as YYYY-MM-DD.').optional(),
});

export const keyRestrictionsOutput = z.object({
  appIds: z
    .array(z.uuid())
    .nullable()
    .describe('The apps the key reaches; null: every app of the account, those added later included.'),
  allowedCidrs: z
    .array(z.string())
    .describe('The client addresses (IPv4 and IPv6 CIDR ranges) the key may call from; empty: any.'),
  monthlyBudget: z
    .int()
    .nullable()
    .describe('Credits the key may spend a month; null: only the account’s allowance bounds it.'),
});

export const apiKeyOutput = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  displayPrefix: z
    .string()
    .describe('`svc_live_` and the first 4 characters of the secret, as the dashboard shows the key.'),
  lastFour: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  rolledAt: z.iso
    .datetime()
    .nullable()
    .describe('Set on a key that was rolled: its successor is another key; this one works until `expiresAt`.'),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
  restrictions: keyRestrictionsOutput,
  spentThisMonth: z.int().describe('Credits spent this month against the key’s budget (0 for a key without one).'),
  apiVersion: z
    .enum(API_VERSIONS)
    .nullable()
    .describe('The key’s own dated API version (`Aso-Version`); null: the account’s.'),
});
export type ApiKeyOutput = z.infer<typeof apiKeyOutput>;

export const apiKeyWithSecretOutput = z.object({
  key: apiKeyOutput,
  secret: z
    .string()
    .describe('The key itself: shown in this answer only, never again (only its SHA-256 digest is stored).'),
});

export const rolledApiKeyOutput = apiKeyWithSecretOutput.extend({
  previous: apiKeyOutput.describe(
    'The key that was rolled: it works until its `expiresAt`, the end of the grace period.',
  ),
});

/** Dates as ISO strings: the dashboard client receives JSON without a transformer. */
export function toApiKeyOutput(key: ApiKeyView): ApiKeyOutput {
  return {
    ...key,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    rolledAt: key.rolledAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    apiVersion: isApiVersion(key.apiVersion) ? key.apiVersion : null,
  };
}
