import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { duringDeletion } from '../../../../test/concurrent-change';
import { makeAccount } from '../../../../test/factories';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from './endpoints';

beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
});
afterAll(() => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
});

describe('webhook endpoints', () => {
  it('belong to their account only', async () => {
    const owner = await makeAccount();
    const stranger = await makeAccount();
    const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, {
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['review.created', 'review.created'],
    });
    expect(endpoint.eventTypes).toEqual(['review.created']);
    const [view] = await listWebhookEndpoints(owner.accountId);
    expect(view).toMatchObject({ id: endpoint.id, secretHint: secret.slice(0, 10) + '…' });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(await listWebhookEndpoints(stranger.accountId)).toEqual([]);
    const { deliveryId } = await sendTestEvent(owner, endpoint.id);
    for (const call of [
      () => sendTestEvent(stranger, endpoint.id),
      () => listDeliveries(stranger.accountId, endpoint.id),
      () => redeliver(stranger.accountId, deliveryId),
      () => setWebhookEndpointEnabled(stranger.accountId, endpoint.id, false),
      () => deleteWebhookEndpoint(stranger.accountId, endpoint.id),
    ]) {
      await expect(call()).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    }
    expect(await db.webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(1);
  });

  it('queue a test event for one endpoint, and a redelivery of the same delivery id', async () => {
    const owner = await makeAccount();
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hook' });
    const { deliveryId } = await sendTestEvent(owner, endpoint.id);
    expect(
      (await listDeliveries(owner.accountId, endpoint.id)).map((delivery) => [
        delivery.id,
        delivery.eventType,
        delivery.requested,
      ]),
    ).toEqual([[deliveryId, 'webhook.test', true]]);
    await db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'failed', requestedAt: null, attempts: 8 },
    });
    await redeliver(owner.accountId, deliveryId);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({
      status: 'pending',
      attempts: 8,
      requestedAt: expect.any(Date),
    });
  });

  it('enabling again clears why the service disabled it', async () => {
    const owner = await makeAccount();
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hook' });
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason: 'failing for 5 days', failingSince: new Date() },
    });
    expect(await setWebhookEndpointEnabled(owner.accountId, endpoint.id, true)).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    await deleteWebhookEndpoint(owner.accountId, endpoint.id);
    expect(await listWebhookEndpoints(owner.accountId)).toEqual([]);
  });
});

describe('an endpoint deleted while it is called', () => {
  it('answers a test event 404 and records no event', async () => {
    const owner = await makeAccount();
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/deleted-meanwhile' });
    const outcome = await duringDeletion('webhook_endpoints', endpoint.id, () => sendTestEvent(owner, endpoint.id));
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    expect(await db.domainEvent.count({ where: { accountId: owner.accountId, type: 'webhook.test' } })).toBe(0);
  });

  it('answers a change or a secret rotation 404, and logs neither', async () => {
    const owner = await makeAccount();
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/deleted-meanwhile' });
    const changed = await duringDeletion('webhook_endpoints', endpoint.id, () =>
      setWebhookEndpointEnabled(owner.accountId, endpoint.id, false),
    );
    expect(changed).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    const again = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/deleted-meanwhile-too' });
    const rotated = await duringDeletion('webhook_endpoints', again.endpoint.id, () =>
      rotateWebhookSecret(owner.accountId, again.endpoint.id),
    );
    expect(rotated).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    const logged = await db.securityEvent.count({
      where: {
        accountId: owner.accountId,
        kind: { in: ['webhook_endpoint.changed', 'webhook_endpoint.secret_rotated'] },
      },
    });
    expect(logged).toBe(0);
  });

  it('answers a redelivery 404', async () => {
    const owner = await makeAccount();
    const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/deleted-meanwhile' });
    const { deliveryId } = await sendTestEvent(owner, endpoint.id);
    const outcome = await duringDeletion('webhook_endpoints', endpoint.id, () =>
      redeliver(owner.accountId, deliveryId),
    );
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
  });
});
