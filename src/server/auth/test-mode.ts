// A signed-in user's test mode: the dashboard's switch (Stripe's "Test mode") puts the session's calls on the
// account's sandbox (src/server/services/accounts/sandboxes.ts), where they see and change test data only: the test
// keys, the sandbox's apps, webhook endpoints, usage and logs. The switch is a cookie of the browser's, not a property
// of the sign-in, so that two tabs of one browser never disagree for long and signing in again starts in live mode.
import { isoDay } from '@/server/core/dates';
import type { DataVersions } from '@/server/db/data-versions';
import { readSandboxCredential } from '@/server/db/credential-statements';
import { accessOf } from '@/server/services/accounts/plans';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { periodOf } from '@/server/services/metering/credits';
import type { Actor } from './actor';

/** `test` while the dashboard is in test mode; absent (or anything else) in live mode. */
export const TEST_MODE_COOKIE = 'svc_mode';

/** A live session's actor as its sandbox's: the tier `test`'s access, and the live account it switched from. */
function onSandbox(actor: Actor, sandboxId: string, now: Date): Actor {
  return {
    ...actor,
    accountId: sandboxId,
    mode: 'test',
    liveAccountId: actor.accountId,
    ...accessOf({ plan: 'test', trialEndsAt: null, trialCredits: null }, now),
  };
}

/** The session's actor on its account's sandbox (made on first use). An API key's mode is its own: it is left as it is. */
export async function sessionOnSandbox(actor: Actor, now = new Date()): Promise<Actor> {
  if (actor.kind !== 'session' || actor.mode === 'test') return actor;
  return onSandbox(actor, await sandboxOf(actor.accountId), now);
}

/**
 * A session token's call with `X-Test-Mode: true` on REST or MCP: the session's actor on its sandbox, with the
 * sandbox's own usage and data versions (its credit headers and response cache keys are the sandbox's).
 */
export async function sessionCredentialInTestMode(
  live: { actor: Actor; creditsUsed: number; versions: DataVersions },
  { now, appId }: { now: Date; appId: string | null },
): Promise<{ actor: Actor; creditsUsed: number; versions: DataVersions }> {
  if (live.actor.kind !== 'session' || live.actor.mode === 'test') return live;
  const read = () => readSandboxCredential(live.actor.accountId, { periodStart: isoDay(periodOf(now).start), appId });
  let sandbox = await read();
  if (!sandbox) {
    await sandboxOf(live.actor.accountId);
    sandbox = (await read())!;
  }
  return {
    actor: onSandbox(live.actor, sandbox.accountId, now),
    creditsUsed: sandbox.creditsUsed,
    versions: sandbox.versions,
  };
}
