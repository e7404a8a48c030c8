// Tracked apps over HTTP with real keys: isolation between accounts, path validation, routing problems.
import { expect, test } from '@playwright/test';
import {
  API,
  bearer,
  createKey,
  DEMO,
  DEMO_APP_ID,
  DEMO_PLAY_APP_ID,
  expectProblem,
  OTHER,
  OTHER_APP_ID,
  signIn,
} from '../helpers';

let demoKey: string;
let otherKey: string;

test.beforeAll(async () => {
  demoKey = await createKey(await signIn(DEMO.email, DEMO.password), 'read-write', 'apps spec');
  otherKey = await createKey(await signIn(OTHER.email, OTHER.password), 'read-write', 'apps spec');
});

test('GET /apps lists exactly the account’s own apps as a JSON array', async ({ request }) => {
  const response = await request.get(`${API}/apps`, { headers: bearer(demoKey) });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/json/);
  expect(response.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const apps = await response.json();
  expect(apps.map((app: { id: string }) => app.id)).toEqual(expect.arrayContaining([DEMO_APP_ID, DEMO_PLAY_APP_ID]));
  expect(apps).toHaveLength(3);
  expect(new Set(apps.map((app: { store: string }) => app.store))).toEqual(new Set(['app_store', 'google_play']));
  expect(apps.some((app: { id: string }) => app.id === OTHER_APP_ID)).toBe(false);

  const others = await (await request.get(`${API}/apps`, { headers: bearer(otherKey) })).json();
  expect(others.map((app: { id: string }) => app.id)).toEqual([OTHER_APP_ID]);
});

test('GET /apps/{id} answers the app with its documented fields', async ({ request }) => {
  const response = await request.get(`${API}/apps/${DEMO_PLAY_APP_ID}`, { headers: bearer(demoKey) });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({
    id: DEMO_PLAY_APP_ID,
    store: 'google_play',
    storeId: 'com.calmlabs.breathe',
    storeUrl: 'https://play.google.com/store/apps/details?id=com.calmlabs.breathe',
    primaryCountry: 'US',
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  });
});

test('an app of another account is 404, indistinguishable from an unknown id, for reads and writes', async ({
  request,
}) => {
  const crossAccount = await expectProblem(
    await request.get(`${API}/apps/${OTHER_APP_ID}`, { headers: bearer(demoKey) }),
    404,
    'not-found',
  );
  const unknown = await expectProblem(
    await request.get(`${API}/apps/00000000-0000-4000-8000-000000000000`, { headers: bearer(demoKey) }),
    404,
    'not-found',
  );
  expect(crossAccount.detail).toBe(unknown.detail);
  await expectProblem(await request.get(`${API}/apps/${DEMO_APP_ID}`, { headers: bearer(otherKey) }), 404, 'not-found');
  await expectProblem(
    await request.post(`${API}/apps/${OTHER_APP_ID}/keywords`, {
      headers: bearer(demoKey),
      data: { terms: ['stolen'] },
    }),
    404,
    'not-found',
  );
  // The other account's app is unchanged.
  const theirs = await (await request.get(`${API}/apps/${OTHER_APP_ID}`, { headers: bearer(otherKey) })).json();
  expect(theirs.trackedKeywords).toBe(2);
});

test('a malformed id is a 400 validation problem located in the path', async ({ request }) => {
  const body = await expectProblem(
    await request.get(`${API}/apps/not-a-uuid`, { headers: bearer(demoKey) }),
    400,
    'validation-error',
  );
  expect(body.errors).toEqual([{ in: 'path', name: 'id', detail: expect.any(String) }]);
});

test('unknown paths are 404 and wrong methods 405 with Allow', async ({ request }) => {
  await expectProblem(await request.get(`${API}/nothing-here`, { headers: bearer(demoKey) }), 404, 'not-found');
  const response = await request.delete(`${API}/apps/${DEMO_APP_ID}`, { headers: bearer(demoKey) });
  await expectProblem(response, 405, 'method-not-allowed');
  expect(response.headers()['allow']).toBe('GET, HEAD, OPTIONS');
  const put = await request.put(`${API}/apps/${DEMO_APP_ID}/keywords`, { headers: bearer(demoKey), data: {} });
  await expectProblem(put, 405, 'method-not-allowed');
  expect(put.headers()['allow']).toContain('POST');
});
