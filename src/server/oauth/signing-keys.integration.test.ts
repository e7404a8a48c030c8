import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { rotateSigningKeys, signingKeys } from './signing-keys';

describe('the authorization server’s signing keys', () => {
  it('are made once, shared, kept sealed, and rotated by adding a new current key that keeps the old ones published', async () => {
    const [first, again] = await Promise.all([signingKeys(), signingKeys()]);
    expect(first.length).toBeGreaterThanOrEqual(1);
    expect(again.map((key) => key.kid)).toEqual(first.map((key) => key.kid));
    expect(first[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', d: expect.any(String) });
    const stored = await db.oAuthRecord.findMany({ where: { kind: 'SigningKey' } });
    for (const key of first) expect(JSON.stringify(stored.map((row) => row.payload))).not.toContain(key.d!);

    const kid = await rotateSigningKeys();
    const rotated = await signingKeys();
    expect(rotated[0]!.kid).toBe(kid);
    expect(rotated.slice(1).map((key) => key.kid)).toEqual(first.map((key) => key.kid));
  });
});
