// The sign-in limit, built so that no one can aim it at a victim (OWASP's authentication guidance; rate-limiter-flexible's
// login-protection recipe, counted in PostgreSQL so that every app process counts the same failures):
// - 5 failures in a row for one email from one client address block that pair for 15 minutes, and 50 failures from one
//   address over any emails within 15 minutes block that address (credential stuffing): the attacker's own address is
//   what gets blocked, never the email;
// - failures for one email from every address together slow down its sign-ins from browsers it does not know, by a
//   delay that grows with the failures and is capped (SIGN_IN_LIMITS.perEmail): a person typing is barely slowed, a
//   guesser is, and nobody is ever kept out;
// - a browser that signed in as that email before (known-browsers.ts) is neither slowed nor blocked by failures from
//   elsewhere: its owner keeps signing in at once while the email is under attack. A known browser that fails 5 times
//   in a row is no longer trusted for 15 minutes (it is then an unknown browser like any other);
// - the account's security log records the first failures, then one entry each time a wave of failures grows tenfold
//   (5, 50, 500…), so that an attack is visible without flooding the log.
// A blocked attempt is refused before the password is checked: it costs no password hashing. A success clears the
// pair's count, or a known browser's own.
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';
import { db } from '@/server/db';
import { sharedLimiter } from '@/server/db/shared-limiter';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { normalEmail } from '@/server/domain/email-addresses';
import { authenticate, type SignedInUser } from './accounts';
import { issueKnownBrowser, knownBrowserOf, type KnownBrowserCookie } from './known-browsers';

const WINDOW_SECONDS = 15 * 60;

export const SIGN_IN_LIMITS = {
  /** Failures in a row for one email from one address: the pair is blocked for the window. */
  perPair: { failures: 5, windowSeconds: WINDOW_SECONDS },
  /** Failures from one address over any emails: the address is blocked for the window. */
  perAddress: { failures: 50, windowSeconds: WINDOW_SECONDS },
  /** Failures in a row from one known browser: it is an unknown browser again for the window. */
  perKnownBrowser: { failures: 5, windowSeconds: WINDOW_SECONDS },
  /**
   * Failures for one email from any address: from the `slowAfter`-th on, a sign-in from a browser the email does not
   * know waits `firstDelayMs`, doubled with each further failure, at most `maxDelayMs`.
   */
  perEmail: { windowSeconds: WINDOW_SECONDS, slowAfter: 5, firstDelayMs: 1_000, maxDelayMs: 10_000 },
} as const;

/** The messages next-auth passes to the sign-in form as its error code. */
export const SIGN_IN_BLOCKED = 'TooManySignInAttempts';
/** The right password of a user who belongs to no account any more (removed from their only one). */
export const SIGN_IN_NO_ACCOUNT = 'NoAccount';

type Counter = 'pair' | 'address' | 'knownBrowser' | 'email';
let counters: Record<Counter, RateLimiterPostgres> | undefined;

function counter(name: Counter): RateLimiterPostgres {
  // A count past `points` is a refusal of the library's, not a limit of ours: each counter is read against the
  // thresholds above, so its points are set far above them.
  const windowed = (keyPrefix: string) => sharedLimiter(keyPrefix, 1_000_000, WINDOW_SECONDS);
  counters ??= {
    pair: windowed('sign-in-pair'),
    address: windowed('sign-in-address'),
    knownBrowser: windowed('sign-in-known-browser'),
    email: windowed('sign-in-email'),
  };
  return counters[name];
}

async function countOf(name: Counter, key: string | null): Promise<RateLimiterRes | null> {
  return key === null ? null : counter(name).get(key);
}

/** Adds a failure to a counter; its count after it. */
async function addFailure(name: Counter, key: string | null): Promise<number> {
  if (key === null) return 0;
  try {
    return (await counter(name).consume(key)).consumedPoints;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection.consumedPoints;
    throw rejection;
  }
}

async function clearCount(name: Counter, key: string | null): Promise<void> {
  if (key !== null) await counter(name).delete(key);
}

const pairKey = (email: string | null, address: string | null) => (email && address ? `${email} ${address}` : null);

/** How long a sign-in for an email with `failures` recent failures waits in a browser the email does not know. */
export function slowdownMs(failures: number): number {
  const { slowAfter, firstDelayMs, maxDelayMs } = SIGN_IN_LIMITS.perEmail;
  if (failures < slowAfter) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** (failures - slowAfter));
}

/** Seconds until a count past `failures` lets its key try again, or 0 when it may now. */
function blockedFor(state: RateLimiterRes | null, failures: number): number {
  return state !== null && state.consumedPoints >= failures ? Math.ceil(state.msBeforeNext / 1000) : 0;
}

