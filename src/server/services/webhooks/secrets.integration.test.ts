// Webhook signing secrets at rest: no table of the database holds one in a readable form, deliveries still sign with
// it, a rotation of the data-encryption key (the new key current, the old one previous, then `secrets reseal`) keeps
// them verifying, and a secret stored in the clear before sealing existed is sealed at start. The stored answers of
// Idempotency-Key requests, which may hold a new key's or endpoint's secret, are sealed too, and so are the OAuth
// records' secrets and the store accounts' credentials, which the reseal puts under a new key as well.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resealOAuthRecords } from '@/server/db/oauth-records';
import { OAuthAdapter } from '@/server/oauth/oauth-adapter';
import { signingKeys } from '@/server/oauth/signing-keys';
import { generateDataKey, isSealed, seal, sealedWith, currentDataKeyId } from '@/server/core/data-encryption';
import { resealStoreAccounts, storeAccountCredential } from '@/server/services/store-accounts/store-accounts';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { databaseAsText } from '../../../../test/database-text';
import { callPublicApi } from '../../../../test/public-api';
import { makeAccount } from '../../../../test/factories';
import { attemptDelivery } from './delivery';
import { createWebhookEndpoint, sendTestEvent } from './endpoints';
import { sealStoredSecrets } from './secrets';
import { verifySignature } from './signing';

const received: { body: string; signature: string }[] = [];
let server: http.Server;
let url: string;
const saved = {
  WEBHOOKS_ALLOW_HTTP_LOCALHOST: process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST,
  DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY,
};

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ body, signature: String(request.headers['x-service-signature']) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = saved.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
  process.env.DATA_ENCRYPTION_KEY = saved.DATA_ENCRYPTION_KEY;
  delete process.env.DATA_ENCRYPTION_PREVIOUS_KEYS;
  await new Promise((resolve) => server.close(resolve));
});

/** Every row of every table of the database as text: what a dump of it holds. */
/** Sends a test event to the endpoint now and returns whether its signature verifies with `secret`. */
async function deliveredAndVerified(accountId: string, endpointId: string, secret: string): Promise<boolean> {
  const { deliveryId } = await sendTestEvent({ accountId: accountId, mode: 'live' }, endpointId);
  expect(await attemptDelivery(deliveryId, 1)).toMatchObject({ status: 'succeeded' });
  const delivery = received.at(-1)!;
  return verifySignature(delivery.signature, delivery.body, secret).ok;
}

