// The settings procedures on the public API, over HTTP with a session token only (the owner's script or CI): a key
// made, used, restricted, rolled and revoked; a webhook endpoint made, tested against a local receiver, its secret
// rotated, its deliveries read, deleted. API keys manage neither, and each change is in the security log as the API.
import { expect, test } from '@playwright/test';
import { verifySignature } from '../../src/server/services/webhooks/signing';
import {
  admin,
  API,
  bearer,
  expectProblem,
  newAccount,
  startWebhookReceiver,
  trpcQuery,
  type Session,
} from '../helpers';

const APP_URLS = [
  'https://apps.apple.com/us/app/focus-timer/id1500000001',
  'https://apps.apple.com/us/app/habit-loop/id1500000002',
];

interface Key {
  id: string;
  status: string;
  restrictions: { appIds: string[] | null };
}

async function securityLogActors(session: Session): Promise<Map<string, string[]>> {
  const input = encodeURIComponent(JSON.stringify({ pageSize: 200 }));
  const { entries } = await trpcQuery<{ entries: { kind: string; actor: string }[] }>(
    session,
    `securityLog.list?input=${input}`,
  );
  const actors = new Map<string, string[]>();
  for (const entry of entries) actors.set(entry.kind, [...(actors.get(entry.kind) ?? []), entry.actor]);
  return actors;
}

test('a key over REST with a session token: created once, used, restricted, rolled, revoked; keys manage no keys', async ({
  request,
}) => {
  const { email, session } = await newAccount('pro');
  const appIds: string[] = [];
  for (const url of APP_URLS) appIds.push(await admin('app', 'add', '--email', email, '--url', url));
  const owner = bearer(session.token);

  // 1. Created, with an Idempotency-Key: the retry answers the same key, and the account has one.
  const idempotencyKey = crypto.randomUUID();
  const create = () =>
    request.post(`${API}/keys`, {
      headers: { ...owner, 'Idempotency-Key': idempotencyKey },
      data: { name: 'from CI', scope: 'read-only' },
    });
  const created = await create();
  expect(created.status(), await created.text()).toBe(200);
  expect(created.headers()['x-credits-cost']).toBe('0');
  const { key, secret } = (await created.json()) as { key: Key; secret: string };
  const retried = await create();
  expect(retried.headers()['idempotent-replayed']).toBe('true');
  expect(((await retried.json()) as { key: Key }).key.id).toBe(key.id);
  const listed = (await (await request.get(`${API}/keys`, { headers: owner })).json()) as (Key & { name: string })[];
  expect(listed.filter((each) => each.name === 'from CI')).toHaveLength(1);
  expect(JSON.stringify(listed)).not.toContain(secret);

  // 2. Used.
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);

  // A key, whatever its scope, manages no key and no endpoint: a leaked key never mints another.
  const refused = await expectProblem(
    await request.post(`${API}/keys`, { headers: bearer(secret), data: { name: 'minted', scope: 'read-write' } }),
    403,
    'insufficient-scope',
  );
  expect(refused.detail).toContain('API keys cannot manage keys or webhook endpoints');
  await expectProblem(
    await request.get(`${API}/webhook-endpoints`, { headers: bearer(secret) }),
    403,
    'insufficient-scope',
  );

  // 3. Restricted to one app: the other is a 404, as another account's app.
  const restricted = await request.patch(`${API}/keys/${key.id}`, {
    headers: owner,
    data: { restrictions: { appIds: [appIds[0]] } },
  });
  expect(((await restricted.json()) as Key).restrictions.appIds).toEqual([appIds[0]]);
  expect((await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(secret) })).status()).toBe(200);
  await expectProblem(await request.get(`${API}/apps/${appIds[1]}`, { headers: bearer(secret) }), 404, 'not-found');

  // 4. Rolled with an hour's grace: both secrets work meanwhile.
  const rolled = (await (
    await request.post(`${API}/keys/${key.id}/roll`, { headers: owner, data: { gracePeriod: '1h' } })
  ).json()) as { key: Key; secret: string };
  expect((await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(secret) })).status()).toBe(200);
  expect((await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(rolled.secret) })).status()).toBe(200);
  expect(rolled.key.restrictions.appIds).toEqual([appIds[0]]);

  // 5. Revoked (the new key, then the old one before its grace ends, with no body at all): the next request is 401.
  const revoked = await request.post(`${API}/keys/${rolled.key.id}/revoke`, { headers: owner });
  expect(((await revoked.json()) as Key).status).toBe('revoked');
  await expectProblem(await request.get(`${API}/apps`, { headers: bearer(rolled.secret) }), 401, 'unauthorized');
  await request.post(`${API}/keys/${key.id}/revoke`, { headers: owner });
  await expectProblem(await request.get(`${API}/apps`, { headers: bearer(secret) }), 401, 'unauthorized');

  // Another account's session finds none of it.
  const { session: stranger } = await newAccount('pro');
  await expectProblem(
    await request.get(`${API}/keys/${key.id}`, { headers: bearer(stranger.token) }),
    404,
    'not-found',
  );
  await expectProblem(
    await request.post(`${API}/keys/${key.id}/revoke`, { headers: bearer(stranger.token) }),
    404,
    'not-found',
  );

  // Every change is in the security log, made by the API with the owner's session.
  const actors = await securityLogActors(session);
  for (const kind of ['api_key.created', 'api_key.restricted', 'api_key.rolled', 'api_key.revoked']) {
    expect(actors.get(kind), kind).toContain(`API (session): ${email}`);
  }
  expect(actors.get('api_key.created')).toHaveLength(1);
});

