import type { MemberRole, PlanTier } from '@/generated/prisma/enums';
import type { ApiVersion } from '@/server/domain/api-versions';
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
   * Test or live, resolved once as the credential is read, from what is stored (a sandbox account has a live account):
   * a test key's, a session's switched to test mode (the dashboard's switch or X-Test-Mode), or a live credential's.
   * `accountId` is then the account whose data the call reads and writes: the sandbox in test mode.
   */
  mode: Mode;
  /**
   * The live account: `accountId` itself in live mode, the one the sandbox belongs to in test mode. What only a live
   * account has (its plan and billing, members, connected apps) is this one's.
   */
  liveAccountId: string;
  /**
   * The dated API version its answers are shaped by when the request names none (src/server/domain/api-versions.ts):
   * a key's own, else its account's, else the original. The dashboard reads the newest.
   */
  apiVersion: ApiVersion;
}

type Mode = 'live' | 'test';

/**
 * The one answer to "which mode, and which live account": from what the credential's statement read of the account
 * the credential names (a sandbox has a live account, a live account none), never from its plan.
 */
export function modeOf(account: {
  accountId: string;
  liveAccountId: string | null;
}): Pick<Actor, 'mode' | 'liveAccountId'> {
  return account.liveAccountId === null
    ? { mode: 'live', liveAccountId: account.accountId }
    : { mode: 'test', liveAccountId: account.liveAccountId };
}
