// Issue 18 §6: text PostgreSQL cannot store (NUL) or UTF-8 cannot encode (an unpaired surrogate) answered 500, and a
// keyword with an unpaired surrogate was stored, its event recorded and its history filled before the 500. A store
// address with a malformed percent-escape answered 500 too. Every text input of the API and the dashboard now answers
// 400 with where the value is, and a failed call stores nothing.
import { describe, expect, it } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { makeAccount, makeApp } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';

const ORIGIN = 'http://text.test';

async function world() {
  const owner = await makeAccount('pro');
  const app = await makeApp(owner.accountId);
  const { secret } = await createApiKey(owner, { name: 'text', scope: 'read-write' });
  const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
  return { owner, app, secret, cookie: `next-auth.session-token=${token}` };
}

const post = (path: string, secret: string, body: string) =>
  callPublicApi(
    new Request(`${ORIGIN}/api/public/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body,
    }),
  );

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as {
    status: number;
    errors?: { in: string; pointer?: string; name?: string; detail: string }[];
  };
}

describe('unrepresentable text', () => {
  it('in a body: 400 with its pointer, and nothing stored', async () => {
    const { owner, app, secret } = await world();
    for (const term of ['a\u0000b', '\ud800x', 'x\udc00', 'ok\ud83d']) {
      const response = await post(`/apps/${app.id}/keywords`, secret, JSON.stringify({ terms: ['fine', term] }));
      expect(response.status, JSON.stringify(term)).toBe(400);
      expect((await problemOf(response)).errors).toEqual([
        { in: 'body', pointer: '#/terms/1', detail: expect.stringMatching(/NUL|surrogate/) },
      ]);
    }
    // A well-formed pair is text like any other.
    expect(
      (await post(`/apps/${app.id}/keywords`, secret, JSON.stringify({ terms: ['sleep \ud83d\ude34'] }))).status,
    ).toBe(200);
    expect((await db.trackedKeyword.findMany({ where: { appId: app.id } })).map((row) => row.term)).toEqual([
      'sleep \ud83d\ude34',
    ]);
    expect(await db.domainEvent.count({ where: { accountId: owner.accountId, type: 'keyword.added' } })).toBe(1);
    expect(await db.creditLedger.count({ where: { accountId: owner.accountId } })).toBe(1);
  });

  it('in a query: 400 naming the parameter, nothing charged', async () => {
    const { owner, app, secret } = await world();
    for (const term of ['a%00b', '%ED%A0%80x', 'x%C0']) {
      const response = await callPublicApi(
        new Request(`${ORIGIN}/api/public/v1/apps/${app.id}/keywords/research?term=${term}`, {
          headers: { Authorization: `Bearer ${secret}` },
        }),
      );
      expect(response.status, term).toBe(400);
      expect((await problemOf(response)).errors?.[0]).toMatchObject({ in: 'query', name: 'term' });
    }
    expect(await db.creditLedger.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  it('a store address with a malformed percent-escape: 400, nothing stored', async () => {
    const { app, secret } = await world();
    const response = await post(
      `/apps/${app.id}/competitors`,
      secret,
      JSON.stringify({ storeUrl: 'https://apps.apple.com/us/app/%E0%A4%A/id123' }),
    );
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]).toMatchObject({ in: 'body', pointer: '#/storeUrl' });
    expect(await db.competitor.count({ where: { appId: app.id } })).toBe(0);
  });

  it('in a dashboard call: 400 with its pointer, nothing stored', async () => {
    const { owner, cookie } = await world();
    const call = (path: string, input: unknown) =>
      handleDashboardTrpcRequest(
        new Request(`${ORIGIN}/api/trpc/${path}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        }),
      );
    const refused = [
      await call('apiKeys.create', { name: 'ci\u0000', scope: 'read-only' }),
      await call('webhooks.create', { url: 'https://example.com/hook', description: '\udfff' }),
      await call('account.signUp', { email: `new\u0000${owner.email}`, password: 'correct horse battery' }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { data: { problem: { errors: { pointer: string }[] } } } };
      expect(body.error.data.problem.errors[0]!.pointer).toMatch(/^#\/(name|description|email)$/);
    }
    expect(await db.apiKey.count({ where: { accountId: owner.accountId, name: { startsWith: 'ci' } } })).toBe(0);
    expect(await db.webhookEndpoint.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  it('deeply nested input is refused, not walked into a stack overflow', async () => {
    const { app, secret } = await world();
    const deep = `{"terms":["a"],"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const refused = await post(`/apps/${app.id}/keywords`, secret, deep);
    expect(refused.status).toBe(400);
    expect((await problemOf(refused)).errors?.[0]?.detail).toMatch(/more than 32 levels/);
    // With an Idempotency-Key too, whose request hash reads the whole value.
    const keyed = await callPublicApi(
      new Request(`${ORIGIN}/api/public/v1/apps/${app.id}/keywords`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'deep' },
        body: `{"terms":["a"],"x":${'['.repeat(31)}"[[[{{"${']'.repeat(31)}}`,
      }),
    );
    expect(keyed.status).toBe(400);
  });
});
