// Expiry hygiene: `api_key.expiring` once per key, 7 days before its expiry (never for a key revoked, rolled, or
// expiring later), and the owner's setting that every new key must have an expiry.
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { notifyExpiringKeys, setKeyExpiryPolicy } from '@/server/services/api-keys/key-expiry';
import { rollApiKey } from '@/server/services/api-keys/key-rolls';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

it('notifies each key expiring within 7 days once, and no other', async () => {
  const owner = await makeAccount('pro');
  const soon = await createApiKey(owner, { name: 'soon', scope: 'read-only', expiresAt: inDays(6) });
  await createApiKey(owner, { name: 'later', scope: 'read-only', expiresAt: inDays(30) });
  await createApiKey(owner, { name: 'never', scope: 'read-only' });
  const revoked = await createApiKey(owner, { name: 'revoked', scope: 'read-only', expiresAt: inDays(2) });
  await revokeApiKey(owner.accountId, revoked.key.id);
  const toRoll = await createApiKey(owner, { name: 'rolled', scope: 'read-only', expiresAt: inDays(60) });
  await rollApiKey(owner.accountId, { keyId: toRoll.key.id, gracePeriod: '24h' });

  await Promise.all([notifyExpiringKeys(), notifyExpiringKeys()]);
  await notifyExpiringKeys();
  const events = await db.domainEvent.findMany({ where: { accountId: owner.accountId, type: 'api_key.expiring' } });
  expect(events.map((event) => event.data)).toEqual([
    expect.objectContaining({ keyId: soon.key.id, name: 'soon', expiresAt: soon.key.expiresAt!.toISOString() }),
  ]);
});

it('refuses a key without an expiry once the owner requires one, and takes one with it', async () => {
  const owner = await makeAccount('pro');
  await setKeyExpiryPolicy(owner.accountId, true);
  await expect(createApiKey(owner, { name: 'forever', scope: 'read-only' })).rejects.toMatchObject({
    appCode: 'VALIDATION_ERROR',
    extras: {
      errors: [
        expect.objectContaining({ pointer: '#/expiresAt', detail: expect.stringContaining('requires an expiry') }),
      ],
    },
  });
  expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(0);
  await expect(
    createApiKey(owner, { name: 'ninety days', scope: 'read-only', expiresAt: inDays(90) }),
  ).resolves.toMatchObject({ key: { name: 'ninety days' } });
  await setKeyExpiryPolicy(owner.accountId, false);
  await expect(createApiKey(owner, { name: 'forever', scope: 'read-only' })).resolves.toMatchObject({
    key: { expiresAt: null },
  });
});
