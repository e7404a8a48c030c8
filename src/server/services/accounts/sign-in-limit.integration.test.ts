// The sign-in limit on the real database: the pair and the address blocked, the email only slowed (the waits are
// recorded here rather than waited), known browsers neither, and what ends each. The attack it is built against (a
// victim's email hammered from elsewhere) is tried by the security matrix (src/server/rest/security-matrix...).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import { knownBrowserCookieName } from './known-browsers';
import { SIGN_IN_LIMITS, signInWithLimit, slowdownMs, type SignInOutcome } from './sign-in-limit';

const PASSWORD = 'correct horse battery';
const address = () => `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 8)}`;

/** A browser: its cookies, kept from its sign-ins, and the waits it was made to sit through. */
function browser() {
  const cookies = new Map<string, string>();
  const waits: number[] = [];
  return {
    cookies,
    waits,
    async signIn(email: string, password: string, from: string): Promise<SignInOutcome['kind']> {
      const outcome = await signInWithLimit(
        { email, password, address: from, cookies },
        { wait: async (milliseconds) => waits.push(milliseconds) },
      );
      if (outcome.kind === 'signed-in') cookies.set(outcome.knownBrowser.name, outcome.knownBrowser.value);
      return outcome.kind;
    },
  };
}

/** The window of a counter over, as 15 minutes would end it. */
async function endWindow(prefix: string, key: string) {
  await db.rateLimitCount.updateMany({ where: { key: `${prefix}:${key}` }, data: { expire: BigInt(Date.now() - 1) } });
}

describe('the sign-in limit', () => {
  it('blocks an email and address pair after 5 failures in a row, even with the right password, until the window ends', async () => {
    const { email } = await makeAccount();
    const other = await makeAccount();
    const [guesser, from] = [browser(), address()];
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perPair.failures; attempt++)
      expect(await guesser.signIn(email, `wrong ${attempt}`, from)).toBe('refused');
    const blocked = await signInWithLimit({
      email: email.toUpperCase(),
      password: PASSWORD,
      address: from,
      cookies: new Map(),
    });
    expect(blocked).toEqual({ kind: 'blocked', retryAfterSeconds: expect.any(Number) });
    expect(blocked.kind === 'blocked' && blocked.retryAfterSeconds).toBeGreaterThan(14 * 60);
    // Not the email: from another address it signs in (slowed, by the failures); not the address: another email does.
    const elsewhere = browser();
    expect(await elsewhere.signIn(email, PASSWORD, address())).toBe('signed-in');
    expect(elsewhere.waits).toEqual([slowdownMs(SIGN_IN_LIMITS.perPair.failures)]);
    expect(await guesser.signIn(other.email, PASSWORD, from)).toBe('signed-in');
    await endWindow('sign-in-pair', `${email} ${from}`);
    expect(await guesser.signIn(email, PASSWORD, from)).toBe('signed-in');
  });

  it('counts a pair’s failures in a row: a success starts them again', async () => {
    const { email } = await makeAccount();
    const [person, from] = [browser(), address()];
    for (let round = 0; round < 2; round++) {
      for (let attempt = 0; attempt < SIGN_IN_LIMITS.perPair.failures - 1; attempt++)
        expect(await person.signIn(email, 'wrong', from)).toBe('refused');
      expect(await person.signIn(email, PASSWORD, from)).toBe('signed-in');
    }
  });

  it('blocks a client address after 50 failures over any emails (unknown and malformed ones included)', async () => {
    const { email } = await makeAccount();
    const [stuffer, from] = [browser(), address()];
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perAddress.failures; attempt++) {
      const target = attempt % 3 === 0 ? 'not an email' : `nobody-${attempt}-${randomUUID()}@example.test`;
      expect(await stuffer.signIn(target, 'guess', from)).toBe('refused');
    }
    expect(await stuffer.signIn(email, PASSWORD, from)).toBe('blocked');
    expect(await browser().signIn(email, PASSWORD, address())).toBe('signed-in');
  });

  it('slows an email’s sign-ins from unknown browsers by a growing delay, capped, never refusing them', () => {
    const { slowAfter, firstDelayMs, maxDelayMs } = SIGN_IN_LIMITS.perEmail;
    expect([0, slowAfter - 1, slowAfter, slowAfter + 1, slowAfter + 2, slowAfter + 10, 10_000].map(slowdownMs)).toEqual(
      [0, 0, firstDelayMs, 2 * firstDelayMs, 4 * firstDelayMs, maxDelayMs, maxDelayMs],
    );
  });

  it('trusts a known browser for its own email only, and no longer after 5 failures in a row from it', async () => {
    const owner = await makeAccount();
    const other = await makeAccount();
    const own = browser();
    expect(await own.signIn(owner.email, PASSWORD, address())).toBe('signed-in');
    // 5 failures from elsewhere: unknown browsers are now slowed, this one is not.
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perEmail.slowAfter; attempt++)
      await browser().signIn(owner.email, 'wrong', address());
    expect(await own.signIn(owner.email, PASSWORD, address())).toBe('signed-in');
    expect(own.waits).toEqual([]);
    // Its cookie says nothing for another email, and a forged one nothing at all.
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perEmail.slowAfter; attempt++)
      await browser().signIn(other.email, 'wrong', address());
    expect(await own.signIn(other.email, PASSWORD, address())).toBe('signed-in');
    expect(own.waits).toHaveLength(1);
    const forged = browser();
    forged.cookies.set(knownBrowserCookieName(owner.email), `${randomUUID()}.${'A'.repeat(43)}`);
    expect(await forged.signIn(owner.email, PASSWORD, address())).toBe('signed-in');
    expect(forged.waits).toHaveLength(1);
    // Guessing from the known browser itself: after 5 in a row it is an unknown browser again.
    const [stolen, waitsBefore] = [own, own.waits.length];
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perKnownBrowser.failures; attempt++)
      expect(await stolen.signIn(owner.email, 'wrong', address())).toBe('refused');
    expect(stolen.waits).toHaveLength(waitsBefore);
    expect(await stolen.signIn(owner.email, PASSWORD, address())).toBe('signed-in');
    expect(stolen.waits).toHaveLength(waitsBefore + 1);
  });
});
