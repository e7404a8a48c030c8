// The sign-in brute-force limit on the real database: per email, per client address, cleared by a success,
// lifted when the window ends.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import { SIGN_IN_LIMITS, signInWithLimit } from './sign-in-limit';

const PASSWORD = 'correct horse battery';
const address = () => `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 8)}`;

describe('sign-in brute-force limit', () => {
  it('blocks an email after 5 failures in 15 minutes, even with the right password, and not other emails', async () => {
    const { email } = await makeAccount();
    const other = await makeAccount();
    const from = address();
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perEmail.failures; attempt++) {
      expect(await signInWithLimit(email, `wrong ${attempt}`, from)).toEqual({ kind: 'refused' });
    }
    const blocked = await signInWithLimit(email.toUpperCase(), PASSWORD, address());
    expect(blocked.kind).toBe('blocked');
    expect(blocked.kind === 'blocked' && blocked.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect((await signInWithLimit(other.email, PASSWORD, from)).kind).toBe('signed-in');

    // The window over (its expiry moved to the past, as 15 minutes would), the right password works again.
    await db.rateLimitCount.updateMany({ where: { key: `email:${email}` }, data: { expire: BigInt(Date.now() - 1) } });
    expect((await signInWithLimit(email, PASSWORD, from)).kind).toBe('signed-in');
  });

  it('counts only failures since the last success', async () => {
    const { email } = await makeAccount();
    const from = address();
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perEmail.failures - 1; attempt++) await signInWithLimit(email, 'wrong', from);
    expect((await signInWithLimit(email, PASSWORD, from)).kind).toBe('signed-in');
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perEmail.failures - 1; attempt++) await signInWithLimit(email, 'wrong', from);
    expect((await signInWithLimit(email, PASSWORD, from)).kind).toBe('signed-in');
  });

  it('blocks a client address after 50 failures over any emails (unknown and malformed ones included)', async () => {
    const { email } = await makeAccount();
    const from = address();
    for (let attempt = 0; attempt < SIGN_IN_LIMITS.perAddress.failures; attempt++) {
      const target = attempt % 3 === 0 ? 'not an email' : `nobody-${attempt}-${randomUUID()}@example.test`;
      expect((await signInWithLimit(target, 'guess', from)).kind).toBe('refused');
    }
    expect((await signInWithLimit(email, PASSWORD, from)).kind).toBe('blocked');
    expect((await signInWithLimit(email, PASSWORD, address())).kind).toBe('signed-in');
  });
});
