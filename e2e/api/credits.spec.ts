// Credits over real HTTP: exact under 300 concurrent requests on one app process (on two sharing one database:
// second-process.spec.ts).
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { accountWithHundredCreditsLeft, API, bearer, expectExactlyHundredCharged, PlainClient } from '../helpers';

test('one process: 300 concurrent requests with 100 credits left charge exactly 100', async () => {
  const request = new PlainClient(baseURL);
  const { appId, key } = await accountWithHundredCreditsLeft(request);
  const responses = await Promise.all(
    Array.from({ length: 300 }, () => request.get(`${API}/apps/${appId}`, { headers: bearer(key) })),
  );
  const refused = responses.find((response) => response.status() === 402)!;
  expect(await refused.json()).toMatchObject({ creditsRequired: 1, creditsRemaining: 0 });
  expect(refused.headers()['x-credits-cost']).toBe('0');
  await expectExactlyHundredCharged(
    request,
    key,
    responses.map((response) => response.status()),
  );
});