describe('webhook secrets at rest', () => {
  it('are in no table in a readable form, and deliveries still verify with them', async () => {
    const owner = await makeAccount('pro');
    const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, { url });
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(isSealed(stored.secret)).toBe(true);
    expect(sealedWith(stored.secret)).toBe(currentDataKeyId());
    const dump = await databaseAsText();
    expect(dump).toContain(endpoint.id);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(secret.slice(6, 30));
    expect(await deliveredAndVerified(owner.accountId, endpoint.id, secret)).toBe(true);
  });

  it('are in no table either when made over the public API with an Idempotency-Key, whose stored answer holds them (sealed), and the retry answers them again', async () => {
    const owner = await makeAccount('pro');
    const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
    const session = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
    const post = (path: string, body: unknown) =>
      callPublicApi(
        new Request(`http://api.test/api/public/v1${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${session}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': `${path}-${owner.accountId}`,
          },
          body: JSON.stringify(body),
        }),
      );
    const endpoint = (await (await post('/webhook-endpoints', { url })).json()) as { secret: string };
    const key = (await (await post('/keys', { name: 'idempotent', scope: 'read-only' })).json()) as { secret: string };
    const dump = await databaseAsText();
    for (const secret of [endpoint.secret, key.secret]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(9, 33));
    }
    expect(
      ((await (await post('/keys', { name: 'idempotent', scope: 'read-only' })).json()) as { secret: string }).secret,
    ).toBe(key.secret);
    expect(((await (await post('/webhook-endpoints', { url })).json()) as { secret: string }).secret).toBe(
      endpoint.secret,
    );
  });

  it('keep verifying through a rotation of the data-encryption key: the old key previous, then every secret resealed', async () => {
    const owner = await makeAccount('pro');
    const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, { url });
    const oldKey = process.env.DATA_ENCRYPTION_KEY!;
    const oldId = currentDataKeyId();
    // 1. The new key current, the old one previous: what the old one sealed still opens.
    process.env.DATA_ENCRYPTION_KEY = generateDataKey();
    process.env.DATA_ENCRYPTION_PREVIOUS_KEYS = oldKey;
    expect(currentDataKeyId()).not.toBe(oldId);
    expect(await deliveredAndVerified(owner.accountId, endpoint.id, secret)).toBe(true);
    // 2. `npm run admin -- secrets reseal`.
    expect(await sealStoredSecrets()).toBeGreaterThanOrEqual(1);
    expect(sealedWith((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret)).toBe(
      currentDataKeyId(),
    );
    expect(await db.webhookEndpoint.count({ where: { secret: { startsWith: `v1.${oldId}.` } } })).toBe(0);
    // 3. The old key removed: still verifying.
    delete process.env.DATA_ENCRYPTION_PREVIOUS_KEYS;
    expect(await deliveredAndVerified(owner.accountId, endpoint.id, secret)).toBe(true);
    expect(await sealStoredSecrets()).toBe(0);
  });

  it('reseal puts the OAuth records’ secrets (signing keys, tokens’ and clients’ secrets) under the new key too', async () => {
    const keys = await signingKeys();
    const tokens = new OAuthAdapter('AccessToken');
    await tokens.upsert('token-value-of-the-rotation', { jti: 'token-value-of-the-rotation', grantId: 'g' }, 3600);
    const oldKey = process.env.DATA_ENCRYPTION_KEY!;
    process.env.DATA_ENCRYPTION_KEY = generateDataKey();
    process.env.DATA_ENCRYPTION_PREVIOUS_KEYS = oldKey;
    expect(await resealOAuthRecords()).toBeGreaterThanOrEqual(2);
    delete process.env.DATA_ENCRYPTION_PREVIOUS_KEYS;
    expect((await signingKeys()).map((key) => key.d)).toEqual(keys.map((key) => key.d));
    expect(await tokens.find('token-value-of-the-rotation')).toMatchObject({ jti: 'token-value-of-the-rotation' });
    expect(await resealOAuthRecords()).toBe(0);
  });

  // Here, on a database of its own: a reseal rewrites every account's store account, which another file's process
  // (holding the old key only) could then no longer open.
  it('reseal puts the store accounts’ credentials under the new key too, still opening them', async () => {
    const owner = await makeAccount('pro');
    const credential = JSON.stringify({
      issuerId: 'issuer',
      keyId: 'KEY1234567',
      privateKey: 'the .p8 of the rotation',
    });
    await db.storeAccount.create({
      data: {
        accountId: owner.accountId,
        store: 'app_store',
        label: 'Key KEY1234567 of issuer issuer',
        credential: seal(credential),
        lastCheckedAt: new Date(),
      },
    });
    const oldKey = process.env.DATA_ENCRYPTION_KEY!;
    process.env.DATA_ENCRYPTION_KEY = generateDataKey();
    process.env.DATA_ENCRYPTION_PREVIOUS_KEYS = oldKey;
    expect(await resealStoreAccounts()).toBeGreaterThanOrEqual(1);
    delete process.env.DATA_ENCRYPTION_PREVIOUS_KEYS;
    expect(await storeAccountCredential(owner.accountId, 'app_store')).toEqual(JSON.parse(credential));
    expect(await resealStoreAccounts()).toBe(0);
  });

  it('seals a secret stored in the clear (before sealing existed), as the start does', async () => {
    const owner = await makeAccount('pro');
    const legacy = 'whsec_legacyLegacyLegacyLegacyLegacy0123';
    const endpoint = await db.webhookEndpoint.create({ data: { accountId: owner.accountId, url, secret: legacy } });
    expect(await sealStoredSecrets({ onlyUnsealed: true })).toBeGreaterThanOrEqual(1);
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(isSealed(stored.secret)).toBe(true);
    expect(await deliveredAndVerified(owner.accountId, endpoint.id, legacy)).toBe(true);
  });
});
