// An OAuth access token presented to the MCP server, checked on every request as a key is: one statement finds the
// token (by the SHA-256 of its value) with its connected app and the app's account (src/server/db/credential-
// statements.ts). No cache: a revoked connected app's tokens are gone from the table, and refused on their next call.
import { readOAuthTokenCredential } from '@/server/db/credential-statements';
import { oauthIdHash } from '@/server/db/oauth-records';
import { isoDay } from '@/server/core/dates';
import { statusOf } from '@/server/services/api-keys/key-views';
import { verifiedCredential, type KeyVerification } from '@/server/auth/api-key-verification';
import { periodOf } from '@/server/services/metering/credits';

export type OAuthTokenVerification =
  | (KeyVerification & { status: 'valid' })
  | { status: 'oauth_invalid' | 'expired' | 'oauth_elsewhere' };

/** Whether a bearer value has the shape of an access token the authorization server issues (256 random bits, base64url). */
export function looksLikeOAuthAccessToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * `resource`: the resource the request is for (the MCP server's URL), or null where no OAuth token is accepted.
 */
export async function verifyOAuthAccessToken(
  token: string,
  context: { now: Date; ip: string | null; appId?: string | null; resource: string | null },
): Promise<OAuthTokenVerification> {
  const credential = await readOAuthTokenCredential(oauthIdHash(token), {
    periodStart: isoDay(periodOf(context.now).start),
    appId: context.appId ?? null,
  });
  if (!credential) return { status: 'oauth_invalid' };
  if (credential.token.expiresAt && credential.token.expiresAt.getTime() <= context.now.getTime())
    return { status: 'expired' };
  if (statusOf(credential.key, context.now) !== 'active') return { status: 'oauth_invalid' };
  if (context.resource === null || credential.token.audience !== context.resource) return { status: 'oauth_elsewhere' };
  // Both say the owner's choice; a token for less than its connected app allows is held to its own.
  const writes =
    credential.key.scope === 'read-write' && (credential.token.scope ?? '').split(' ').includes('read-write');
  return verifiedCredential(credential, writes ? 'read-write' : 'read-only', context);
}
