// A signed-in user's test mode: the dashboard's switch (Stripe's "Test mode") puts the session's calls on the
// account's sandbox (src/server/services/accounts/sandboxes.ts), where they see and change test data only: the test
// keys, the sandbox's apps, webhook endpoints, usage and logs. The switch is a cookie of the browser's, not a property
// of the sign-in, so that two tabs of one browser never disagree for long and signing in again starts in live mode.
import { accessOf } from '@/server/services/accounts/plans';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import type { Actor } from './actor';

/** `test` while the dashboard is in test mode; absent (or anything else) in live mode. */
export const TEST_MODE_COOKIE = 'svc_mode';

/** The session's actor on its account's sandbox (made on first use). An API key's mode is its own: it is left as it is. */
export async function inTestMode(actor: Actor, now = new Date()): Promise<Actor> {
  if (actor.kind !== 'session' || actor.liveAccountId) return actor;
  const sandboxId = await sandboxOf(actor.accountId);
  return { ...actor, accountId: sandboxId, liveAccountId: actor.accountId, ...accessOf({ plan: 'test', trialEndsAt: null, trialCredits: null }, now) };
}
