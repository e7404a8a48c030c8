import { z } from 'zod';
import type { ApiKeyView } from '@/server/services/api-keys/api-keys';

export const revokeApiKeyInput = z.object({ keyId: z.uuid() });

/** Dates as ISO strings: the dashboard client receives JSON without a transformer. */
export function toApiKeyOutput(key: ApiKeyView) {
  return {
    ...key,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    rolledAt: key.rolledAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
export type ApiKeyOutput = ReturnType<typeof toApiKeyOutput>;
