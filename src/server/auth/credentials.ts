// Resolves the Bearer credential of a public API request: an API key or a dashboard session token.
// Returns a status, never throws for a bad credential; the HTTP layer maps statuses to problems once.
import type { DataVersions } from '@/server/db/data-versions';
import { verifyApiKey } from '@/server/services/api-keys/api-keys';
import { KEY_PREFIX } from '@/server/services/api-keys/key-format';
import type { Actor } from './actor';
import { looksLikeSessionToken, verifySessionToken } from './session-token';

export type CredentialResult =
  /** creditsUsed and versions: this month's usage and the data's versions when the request started, read by the same query. */
  | { status: 'valid'; actor: Actor; creditsUsed: number; versions: DataVersions }
  | { status: 'missing' | 'malformed' | 'not_found' | 'revoked' | 'expired' | 'invalid_token' };

/** `context.appId`: the app whose data version to read as well (a well-formed uuid or null). */
export async function resolveBearer(
  authorization: string | null,
  context: { now: Date; ip: string | null; appId?: string | null },
): Promise<CredentialResult> {
  if (!authorization?.trim()) return { status: 'missing' };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return { status: 'malformed' };
  const token = match[1]!;
  if (token.startsWith(KEY_PREFIX)) {
    const result = await verifyApiKey(token, context);
    if (result.status !== 'valid') return { status: result.status };
    return {
      status: 'valid',
      actor: { kind: 'apiKey', accountId: result.accountId, keyId: result.keyId, plan: result.plan, scope: result.scope },
      creditsUsed: result.creditsUsed,
      versions: result.versions,
    };
  }
  if (looksLikeSessionToken(token)) return verifySessionToken(token, context.now, context.appId ?? null);
  return { status: 'malformed' };
}

const DETAILS: Record<Exclude<CredentialResult['status'], 'valid'>, string> = {
  missing: 'Send your API key in the Authorization header: `Authorization: Bearer svc_live_…`.',
  malformed: 'The Authorization header does not carry a well-formed API key or session token.',
  not_found: 'This API key is not valid.',
  revoked: 'This API key has been revoked.',
  expired: 'This credential has expired.',
  invalid_token: 'This session token is not valid or has been signed out.',
};

export function credentialProblemDetail(status: Exclude<CredentialResult['status'], 'valid'>): string {
  return DETAILS[status];
}
