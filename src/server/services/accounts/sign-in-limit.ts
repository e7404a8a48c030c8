// Sign-in brute-force limit (rate-limiter-flexible on PostgreSQL, so that every app process counts the same
// failures): 5 failed sign-ins for one email within 15 minutes block that email's sign-in until the window ends,
// and 50 failures from one client address within 15 minutes block that address (credential stuffing over many
// emails). Only failures count; a successful sign-in clears its email's count. A blocked attempt is refused before
// the password is checked, so that it costs no password hashing either.
import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';
import { db } from '@/server/db';
import { sharedLimiter } from '@/server/db/shared-limiter';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { authenticate, emailSchema, type SignedInUser } from './accounts';

export const SIGN_IN_LIMITS = {
  perEmail: { failures: 5, windowSeconds: 15 * 60 },
  perAddress: { failures: 50, windowSeconds: 15 * 60 },
} as const;

/** The message next-auth passes to the sign-in form as its error code. */
export const SIGN_IN_BLOCKED = 'TooManySignInAttempts';

let limiters: { email: RateLimiterPostgres; address: RateLimiterPostgres } | undefined;

function getLimiters() {
  const options = (keyPrefix: string, limit: { failures: number; windowSeconds: number }) => sharedLimiter(keyPrefix, limit.failures, limit.windowSeconds);
  limiters ??= { email: options('email', SIGN_IN_LIMITS.perEmail), address: options('address', SIGN_IN_LIMITS.perAddress) };
  return limiters;
}

const blocked = (state: RateLimiterRes | null, failures: number) => state !== null && state.consumedPoints >= failures;

/** Seconds until this email and address may try again, or 0 when they may now. */
async function signInBlockedFor(email: string | null, address: string | null): Promise<number> {
  const { email: byEmail, address: byAddress } = getLimiters();
  const [emailState, addressState] = await Promise.all([email ? byEmail.get(email) : null, address ? byAddress.get(address) : null]);
  const waits = [
    blocked(emailState, SIGN_IN_LIMITS.perEmail.failures) ? emailState!.msBeforeNext : 0,
    blocked(addressState, SIGN_IN_LIMITS.perAddress.failures) ? addressState!.msBeforeNext : 0,
  ];
  return Math.ceil(Math.max(...waits) / 1000);
}

async function recordSignInFailure(email: string | null, address: string | null): Promise<void> {
  const { email: byEmail, address: byAddress } = getLimiters();
  // consume() rejects with the limiter's state once past the limit: the failure is counted all the same.
  const counted = (error: unknown) => {
    if (!(error instanceof RateLimiterRes)) throw error;
  };
  await Promise.all([email ? byEmail.consume(email).catch(counted) : null, address ? byAddress.consume(address).catch(counted) : null]);
}

async function clearSignInFailures(email: string): Promise<void> {
  await getLimiters().email.delete(email);
}

export type SignInOutcome = { kind: 'signed-in'; user: SignedInUser } | { kind: 'refused' } | { kind: 'blocked'; retryAfterSeconds: number };

/** Email and password sign-in under the limit above. `address`: the client's address, when known. */
export async function signInWithLimit(rawEmail: unknown, password: unknown, address: string | null): Promise<SignInOutcome> {
  const parsed = emailSchema.safeParse(rawEmail);
  // A malformed email can never sign in; its attempts still count against the address.
  const email = parsed.success ? parsed.data : null;
  const retryAfterSeconds = await signInBlockedFor(email, address);
  if (retryAfterSeconds > 0) {
    await logFailedSignIn(email, 'too many attempts');
    return { kind: 'blocked', retryAfterSeconds };
  }
  const user = await authenticate(rawEmail, password);
  if (!user) {
    await recordSignInFailure(email, address);
    await logFailedSignIn(email, 'wrong password');
    return { kind: 'refused' };
  }
  if (email) await clearSignInFailures(email);
  await recordSecurityEvent({
    accountId: user.accountId,
    kind: 'session.signed_in',
    actor: { type: 'user', userId: user.id, label: user.email },
    target: { type: 'user', id: user.id, label: user.email },
  });
  return { kind: 'signed-in', user };
}

/** A sign-out, in the account's security log. */
export async function recordSignOut(accountId: string, userId: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  const label = user?.email ?? 'a deleted user';
  await recordSecurityEvent({ accountId, kind: 'session.signed_out', actor: { type: 'user', userId, label }, target: { type: 'user', id: userId, label } });
}

/** A failed sign-in as one user of an account is in its security log (an unknown email belongs to no account). */
async function logFailedSignIn(email: string | null, reason: string): Promise<void> {
  const user = email ? await db.user.findUnique({ where: { email }, select: { id: true, accountId: true } }) : null;
  if (!user) return;
  await recordSecurityEvent({ accountId: user.accountId, kind: 'session.sign_in_failed', actor: { type: 'anonymous' }, target: { type: 'user', id: user.id, label: email! }, after: { reason } });
}
