// The check of a presented API key on every request, beside the session token's (./session-token.ts) and the OAuth
// access token's (./oauth-token-verification.ts): shape and checksum, then one lookup; its last use noted.
import { db } from '@/server/db';
import { readApiKeyCredential, type ApiKeyRow, type CredentialAccount } from '@/server/db/credential-statements';
import type { DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/core/dates';
import { accessOf, type Access } from '@/server/services/accounts/plans';
import { periodOf } from '@/server/services/metering/credits';
import { hashApiKey, isWellFormedApiKey, keyModeOf } from '@/server/services/api-keys/key-format';
import type { KeyRestrictions } from '@/server/services/api-keys/restrictions';
import { statusOf, type ApiKeyScope } from '@/server/services/api-keys/key-views';
import { storedVersion, type ApiVersion } from '@/server/domain/api-versions';

/** last_used_at is rewritten at most this often per key (unless the address changes): no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Per key, when and from which address this process last wrote (or is writing) its last use. */
const lastUsedWrites = new Map<string, { at: number; ip: string | null }>();

/**
 * Whether this request writes its key's last use: when the stored one is a minute old or from another address, and
 * this process has not written it already. Without the second condition, every request that read the row before the
 * first write committed would update it too, each queueing on the row's lock with a pool connection held, and
 * concurrent first calls of a new key would hold up every request of the process (docs/benchmarks.md).
 */
function claimLastUseWrite(
  keyId: string,
  storedAt: Date | null,
  storedIp: string | null,
  context: { now: Date; ip: string | null },
): boolean {
  const now = context.now.getTime();
  if (storedAt && now - storedAt.getTime() < LAST_USED_RESOLUTION_MS && storedIp === context.ip) return false;
  const written = lastUsedWrites.get(keyId);
  if (written && now - written.at < LAST_USED_RESOLUTION_MS && written.ip === context.ip) return false;
  if (lastUsedWrites.size >= 10_000) {
    for (const [id, entry] of lastUsedWrites) if (now - entry.at >= LAST_USED_RESOLUTION_MS) lastUsedWrites.delete(id);
  }
  lastUsedWrites.set(keyId, { at: now, ip: context.ip });
  return true;
}

export type KeyVerification =
  | ({
      status: 'valid';
      keyId: string;
      accountId: string;
      scope: ApiKeyScope;
      /** The key's account's live account: null when that account is itself live, a test key's sandbox's otherwise. */
      liveAccountId: string | null;
      restrictions: KeyRestrictions;
      keySpent: number;
      apiVersion: ApiVersion;
      creditsUsed: number;
      versions: DataVersions;
    } & Access)
  | { status: 'malformed' | 'not_found' | 'revoked' | 'expired' };

/**
 * Checks a presented key on every request: shape and checksum first (no database), then one indexed lookup by
 * SHA-256 that also returns the owner's plan, this month's credit usage and the versions of the account's data (of the
 * app `context.appId` too, a well-formed uuid or null). No cache, so revocation and expiry apply at once.
 */
export async function verifyApiKey(
  secret: string,
  context: { now: Date; ip: string | null; appId?: string | null },
): Promise<KeyVerification> {
  if (!isWellFormedApiKey(secret)) return { status: 'malformed' };
  const credential = await readApiKeyCredential(hashApiKey(secret), {
    periodStart: isoDay(periodOf(context.now).start),
    appId: context.appId ?? null,
  });
  // A key is found in its own mode only: a test key names a sandbox (an account with a live account), a live key a live
  // account.
  if (!credential || (keyModeOf(secret) === 'test') !== (credential.account.liveAccountId !== null))
    return { status: 'not_found' };
  const status = statusOf(credential.key, context.now);
  if (status !== 'active') return { status };
  // The enum's database value is the scope's own name (read-only, read-write).
  return verifiedCredential(credential, credential.key.scope as ApiKeyScope, context);
}

/**
 * An active credential row (a key, or a connected app) as the request's: its last use noted, its account's access
 * now, its scope, restrictions and spending.
 */
export function verifiedCredential(
  { key, account }: { key: ApiKeyRow; account: CredentialAccount },
  scope: ApiKeyScope,
  context: { now: Date; ip: string | null },
): KeyVerification & { status: 'valid' } {
  if (claimLastUseWrite(key.id, key.lastUsedAt, key.lastUsedIp, context)) {
    // Not awaited: bookkeeping must not add a round trip to the request.
    db.apiKey
      .update({ where: { id: key.id }, data: { lastUsedAt: context.now, lastUsedIp: context.ip } })
      .catch(() => lastUsedWrites.delete(key.id));
  }
  return {
    status: 'valid',
    keyId: key.id,
    accountId: account.accountId,
    liveAccountId: account.liveAccountId,
    ...accessOf(
      { plan: account.plan, trialEndsAt: account.trialEndsAt, trialCredits: account.trialCredits },
      context.now,
    ),
    scope,
    restrictions: { appIds: key.appIds, allowedCidrs: key.allowedCidrs, monthlyBudget: key.monthlyBudget },
    keySpent: key.spent,
    creditsUsed: account.creditsUsed,
    versions: account.versions,
    apiVersion: storedVersion(key.apiVersion ?? account.apiVersion),
  };
}
