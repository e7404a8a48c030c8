// Resolves the Bearer credential of a public API request: an API key or a dashboard session token.
// Returns a status, never throws for a bad credential; the HTTP layer maps statuses to problems once (./bearer.ts).
import type { DataVersions } from '@/server/db/data-versions';
import { verifyApiKey } from '@/server/services/api-keys/api-keys';
import type { Actor } from './actor';
import { readBearer, type BearerReading, type RejectedCredential } from './bearer';
import { verifySessionToken } from './session-token';

export type CredentialResult =
  /** creditsUsed and versions: this month's usage and the data's versions when the request started, read by the same query. */
  | { status: 'valid'; actor: Actor; creditsUsed: number; versions: DataVersions }
  | { status: RejectedCredential };

export interface CredentialContext {
  now: Date;
  ip: string | null;
  /** The app whose data version to read as well (a well-formed uuid or null). */
  appId?: string | null;
}

export function resolveBearer(authorization: string | null, context: CredentialContext): Promise<CredentialResult> {
  return resolveCredential(readBearer(authorization), context);
}

/** The same, for a header the caller has already read (the REST pipeline reads it first, to refuse it without a lookup). */
export async function resolveCredential(bearer: BearerReading, context: CredentialContext): Promise<CredentialResult> {
  if (bearer.kind === 'missing' || bearer.kind === 'malformed') return { status: bearer.kind };
  if (bearer.kind === 'sessionToken') return verifySessionToken(bearer.token, { now: context.now, appId: context.appId ?? null, use: 'bearer' });
  const result = await verifyApiKey(bearer.token, context);
  if (result.status !== 'valid') return { status: result.status };
  return {
    status: 'valid',
    actor: {
      kind: 'apiKey',
      accountId: result.accountId,
      keyId: result.keyId,
      plan: result.plan,
      creditLimit: result.creditLimit,
      trial: result.trial,
      scope: result.scope,
      restrictions: result.restrictions,
      keySpent: result.keySpent,
    },
    creditsUsed: result.creditsUsed,
    versions: result.versions,
  };
}