export interface SignInAttempt {
  email: unknown;
  password: unknown;
  /** The client's address, when known. */
  address: string | null;
  /** The request's cookies (a known browser's among them). */
  cookies: ReadonlyMap<string, string>;
}

export type SignInOutcome =
  | { kind: 'signed-in'; user: SignedInUser; knownBrowser: KnownBrowserCookie }
  | { kind: 'refused' }
  | { kind: 'no-account' }
  | { kind: 'blocked'; retryAfterSeconds: number };

export interface SignInOptions {
  /** Waits out a slowdown (a test records it instead). */
  wait?: (milliseconds: number) => Promise<unknown>;
}

/** Email and password sign-in under the limit above. */
export async function signInWithLimit(attempt: SignInAttempt, options: SignInOptions = {}): Promise<SignInOutcome> {
  const wait = options.wait ?? sleep;
  // A malformed email can never sign in; its attempts still count against the address.
  const email = normalEmail(attempt.email);
  const { address } = attempt;
  const browser = email ? knownBrowserOf(email, attempt.cookies) : null;
  const known =
    browser !== null &&
    blockedFor(await countOf('knownBrowser', browser), SIGN_IN_LIMITS.perKnownBrowser.failures) === 0;

  if (!known) {
    const [pair, fromAddress, forEmail] = await Promise.all([
      countOf('pair', pairKey(email, address)),
      countOf('address', address),
      countOf('email', email),
    ]);
    const retryAfterSeconds = Math.max(
      blockedFor(pair, SIGN_IN_LIMITS.perPair.failures),
      blockedFor(fromAddress, SIGN_IN_LIMITS.perAddress.failures),
    );
    if (retryAfterSeconds > 0) return { kind: 'blocked', retryAfterSeconds };
    const delay = slowdownMs(forEmail?.consumedPoints ?? 0);
    if (delay > 0) await wait(delay);
  }

  const user = await authenticate(attempt.email, attempt.password);
  if (!user) {
    const [failures] = await Promise.all([
      addFailure('email', email),
      ...(known
        ? [addFailure('knownBrowser', browser)]
        : [addFailure('pair', pairKey(email, address)), addFailure('address', address)]),
    ]);
    await logFailedSignIn(email, failures);
    return { kind: 'refused' };
  }
  // A known browser's success clears its own count only: the pair's failures may be someone else's on its network.
  await (known ? clearCount('knownBrowser', browser) : clearCount('pair', pairKey(email, address)));
  if (!user.accountId) return { kind: 'no-account' };
  await recordSecurityEvent({
    accountId: user.accountId,
    kind: 'session.signed_in',
    actor: { type: 'user', userId: user.id, label: user.email },
    target: { type: 'user', id: user.id, label: user.email },
  });
  return { kind: 'signed-in', user, knownBrowser: issueKnownBrowser(user.email) };
}

/** A sign-out, in the account's security log. */
export async function recordSignOut(accountId: string, userId: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  const label = user?.email ?? 'a deleted user';
  await recordSecurityEvent({
    accountId,
    kind: 'session.signed_out',
    actor: { type: 'user', userId, label },
    target: { type: 'user', id: userId, label },
  });
}

/** Whether the `failures`-th failure in a window starts a wave's entry: 5, 50, 500… */
function startsWave(failures: number): boolean {
  const { slowAfter } = SIGN_IN_LIMITS.perEmail;
  for (let threshold = slowAfter; threshold <= failures; threshold *= 10) if (threshold === failures) return true;
  return false;
}

/**
 * A failed sign-in as one user of an account is in its security log while they are few; from the slowdown's threshold
 * on, one entry per tenfold growth of the wave says how many there were (an unknown email belongs to no account).
 */
async function logFailedSignIn(email: string | null, failures: number): Promise<void> {
  const { slowAfter, windowSeconds, maxDelayMs } = SIGN_IN_LIMITS.perEmail;
  const wave = startsWave(failures);
  if (failures > slowAfter && !wave) return;
  const user = email ? await db.user.findUnique({ where: { email }, select: { id: true, accountId: true } }) : null;
  if (!user?.accountId) return;
  const entry = {
    accountId: user.accountId,
    actor: { type: 'anonymous' as const },
    target: { type: 'user' as const, id: user.id, label: email! },
  };
  if (failures <= slowAfter)
    await recordSecurityEvent({ ...entry, kind: 'session.sign_in_failed', after: { reason: 'wrong password' } });
  if (wave) {
    await recordSecurityEvent({
      ...entry,
      kind: 'session.sign_ins_slowed',
      after: {
        failures,
        withinMinutes: windowSeconds / 60,
        newBrowsersWaitUpToSeconds: maxDelayMs / 1000,
        knownBrowsersSlowed: false,
      },
    });
  }
}
