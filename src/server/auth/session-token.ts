// Dashboard session tokens: next-auth's encrypted JWTs (JWE, A256GCM). Accepted as the dashboard's cookie and
// as a Bearer credential of the public API, acting as the signed-in user with read-write scope. A token that
// was signed out is refused until its natural expiry.
import { decode, encode } from 'next-auth/jwt';
import { db } from '@/server/db';
import type { PlanTier } from '@/generated/prisma/enums';
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

/** A compact JWE has five base64url segments. */
export function looksLikeSessionToken(value: string): boolean {
  return /^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/.test(value) && value.length < 8192;
}

export type SessionVerification = { status: 'valid'; actor: Actor } | { status: 'invalid_token' | 'expired' };

interface SessionClaims {
  sub?: string;
  jti?: string;
  exp?: number;
}

export async function verifySessionToken(token: string): Promise<SessionVerification> {
  let claims: SessionClaims | null;
  try {
    claims = (await decode({ token, secret: authSecret() })) as SessionClaims | null;
  } catch (error) {
    return { status: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid_token' };
  }
  if (!claims?.sub || !claims.jti) return { status: 'invalid_token' };
  const [user, ended] = await Promise.all([
    db.user.findUnique({ where: { id: claims.sub }, select: { id: true, accountId: true, account: { select: { plan: true } } } }),
    db.endedSessionToken.findUnique({ where: { jti: claims.jti }, select: { jti: true } }),
  ]);
  if (!user || ended) return { status: 'invalid_token' };
  return {
    status: 'valid',
    actor: { kind: 'session', accountId: user.accountId, userId: user.id, plan: user.account.plan as PlanTier, scope: 'read-write' },
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
