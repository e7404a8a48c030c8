// The authorization server's signing keys (published at /oauth/jwks): kept in the database beside the rest of its
// state, each private key sealed with the data-encryption key (src/server/core/data-encryption.ts) as webhook secrets
// are. Every web process reads the same keys, on the embedded default and on an external DATABASE_URL alike: there is
// no key file to copy between machines. The first process to start without one makes it. `npm run admin -- oauth
// rotate-keys` adds a new current key; the previous ones stay published, for what they signed, until removed.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { open, seal } from '@/server/core/data-encryption';
import { findOAuthRecord, upsertOAuthRecord } from '@/server/db/oauth-records';
import { withNamedLock } from '@/server/db/row-locks';

const KIND = 'SigningKey';
/** The record that lists the keys' ids, newest (current) first. */
const RING_ID = 'ring';

function newPrivateJwk(): JWK {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomUUID(), alg: 'ES256', use: 'sig' };
}

async function ringOf(): Promise<string[]> {
  return ((await findOAuthRecord(KIND, RING_ID))?.kids as string[] | undefined) ?? [];
}

/** Runs `work` while no other process changes the keys: one ring, every key in it. */
function withKeysLocked<T>(work: () => Promise<T>): Promise<T> {
  return withNamedLock('oauth signing keys', work);
}

async function addKey(): Promise<string> {
  const jwk = newPrivateJwk();
  await upsertOAuthRecord(KIND, jwk.kid!, { sealed: seal(JSON.stringify(jwk)) }, undefined);
  await upsertOAuthRecord(KIND, RING_ID, { kids: [jwk.kid, ...(await ringOf())] }, undefined);
  return jwk.kid!;
}

/** The private keys, current first; the first process to ask makes one. */
export async function signingKeys(): Promise<JWK[]> {
  let kids = await ringOf();
  if (!kids.length) {
    kids = await withKeysLocked(async () => {
      if (!(await ringOf()).length) await addKey();
      return ringOf();
    });
  }
  const sealed = await Promise.all(
    kids.map(async (kid) => (await findOAuthRecord(KIND, kid))?.sealed as string | undefined),
  );
  return sealed.filter((value): value is string => value !== undefined).map((value) => JSON.parse(open(value)) as JWK);
}

/** A new current key; the others stay published. Each process signs with it from its next start. */
export function rotateSigningKeys(): Promise<string> {
  return withKeysLocked(addKey);
}
