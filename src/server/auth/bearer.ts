// The Authorization header of a public API request as read without a database: which credentials can be refused on
// their shape alone (no header, another scheme, rubbish, an API key whose checksum is wrong) and which need a lookup
// (the credential step of every call, src/server/operations/runner.ts). The wording of every credential problem and its
// challenge is here too.
import { AppError } from '@/server/errors/app-error';
import { isWellFormedApiKey, keyModeOf } from '@/server/services/api-keys/key-format';
import { looksLikeOAuthAccessToken } from '@/server/auth/oauth-token-verification';

export type RejectedCredential =
  | 'missing'
  | 'malformed'
  | 'not_found'
  | 'revoked'
  | 'expired'
  | 'invalid_token'
  | 'oauth_invalid'
  | 'oauth_elsewhere';

export type BearerReading =
  | { kind: 'missing' }
  | { kind: 'malformed' }
  /** Well-formed, checksum included: only a lookup can tell whether it is valid. */
  | { kind: 'apiKey'; token: string }
  | { kind: 'sessionToken'; token: string }
  /** An OAuth access token's shape (./oauth-token-verification.ts); the MCP server's alone. */
  | { kind: 'oauthToken'; token: string };

export function readBearer(authorization: string | null): BearerReading {
  if (!authorization?.trim()) return { kind: 'missing' };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return { kind: 'malformed' };
  const token = match[1]!;
  if (keyModeOf(token)) return isWellFormedApiKey(token) ? { kind: 'apiKey', token } : { kind: 'malformed' };
  if (looksLikeSessionToken(token)) return { kind: 'sessionToken', token };
  if (looksLikeOAuthAccessToken(token)) return { kind: 'oauthToken', token };
  return { kind: 'malformed' };
}

/** A compact JWE (next-auth's session token) has five base64url segments. */
function looksLikeSessionToken(value: string): boolean {
  return /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/.test(value) && value.length < 8192;
}

const DETAILS: Record<RejectedCredential, string> = {
  missing: 'Send your API key in the Authorization header: `Authorization: Bearer svc_live_…`.',
  malformed: 'The Authorization header does not carry a well-formed API key or session token.',
  not_found: 'This API key is not valid.',
  revoked: 'This API key has been revoked.',
  expired: 'This credential has expired.',
  invalid_token: 'This session token is not valid or has been signed out.',
  oauth_invalid: 'This access token is not valid: its connected app was revoked, or it was never issued.',
  oauth_elsewhere: 'This access token is for the MCP server (/api/mcp) only; use an API key here.',
};

function credentialProblemDetail(status: RejectedCredential): string {
  return DETAILS[status];
}

/**
 * RFC 6750 §3: no error code when no credential was sent, invalid_token for any credential refused. `resourceMetadata`:
 * where the resource's OAuth metadata is (RFC 9728 §5.1), on the MCP server, so that an agent finds how to sign in.
 */
function credentialChallenge(status: RejectedCredential, resourceMetadata?: string): string {
  const metadata = resourceMetadata ? `, resource_metadata="${resourceMetadata}"` : '';
  return status === 'missing'
    ? `Bearer realm="public-api"${metadata}`
    : `Bearer realm="public-api", error="invalid_token"${metadata}`;
}

/** The 401 of a credential refused, with its detail and challenge: the same on REST and on the MCP server. */
export function credentialRefused(status: RejectedCredential, resourceMetadata?: string): AppError {
  return new AppError('UNAUTHORIZED', credentialProblemDetail(status), {
    headers: { 'WWW-Authenticate': credentialChallenge(status, resourceMetadata) },
  });
}
