// Issue 18 §8: documented bounds on what one account or client address can create or trigger, each refused with its
// own problem before anything is stored, and exact under concurrency where it counts rows.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { db } from '@/server/db';
import { createApiKey, MAX_ACTIVE_KEYS, revokeApiKey } from '@/server/services/api-keys/api-keys';
import {
  createWebhookEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
  redeliver,
  sendTestEvent,
  TEST_DELIVERIES_PER_MINUTE,
} from '@/server/services/webhooks/endpoints';
import { SIGN_UPS_PER_ADDRESS } from '@/server/services/accounts/sign-up-limit';
import { makeAccount } from '../../../test/factories';

beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
});
afterAll(() => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
});

/** Of calls raced for a cap's last places, exactly `count` were refused, each with the cap's problem. */
function expectCapRefusals(
  results: PromiseSettledResult<unknown>[],
  count: number,
  cap: { cap: string; limit: number },
) {
  const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  expect(refused).toHaveLength(count);
  for (const { reason } of refused) expect(reason).toMatchObject({ appCode: 'LIMIT_REACHED', extras: cap });
}

describe('active API keys per account', () => {
  it(`are at most ${MAX_ACTIVE_KEYS}, however many race for the last places; a revoked key frees its place`, async () => {
    const owner = await makeAccount('pro');
    for (let index = 0; index < MAX_ACTIVE_KEYS - 5; index++)
      await createApiKey(owner, { name: `k${index}`, scope: 'read-only' });
    // Ten at once for the last five places.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => createApiKey(owner, { name: `last ${index}`, scope: 'read-only' })),
    );
    expectCapRefusals(results, 5, { cap: 'active-api-keys', limit: MAX_ACTIVE_KEYS });
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(MAX_ACTIVE_KEYS);
    const first = await db.apiKey.findFirstOrThrow({ where: { accountId: owner.accountId } });
    await revokeApiKey(owner.accountId, first.id);
    await expect(createApiKey(owner, { name: 'after revoke', scope: 'read-only' })).resolves.toBeDefined();
  });
});

describe('webhook endpoints per account', () => {
  it(`are at most ${MAX_WEBHOOK_ENDPOINTS}, however many race for the last places`, async () => {
    const owner = await makeAccount('pro');
    const create = (name: string) => createWebhookEndpoint(owner.accountId, { url: `http://127.0.0.1:9/${name}` });
    for (let index = 0; index < MAX_WEBHOOK_ENDPOINTS - 4; index++) await create(`hook-${index}`);
    // Eight at once for the last four places: fewer than the pool's connections, so that none waits for one (a
    // transaction that waits longer than a request does is a 503, and on a loaded machine sixteen at once outwaited
    // it).
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, index) => create(`last-${index}`)));
    expectCapRefusals(results, 4, { cap: 'webhook-endpoints', limit: MAX_WEBHOOK_ENDPOINTS });
    expect(await db.webhookEndpoint.count({ where: { accountId: owner.accountId } })).toBe(MAX_WEBHOOK_ENDPOINTS);
  });
});

describe('test events and redeliveries', () => {
  it(`are at most ${TEST_DELIVERIES_PER_MINUTE} a minute per endpoint, together`, async () => {
    const owner = await makeAccount('pro');
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hook' });
    const { endpoint: other } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/other' });
    const { deliveryId } = await sendTestEvent(owner, endpoint.id);
    for (let sent = 1; sent < TEST_DELIVERIES_PER_MINUTE; sent++) {
      if (sent % 2) await redeliver(owner.accountId, deliveryId);
      else await sendTestEvent(owner, endpoint.id);
    }
    const before = await db.webhookDelivery.count({ where: { endpointId: endpoint.id } });
    await expect(sendTestEvent(owner, endpoint.id)).rejects.toMatchObject({
      appCode: 'RATE_LIMITED',
      headers: { 'Retry-After': expect.any(String) },
    });
    await expect(redeliver(owner.accountId, deliveryId)).rejects.toMatchObject({ appCode: 'RATE_LIMITED' });
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(before);
    // Another endpoint has its own count.
    await expect(sendTestEvent(owner, other.id)).resolves.toBeDefined();
  });
});

describe('sign-ups per client address', () => {
  it(`are at most ${SIGN_UPS_PER_ADDRESS.signUps} an hour; another address is not held up`, async () => {
    const signUp = (address: string) =>
      handleDashboardTrpcRequest(
        new Request('http://signup.test/api/trpc/account.signUp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ email: `new-${randomUUID()}@example.test`, password: 'correct horse battery' }),
        }),
      );
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    for (let index = 0; index < SIGN_UPS_PER_ADDRESS.signUps; index++) expect((await signUp(address)).status).toBe(200);
    const refused = await signUp(address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signUp('203.0.113.77')).status).toBe(200);
  });
});
