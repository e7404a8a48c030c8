// Credits over real HTTP: exact under 300 concurrent requests, on one app process and on two app processes
// sharing one database.
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin, API, bearer, createKey, newAccount } from '../helpers';
import { startSecondApp } from '../environment';

test.describe.configure({ mode: 'serial' });

const SECOND_PORT = 3211;
let second: ChildProcess | undefined;

test.afterAll(() => {
  second?.kill('SIGTERM');
});

/** A Solo account (1,500 credits) tracking one app, with exactly 100 credits left, spent through the API. */
async function accountWithHundredCreditsLeft(request: import('@playwright/test').APIRequestContext) {
  const { session, email } = await newAccount('solo');
  const appId = await admin('app', 'add', '--email', email, '--url', 'https://apps.apple.com/us/app/focus-timer/id1500000001');
  const key = await createKey(session, 'read-write', 'credits spec');
  for (let batch = 0; batch < 7; batch++) {
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => request.get(`${API}/apps/${appId}/keywords/research?term=focus`, { headers: bearer(key) })),
    );
    for (const response of responses) expect(response.status()).toBe(200);
  }
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ limit: 1500, used: 1400, remaining: 100 });
  return { appId, key };
}

async function expectExactlyHundredCharged(request: import('@playwright/test').APIRequestContext, key: string, statuses: number[]) {
  expect(statuses.filter((status) => status === 200)).toHaveLength(100);
  expect(statuses.filter((status) => status === 402)).toHaveLength(200);
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ used: 1500, remaining: 0 });
  const ledgerCredits = usage.byEndpoint.reduce((sum: number, row: { credits: number }) => sum + row.credits, 0);
  expect(ledgerCredits).toBe(usage.used);
  expect(usage.byEndpoint).toEqual(
    expect.arrayContaining([
      { endpoint: 'GET /apps/{id}/keywords/research', calls: 175, credits: 1400 },
      { endpoint: 'GET /apps/{id}', calls: 100, credits: 100 },
    ]),
  );
}

test('one process: 300 concurrent requests with 100 credits left charge exactly 100', async ({ request }) => {
  const { appId, key } = await accountWithHundredCreditsLeft(request);
  const responses = await Promise.all(Array.from({ length: 300 }, () => request.get(`${API}/apps/${appId}`, { headers: bearer(key) })));
  const refused = responses.find((response) => response.status() === 402)!;
  expect(await refused.json()).toMatchObject({ creditsRequired: 1, creditsRemaining: 0 });
  expect(refused.headers()['x-credits-cost']).toBe('0');
  await expectExactlyHundredCharged(request, key, responses.map((response) => response.status()));
});

test('two processes on one database: 300 concurrent requests with 100 credits left charge exactly 100', async ({ request, playwright }) => {
  const started = await startSecondApp(SECOND_PORT, playwright.request);
  second = started.process;
  const other = started.request;

  const { appId, key } = await accountWithHundredCreditsLeft(request);
  const responses = await Promise.all(
    Array.from({ length: 300 }, (_, index) => (index % 2 ? request : other).get(`${API}/apps/${appId}`, { headers: bearer(key) })),
  );
  const statuses = responses.map((response) => response.status());
  // Both processes answered successes.
  expect(responses.filter((response, index) => index % 2 === 0 && response.status() === 200).length).toBeGreaterThan(0);
  expect(responses.filter((response, index) => index % 2 === 1 && response.status() === 200).length).toBeGreaterThan(0);
  await expectExactlyHundredCharged(request, key, statuses);
  await other.dispose();
});