test('a webhook endpoint over REST with a session token: a signed test event received and verified, the secret rotated, the deliveries read, deleted', async ({
  request,
}) => {
  const receiver = await startWebhookReceiver();
  const { received } = receiver;
  const url = receiver.url('/hooks/rest');
  try {
    const { email, session } = await newAccount('pro');
    const owner = bearer(session.token);

    // 1. Created: pointing at a local receiver (the development setting the e2e server runs with).
    const created = await request.post(`${API}/webhook-endpoints`, {
      headers: owner,
      data: { url, description: 'over REST', eventTypes: ['webhook.test'] },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { endpoint, secret } = (await created.json()) as { endpoint: { id: string; url: string }; secret: string };
    expect(endpoint.url).toBe(url);
    // The SSRF rules of the dashboard apply: a private address is refused, and nothing changes.
    const privateUrl = await expectProblem(
      await request.patch(`${API}/webhook-endpoints/${endpoint.id}`, {
        headers: owner,
        data: { url: 'https://10.1.2.3/hook' },
      }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(privateUrl.errors)).toContain('#/url');
    expect(
      (
        (await (await request.get(`${API}/webhook-endpoints/${endpoint.id}`, { headers: owner })).json()) as {
          url: string;
        }
      ).url,
    ).toBe(url);

    // 2. A test event, signed: verified with the secret.
    expect(
      (await request.post(`${API}/webhook-endpoints/${endpoint.id}/test-events`, { headers: owner })).status(),
    ).toBe(200);
    await expect.poll(() => received.length).toBe(1);
    expect(
      verifySignature(String(received[0]!.headers['x-service-signature']), received[0]!.body, secret),
    ).toMatchObject({ ok: true });

    // 3. Rotated: the next delivery verifies with the new secret (and, for a day, with the old one too).
    const rotated = (await (
      await request.post(`${API}/webhook-endpoints/${endpoint.id}/rotate-secret`, { headers: owner })
    ).json()) as { secret: string };
    expect(rotated.secret).not.toBe(secret);
    await request.post(`${API}/webhook-endpoints/${endpoint.id}/test-events`, { headers: owner });
    await expect.poll(() => received.length).toBe(2);
    const signatureHeader = String(received[1]!.headers['x-service-signature']);
    expect(verifySignature(signatureHeader, received[1]!.body, rotated.secret)).toMatchObject({ ok: true });
    expect(verifySignature(signatureHeader, received[1]!.body, secret)).toMatchObject({ ok: true });

    // 4. The delivery log: both deliveries, each with its attempt answered 200.
    await expect(async () => {
      const deliveries = (await (
        await request.get(`${API}/webhook-endpoints/${endpoint.id}/deliveries`, { headers: owner })
      ).json()) as { status: string; attempts: { statusCode: number }[] }[];
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded']);
      expect(deliveries.every((delivery) => delivery.attempts[0]?.statusCode === 200)).toBe(true);
    }).toPass({ timeout: 30_000 });
    const listed = await (await request.get(`${API}/webhook-endpoints`, { headers: owner })).text();
    for (const shown of [secret, rotated.secret]) expect(listed).not.toContain(shown);

    // 5. Deleted, with no body at all: gone.
    expect((await request.delete(`${API}/webhook-endpoints/${endpoint.id}`, { headers: owner })).status()).toBe(200);
    await expectProblem(
      await request.get(`${API}/webhook-endpoints/${endpoint.id}`, { headers: owner }),
      404,
      'not-found',
    );

    const actors = await securityLogActors(session);
    for (const kind of ['webhook_endpoint.created', 'webhook_endpoint.secret_rotated', 'webhook_endpoint.deleted']) {
      expect(actors.get(kind), kind).toEqual([`API (session): ${email}`]);
    }
  } finally {
    await receiver.close();
  }
});
