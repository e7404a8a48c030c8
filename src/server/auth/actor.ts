import type { MemberRole, PlanTier } from '@/generated/prisma/enums';
import type { Trial } from '@/server/services/accounts/plans';
import type { ApiKeyScope } from '@/server/services/api-keys/key-views';
import type { KeyRestrictions } from '@/server/services/api-keys/restrictions';

/** Who is calling: resolved once per request from an API key or a dashboard session token. */
export interface Actor {
  kind: 'apiKey' | 'session';
  accountId: string;
  /** The tier in force now: Free once a trial has ended (src/server/services/accounts/plans.ts, accessOf). */
  plan: PlanTier;
  /** Credits a month in force now (a trial's own allowance while it lasts); null = unlimited. */
  creditLimit: number | null;
  trial: Trial | null;
  scope: ApiKeyScope;
  userId?: string;
  /** A signed-in member's role in the account (a session's; keys and connected apps have none): services/access/roles.ts. */
  role?: MemberRole;
  /** A session token's sign-in (src/server/auth/session-token.ts). */
  sessionId?: string;
  keyId?: string;
  /** An API key's apps, client addresses and monthly budget (services/api-keys/restrictions.ts); none for a session. */
  restrictions?: KeyRestrictions;
  /** What the key spent this period when the request started, against its monthly budget. */
  keySpent?: number;
  /**
   * A signed-in user switched to test mode (the dashboard's switch): the live account they switched from, which
   * `accountId` is then the sandbox of. What only a live account has (its plan and billing, connected apps) is its.
   */
  liveAccountId?: string;
}

/** The live account the actor acts for or switched from: what only a live account has (its plan, billing, connected apps) is this one's. */
export function liveAccountOf(actor: Actor): string {
  return actor.liveAccountId ?? actor.accountId;
}
