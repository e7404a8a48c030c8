// Settings → API access → Connected apps: the OAuth grants of the account, as the dashboard shows and changes them.
import { z } from 'zod';
import { keyRestrictionsInput, keyRestrictionsOutput } from '@/server/api/routers/api-keys/api-keys.schema';
import type { ConnectedAppChange, ConnectedAppView } from '@/server/services/oauth/connected-apps';

export const connectedAppIdInput = z.strictObject({ id: z.uuid('Must be a UUID.') });

export const restrictConnectedAppInput = connectedAppIdInput.extend({
  restrictions: keyRestrictionsInput,
}) satisfies z.ZodType<ConnectedAppChange>;

export const connectedAppOutput = z.object({
  id: z.uuid(),
  clientId: z.string(),
  clientName: z.string(),
  scope: z.enum(['read-only', 'read-write']),
  status: z.enum(['active', 'expired', 'revoked']),
  restrictions: keyRestrictionsOutput,
  spentThisMonth: z.int(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ConnectedAppOutput = z.infer<typeof connectedAppOutput>;

export function toConnectedAppOutput(app: ConnectedAppView): ConnectedAppOutput {
  return {
    ...app,
    createdAt: app.createdAt.toISOString(),
    expiresAt: app.expiresAt?.toISOString() ?? null,
    revokedAt: app.revokedAt?.toISOString() ?? null,
    lastUsedAt: app.lastUsedAt?.toISOString() ?? null,
  };
}
