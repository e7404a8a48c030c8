// Dashboard session tokens: next-auth's encrypted JWTs (JWE, A256GCM). Accepted as the dashboard's cookie and
// as a Bearer credential of the public API, acting as the signed-in user with read-write scope. A token that
// was signed out is refused until its natural expiry.
import { decode, encode } from 'next-auth/jwt';
import { db, hotQuery } from '@/server/db';
import { dataVersionColumns, dataVersionsOf, type DataVersionColumns, type DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/domain/dates';
import type { PlanTier } from '@/generated/prisma/enums';
import { periodOf } from '@/server/services/metering/credits';
import type { Actor } from './actor';

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

export function authSecret(): string {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`, which provides one');
  return secret;
}

export function sessionCookieNames(): string[] {
  return ['__Secure-next-auth.session-token', 'next-auth.session-token'];
}

export type SessionVerification =
  | { status: 'valid'; actor: Actor; creditsUsed: number; versions: DataVersions }
  | { status: 'invalid_token' | 'expired' };

interface SessionClaims {
  sub?: string;
  jti?: string;
  exp?: number;
}

/** `appId`: the app whose data version to read with the rest (a well-formed uuid or null), for the response cache. */
export async function verifySessionToken(token: string, now: Date = new Date(), appId: string | null = null): Promise<SessionVerification> {
  let claims: SessionClaims | null;
  try {
    claims = (await decode({ token, secret: authSecret() })) as SessionClaims | null;
  } catch (error) {
    return { status: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid_token' };
  }
  if (!claims?.sub || !claims.jti || !/^[0-9a-f-]{36}$/i.test(claims.sub)) return { status: 'invalid_token' };
  // One round trip: the user, the plan, this month's credit usage, the data versions, and whether this token was
  // signed out.
  const rows = await hotQuery<DataVersionColumns & { id: string; account_id: string; plan: PlanTier; used: number | null; ended: boolean }>(
    `SELECT u.id::text, u.account_id::text, a.plan::text AS plan, c.used, ${dataVersionColumns({ app: '$4', usage: 'c' })},
            EXISTS (SELECT 1 FROM ended_session_tokens e WHERE e.jti = $1) AS ended
     FROM users u
     JOIN accounts a ON a.id = u.account_id
     LEFT JOIN credit_usage c ON c.account_id = u.account_id AND c.period_start = $2::date
     WHERE u.id = $3::uuid`,
    [claims.jti, isoDay(periodOf(now).start), claims.sub, appId],
  );
  const user = rows[0];
  if (!user || user.ended) return { status: 'invalid_token' };
  return {
    status: 'valid',
    actor: { kind: 'session', accountId: user.account_id, userId: user.id, plan: user.plan, scope: 'read-write' },
    creditsUsed: user.used ?? 0,
    versions: dataVersionsOf(user),
  };
}

/** Called on sign-out: the token stops working everywhere, including as a Bearer credential. */
export async function endSessionToken(claims: SessionClaims | null | undefined): Promise<void> {
  if (!claims?.jti || !claims.sub) return;
  await db.endedSessionToken.upsert({
    where: { jti: claims.jti },
    create: { jti: claims.jti, userId: claims.sub, expiresAt: new Date((claims.exp ?? Date.now() / 1000) * 1000) },
    update: {},
  });
  await db.endedSessionToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
}

/** A session token in the same format as the sign-in cookie, for scripts and tests (e.g. the CLI). */
export function issueSessionToken(user: { id: string; email: string; accountId: string }, maxAgeSeconds = SESSION_MAX_AGE_SECONDS) {
  return encode({ token: { sub: user.id, email: user.email, accountId: user.accountId }, secret: authSecret(), maxAge: maxAgeSeconds });
}
