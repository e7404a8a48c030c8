// A key's restrictions through the public API over HTTP: its apps (others answered 404 as another account's, the list
// cut to them), its client addresses (403 ip-not-allowed, nothing charged) and its monthly budget (402
// key-budget-exhausted, exact under 200 concurrent calls, the account's other keys unaffected).
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { admin, API, bearer, createKey, expectProblem, newAccount, PlainClient, trpc, type Session } from '../helpers';

const APP_URLS = [
  'https://apps.apple.com/us/app/focus-timer/id1500000001',
  'https://apps.apple.com/us/app/habit-loop/id1500000002',
];

async function accountWithTwoApps() {
  const { session, email } = await newAccount('pro');
  const appIds: string[] = [];
  for (const url of APP_URLS) appIds.push(await admin('app', 'add', '--email', email, '--url', url));
  return { session, appIds };
}

async function restrictedKey(
  session: Session,
  scope: 'read-only' | 'read-write',
  restrictions: Record<string, unknown>,
): Promise<string> {
  const { secret } = await trpc<{ secret: string }>(session, 'apiKeys.create', {
    name: `restricted ${scope}`,
    scope,
    restrictions,
  });
  return secret;
}

async function creditsUsed(request: import('@playwright/test').APIRequestContext, key: string): Promise<number> {
  return (await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()).used;
}

test('a key restricted to one app lists that app only and gets 404 for the others, like another account’s app', async ({
  request,
}) => {
  const { session, appIds } = await accountWithTwoApps();
  const [mine, other] = appIds as [string, string];
  const key = await restrictedKey(session, 'read-write', { appIds: [mine] });
  const wide = await createKey(session, 'read-only', 'every app');

  const list = await request.get(`${API}/apps`, { headers: bearer(key) });
  expect((await list.json()).map((app: { id: string }) => app.id)).toEqual([mine]);
  // Another key of the account still lists both (the answers are not shared through the cache).
  expect(await (await request.get(`${API}/apps`, { headers: bearer(wide) })).json()).toHaveLength(2);
  expect((await request.get(`${API}/apps/${mine}`, { headers: bearer(key) })).status()).toBe(200);

  const before = await creditsUsed(request, wide);
  const refused = await expectProblem(
    await request.get(`${API}/apps/${other}`, { headers: bearer(key) }),
    404,
    'not-found',
  );
  const foreignAccount = await newAccount('pro');
  const foreignKey = await createKey(foreignAccount.session, 'read-only', 'foreign');
  const foreign = await expectProblem(
    await request.get(`${API}/apps/${other}`, { headers: bearer(foreignKey) }),
    404,
    'not-found',
  );
  expect(refused.detail).toBe(foreign.detail);
  await expectProblem(
    await request.post(`${API}/apps/${other}/keywords`, { headers: bearer(key), data: { terms: ['out of reach'] } }),
    404,
    'not-found',
  );
  await expectProblem(await request.get(`${API}/apps/${other}/keywords`, { headers: bearer(key) }), 404, 'not-found');
  // Nothing charged for the refusals; a subset key adds no app.
  expect(await creditsUsed(request, wide)).toBe(before);
  const adding = await expectProblem(
    await request.post(`${API}/apps`, { headers: bearer(key), data: { storeUrl: APP_URLS[0] } }),
    403,
    'insufficient-scope',
  );
  expect(adding.detail).toContain('restricted to chosen apps');

  // The usage's by-key breakdown names the restriction.
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(wide) })).json();
  expect(usage.byKey).toContainEqual(
    expect.objectContaining({
      name: 'restricted read-write',
      restrictions: { appIds: [mine], allowedCidrs: [], monthlyBudget: null },
    }),
  );
});

test('a key restricted to client addresses is refused elsewhere with 403 ip-not-allowed, and nothing is charged', async ({
  request,
}) => {
  const { session, appIds } = await accountWithTwoApps();
  const wide = await createKey(session, 'read-only', 'any address');
  const { key, secret } = await trpc<{ key: { id: string }; secret: string }>(session, 'apiKeys.create', {
    name: 'office only',
    scope: 'read-only',
    restrictions: { allowedCidrs: ['10.0.0.0/8', '2001:db8::/32'] },
  });
  const before = await creditsUsed(request, wide);
  const problem = await expectProblem(
    await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(secret) }),
    403,
    'ip-not-allowed',
  );
  expect(problem).toMatchObject({ clientAddress: '127.0.0.1', allowedCidrs: ['10.0.0.0/8', '2001:db8::/32'] });
  expect(problem.detail).toContain('10.0.0.0/8, 2001:db8::/32');
  expect(await creditsUsed(request, wide)).toBe(before);

  // Edited to take this machine in: served and charged.
  await trpc(session, 'apiKeys.restrict', { keyId: key.id, restrictions: { allowedCidrs: ['127.0.0.0/8', '::1'] } });
  expect((await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(secret) })).status()).toBe(200);
  expect(await creditsUsed(request, wide)).toBe(before + 1);
});

test('a key’s monthly budget is exact under 200 concurrent calls, and the account’s other keys keep working', async ({
  request,
}) => {
  const { session, appIds } = await accountWithTwoApps();
  const budgeted = await restrictedKey(session, 'read-only', { monthlyBudget: 100 });
  const other = await createKey(session, 'read-only', 'unbudgeted');
  const plain = new PlainClient(baseURL);
  const responses = await Promise.all(
    Array.from({ length: 200 }, () => plain.get(`${API}/apps/${appIds[0]}`, { headers: bearer(budgeted) })),
  );
  const statuses = responses.map((response) => response.status());
  expect(statuses.filter((status) => status === 200)).toHaveLength(100);
  expect(statuses.filter((status) => status === 402)).toHaveLength(100);
  const refused = await expectProblem(
    responses.find((response) => response.status() === 402)!,
    402,
    'key-budget-exhausted',
  );
  expect(refused).toMatchObject({
    keyBudget: 100,
    creditsRequired: 1,
    resetsAt: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
  });
  expect(refused.keySpent).toBeGreaterThanOrEqual(100);

  // The other key is unaffected; the account was charged for the 100 successes and that call only.
  expect((await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(other) })).status()).toBe(200);
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(other) })).json();
  expect(usage.used).toBe(101);
  expect(usage.byKey).toContainEqual(
    expect.objectContaining({
      name: 'restricted read-only',
      calls: 100,
      credits: 100,
      restrictions: { appIds: null, allowedCidrs: [], monthlyBudget: 100 },
    }),
  );
  await expectProblem(
    await request.get(`${API}/apps/${appIds[0]}`, { headers: bearer(budgeted) }),
    402,
    'key-budget-exhausted',
  );
});
