// Dashboard sessions and their tokens. A sign-in starts a session (a `sessions` row); every token minted for it
// carries its id as `sid`:
// - the session cookie, next-auth's encrypted JWT (JWE, A256GCM), which next-auth re-encodes with a new `jti` at
//   every renewal (GET /api/auth/session). It is accepted as the dashboard's cookie and as a Bearer credential of
//   the public API, acting as the signed-in user with read-write scope;
// - the API reference's test-request token (/docs/api), encrypted under a key of its own (another HKDF salt), so that
//   next-auth cannot read it: it is no cookie, cannot be renewed, lives an hour at most, and works only as a Bearer
//   credential of the public API.
// A token is accepted only while its session has not ended, so signing out ends every copy of every token of that
// sign-in at once, wherever it is used; a renewal of an ended session is refused.
import { decode, encode } from 'next-auth/jwt';
import { db } from '@/server/db';
import { readSessionCredential } from '@/server/db/credential-statements';
import type { DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/core/dates';
import { accessOf } from '@/server/services/accounts/plans';
import { periodOf } from '@/server/services/metering/credits';
import { modeOf, type Actor } from './actor';
import { config } from '@/server/core/config';
import { storedVersion } from '@/server/domain/api-versions';

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

/** Lifetime of the API reference's test-request token. */
const API_REFERENCE_TOKEN_SECONDS = 3600;

/** The HKDF salt of the API reference's tokens; next-auth's own is the empty string. */
const API_REFERENCE_SALT = 'aso-public-api.api-reference-token';

export function authSecret(): string {
  const secret = config().NEXTAUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`, which provides one');
  return secret;
}

export function sessionCookieNames(): string[] {
  return ['__Secure-next-auth.session-token', 'next-auth.session-token'];
}

export type SessionVerification =
  | { status: 'valid'; actor: Actor; creditsUsed: number; versions: DataVersions }
  | { status: 'invalid_token' | 'expired' };

/** The claims this app reads from a session token. */
export interface SessionClaims {
  sub?: string;
  sid?: string;
  exp?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user and the session a token names, or null when its claims name none (tokens from before sessions had no sid). */
function sessionOf(claims: SessionClaims | null | undefined): { userId: string; sessionId: string } | null {
  if (!claims?.sub || !claims.sid || !UUID.test(claims.sub) || !UUID.test(claims.sid)) return null;
  return { userId: claims.sub, sessionId: claims.sid };
}

/** Where a token is presented: the dashboard reads cookies only; the public API also takes the reference's tokens. */
export type TokenUse = 'cookie' | 'bearer';

async function claimsOf(token: string, use: TokenUse): Promise<SessionClaims | 'invalid_token' | 'expired'> {
  const secret = authSecret();
  const salts = use === 'cookie' ? [''] : ['', API_REFERENCE_SALT];
  for (const salt of salts) {
    try {
      return ((await decode({ token, secret, salt })) ?? 'invalid_token') as SessionClaims | 'invalid_token';
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') return 'expired';
      // Not encrypted under this salt's key: perhaps the next one's.
      if (code !== 'ERR_JWE_DECRYPTION_FAILED') return 'invalid_token';
    }
  }
  return 'invalid_token';
}

/**
 * A session token as a cookie (`use: 'cookie'`) or a Bearer credential. `appId`: the app whose data version to read
 * with the rest (a well-formed uuid or null), for the response cache.
 */
export async function verifySessionToken(
  token: string,
  { now = new Date(), appId = null, use }: { now?: Date; appId?: string | null; use: TokenUse },
): Promise<SessionVerification> {
  const claims = await claimsOf(token, use);
  if (typeof claims === 'string') return { status: claims };
  const session = sessionOf(claims);
  if (!session) return { status: 'invalid_token' };
  // One round trip: the user, the plan, this month's credit usage and the data versions, if the session is live.
  const credential = await readSessionCredential(session, { periodStart: isoDay(periodOf(now).start), appId });
  if (!credential) return { status: 'invalid_token' };
  const { account } = credential;
  return {
    status: 'valid',
    actor: {
      kind: 'session',
      accountId: account.accountId,
      ...modeOf(account),
      userId: credential.userId,
      role: credential.role,
      sessionId: session.sessionId,
      scope: 'read-write',
      ...accessOf({ plan: account.plan, trialEndsAt: account.trialEndsAt, trialCredits: account.trialCredits }, now),
      apiVersion: storedVersion(account.apiVersion),
    },
    creditsUsed: account.creditsUsed,
    versions: account.versions,
  };
}

/** At sign-in: a new session of the user, acting for `accountId`; its id goes into every token minted for it. */
export async function startSession(userId: string, accountId: string, now = new Date()): Promise<string> {
  const session = await db.session.create({
    data: { userId, accountId, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) },
  });
  return session.id;
}

/**
 * At a renewal (next-auth's GET /api/auth/session, which re-encodes the token for another SESSION_MAX_AGE_SECONDS):
 * whether the token's session is still live; if so its expiry moves with the new token's.
 */
export async function renewSession(claims: SessionClaims, now = new Date()): Promise<boolean> {
  const session = sessionOf(claims);
  if (!session) return false;
  const { count } = await db.session.updateMany({
    where: { id: session.sessionId, userId: session.userId, endedAt: null },
    data: { expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) },
  });
  return count === 1;
}

/**
 * At sign-out: the session ends, and with it every token minted for it. Sessions long expired are deleted. The account
 * the session acted for when it ended, if it was live: its security log records the sign-out.
 */
export async function endSession(claims: SessionClaims | null | undefined, now = new Date()): Promise<string | null> {
  const session = sessionOf(claims);
  const [ended] = session
    ? await db.session.updateManyAndReturn({
        where: { id: session.sessionId, userId: session.userId, endedAt: null },
        data: { endedAt: now },
        select: { accountId: true },
      })
    : [];
  await db.session.deleteMany({ where: { expiresAt: { lt: now } } });
  return ended?.accountId ?? null;
}

/** A session token in the same format as the sign-in cookie, of a new session: for scripts and tests. */
export async function issueSessionToken(
  user: { id: string; email: string; accountId: string },
  maxAgeSeconds = SESSION_MAX_AGE_SECONDS,
) {
  const sid = await startSession(user.id, user.accountId);
  return encode({
    token: { sub: user.id, sid, email: user.email, accountId: user.accountId },
    secret: authSecret(),
    maxAge: maxAgeSeconds,
  });
}

/**
 * The API reference's test-request token of a signed-in session: a Bearer credential of the public API only, for at
 * most an hour and never past the session's end.
 */
export function issueApiReferenceToken(session: { userId: string; sessionId: string }): Promise<string> {
  return encode({
    token: { sub: session.userId, sid: session.sessionId },
    secret: authSecret(),
    salt: API_REFERENCE_SALT,
    maxAge: API_REFERENCE_TOKEN_SECONDS,
  });
}
