import type { PlanTier } from '@/generated/prisma/enums';
import type { ApiKeyScope } from '@/server/services/api-keys/api-keys';

/** Who is calling: resolved once per request from an API key or a dashboard session token. */
export interface Actor {
  kind: 'apiKey' | 'session';
  accountId: string;
  plan: PlanTier;
  scope: ApiKeyScope;
  userId?: string;
  /** A session token's sign-in (src/server/auth/session-token.ts). */
  sessionId?: string;
  keyId?: string;
}
