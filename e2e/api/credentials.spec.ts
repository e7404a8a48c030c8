// Step 1 of the pipeline over HTTP: every way a credential can fail is a 401 problem with the right challenge.
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, DEMO, expectProblem, signIn, trpc } from '../helpers';

test.describe('401 unauthorized', () => {
  test('no credential: challenge without error', async ({ request }) => {
    const response = await request.get(`${API}/apps`);
    await expectProblem(response, 401, 'unauthorized');
    expect(response.headers()['www-authenticate']).toBe('Bearer realm="public-api"');
  });

  const bad: [string, string][] = [
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer of rubbish', 'Bearer not-a-key'],
    ['a key with a bad checksum', 'Bearer svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA000000'],
    ['a well-formed key never issued', 'Bearer svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k'],
    ['a JWT-shaped token that is not ours', 'Bearer eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC'],
  ];
  for (const [name, header] of bad) {
    test(`${name}: invalid_token challenge`, async ({ request }) => {
      const response = await request.get(`${API}/apps`, { headers: { Authorization: header } });
      await expectProblem(response, 401, 'unauthorized');
      expect(response.headers()['www-authenticate']).toBe('Bearer realm="public-api", error="invalid_token"');
    });
  }

  test('the credential is checked before the route, the method and the body', async ({ request }) => {
    await expectProblem(await request.get(`${API}/no-such-endpoint`), 401, 'unauthorized');
    await expectProblem(await request.delete(`${API}/apps`), 401, 'unauthorized');
    await expectProblem(
      await request.post(`${API}/apps/00000000-0000-4000-8000-000000000000/keywords`, {
        headers: { 'Content-Type': 'text/plain' },
        data: 'x',
      }),
      401,
      'unauthorized',
    );
  });

  test('a revoked key never authenticates again', async ({ request }) => {
    const session = await signIn(DEMO.email, DEMO.password);
    const secret = await createKey(session, 'read-only', 'to revoke');
    expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);
    const keys = await (await session.context.get('/api/trpc/apiKeys.list')).json();
    const key = keys.result.data.find(
      (k: { displayPrefix: string; lastFour: string }) =>
        secret.startsWith(k.displayPrefix) && secret.endsWith(k.lastFour),
    );
    await trpc(session, 'apiKeys.revoke', { keyId: key.id });
    const response = await request.get(`${API}/apps`, { headers: bearer(secret) });
    const body = await expectProblem(response, 401, 'unauthorized');
    expect(body.detail).toMatch(/revoked/);
  });

  test('the dashboard session token is a Bearer credential, until sign-out', async ({ request }) => {
    const session = await signIn(DEMO.email, DEMO.password);
    const ok = await request.get(`${API}/apps`, { headers: bearer(session.token) });
    expect(ok.status()).toBe(200);
    const tampered = session.token.slice(0, -3) + (session.token.endsWith('AAA') ? 'BBB' : 'AAA');
    await expectProblem(await request.get(`${API}/apps`, { headers: bearer(tampered) }), 401, 'unauthorized');

    const { csrfToken } = await (await session.context.get('/api/auth/csrf')).json();
    await session.context.post('/api/auth/signout', { form: { csrfToken, json: 'true' } });
    await expectProblem(await request.get(`${API}/apps`, { headers: bearer(session.token) }), 401, 'unauthorized');
  });

  test('every problem type URI serves a human page', async ({ request }) => {
    const response = await request.get(`${API}/apps`);
    const { type } = await response.json();
    const page = await request.get(type);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain('Authentication required');
  });
});
