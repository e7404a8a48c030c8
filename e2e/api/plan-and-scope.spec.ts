// Steps 2 and 3: a paid plan, then the key's scope.
import { expect, test } from '@playwright/test';
import { admin, API, bearer, createKey, DEMO_APP_ID, expectProblem, newAccount, trpcQuery } from '../helpers';

test('a Free account cannot create keys, and its session token gets 403 plan-required', async ({ request }) => {
  const { session } = await newAccount('free');
  const refused = await session.context.post('/api/trpc/apiKeys.create', { data: { name: 'x', scope: 'read-only' } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.data.problem.code).toBe('PLAN_REQUIRED');
  await expectProblem(await request.get(`${API}/apps`, { headers: bearer(session.token) }), 403, 'plan-required');
});

test('a downgrade to Free stops API access at once; an upgrade restores it', async ({ request }) => {
  const { email, session } = await newAccount('solo');
  const secret = await createKey(session, 'read-write');
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);
  await admin('plan', 'set', '--email', email, '--plan', 'free');
  const body = await expectProblem(await request.get(`${API}/apps`, { headers: bearer(secret) }), 403, 'plan-required');
  expect(body.detail).toMatch(/paid plan/);
  // Plan is checked before scope and body.
  await expectProblem(
    await request.post(`${API}/apps/${DEMO_APP_ID}/keywords`, {
      headers: { ...bearer(secret), 'Content-Type': 'text/plain' },
      data: 'x',
    }),
    403,
    'plan-required',
  );
  await admin('plan', 'set', '--email', email, '--plan', 'enterprise');
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);
  const account = await trpcQuery<{ plan: { label: string; monthlyCredits: number | null } }>(session, 'account.get');
  expect(account.plan).toMatchObject({ label: 'Enterprise', monthlyCredits: null });
});

test('a read-only key reads but gets 403 insufficient-scope on a write, before any body check', async ({ request }) => {
  const { session } = await newAccount('pro');
  const readOnly = await createKey(session, 'read-only');
  expect((await request.get(`${API}/apps`, { headers: bearer(readOnly) })).status()).toBe(200);
  const apps = await (await request.get(`${API}/apps`, { headers: bearer(readOnly) })).json();
  expect(apps).toEqual([]);

  for (const [contentType, data] of [
    ['application/json', { terms: ['x'] }],
    ['text/plain', 'not json'],
    ['application/json', '{broken'],
  ] as const) {
    const response = await request.post(`${API}/apps/${DEMO_APP_ID}/keywords`, {
      headers: { ...bearer(readOnly), 'Content-Type': contentType },
      data,
    });
    await expectProblem(response, 403, 'insufficient-scope');
    expect(response.headers()['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="write"');
  }
});
