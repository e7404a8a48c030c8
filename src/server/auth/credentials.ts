// Resolves the Bearer credential of a public API request: an API key, a dashboard session token, or (on the MCP server
// only) an OAuth access token, which acts as its connected app, a credential with a key's scope and restrictions.
// Returns a status, never throws for a bad credential; the HTTP layer maps statuses to problems once (./bearer.ts).
import type { DataVersions } from '@/server/db/data-versions';
import { verifyApiKey } from '@/server/auth/api-key-verification';
import { verifyOAuthAccessToken } from '@/server/auth/oauth-token-verification';
import { modeOf, type Actor } from './actor';
import { readBearer, type BearerReading, type RejectedCredential } from './bearer';
import { verifySessionToken } from './session-token';
import { sessionCredentialInTestMode } from './test-mode';

export type CredentialResult =
  /** creditsUsed and versions: this month's usage and the data's versions when the request started, read by the same query. */
  { status: 'valid'; actor: Actor; creditsUsed: number; versions: DataVersions } | { status: RejectedCredential };

export interface CredentialContext {
  now: Date;
  ip: string | null;
  /** The app whose data version to read as well (a well-formed uuid or null). */
  appId?: string | null;
  /** The resource an OAuth access token must be for (the MCP server's URL); none: OAuth tokens are refused. */
  resource?: string;
  /** `X-Test-Mode: true`: a session token acts on its account's sandbox (an API key's mode is its own). */
  testMode?: boolean;
}

export function resolveBearer(authorization: string | null, context: CredentialContext): Promise<CredentialResult> {
  return resolveCredential(readBearer(authorization), context);
}

/** The same, for a header the caller has already read (the REST pipeline reads it first, to refuse it without a lookup). */
export async function resolveCredential(bearer: BearerReading, context: CredentialContext): Promise<CredentialResult> {
  if (bearer.kind === 'missing' || bearer.kind === 'malformed') return { status: bearer.kind };
  if (bearer.kind === 'sessionToken') {
    const session = await verifySessionToken(bearer.token, {
      now: context.now,
      appId: context.appId ?? null,
      use: 'bearer',
    });
    if (session.status !== 'valid' || !context.testMode) return session;
    return {
      status: 'valid',
      ...(await sessionCredentialInTestMode(session, { now: context.now, appId: context.appId ?? null })),
    };
  }
  const result =
    bearer.kind === 'oauthToken'
      ? await verifyOAuthAccessToken(bearer.token, { ...context, resource: context.resource ?? null })
      : await verifyApiKey(bearer.token, context);
  if (result.status !== 'valid') return { status: result.status };
  return {
    status: 'valid',
    actor: {
      kind: 'apiKey',
      accountId: result.accountId,
      ...modeOf(result),
      keyId: result.keyId,
      plan: result.plan,
      creditLimit: result.creditLimit,
      trial: result.trial,
      scope: result.scope,
      restrictions: result.restrictions,
      keySpent: result.keySpent,
      apiVersion: result.apiVersion,
    },
    creditsUsed: result.creditsUsed,
    versions: result.versions,
  };
}
