// A second web process started on the e2e server's database (the embedded default, the shared counts in PostgreSQL):
// a key made on one works on the other, and its revocation holds there from its next request; credits stay exact
// under 300 concurrent requests spread over both, and under 300 concurrent MCP tool calls; and a key's requests per
// minute hold across both (600 for a Solo key, instead of 600 on each); concurrent first reads of a new storefront
// on both track it once and charge each call once. The same on an external PostgreSQL and behind PgBouncer: e2e/external/.
import type { ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  accountWithHundredCreditsLeft,
  admin,
  API,
  bearer,
  burstsOfFreeCalls,
  createKey,
  expectExactlyHundredCharged,
  newAccount,
  PlainClient,
  refusingWindow,
  trpcQuery,
} from '../helpers';
import { startSecondApp } from '../environment';
import { baseURL } from '../../playwright.config';

const SECOND_PORT = 3211;
let second: { process: ChildProcess; request: APIRequestContext } | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  second = await startSecondApp(SECOND_PORT, playwright.request);
});

test.afterAll(async () => {
  await second?.request.dispose();
  second?.process.kill('SIGTERM');
});

test('a key made on the first process works on the second at once, and its revocation holds there from its next request', async ({
  request,
}) => {
  const other = second!.request;
  const { session } = await newAccount('pro');
  const key = await createKey(session, 'read-only', 'second process key');
  for (const context of [request, other])
    expect((await context.get(`${API}/usage`, { headers: bearer(key) })).status()).toBe(200);
  const { id } = (await trpcQuery<{ id: string; name: string }[]>(session, 'apiKeys.list')).find(
    (each) => each.name === 'second process key',
  )!;
  expect((await other.post(`${API}/keys/${id}/revoke`, { headers: bearer(session.token) })).status()).toBe(200);
  for (const context of [request, other])
    expect((await context.get(`${API}/usage`, { headers: bearer(key) })).status()).toBe(401);
});

test('20 concurrent first reads of a storefront new to the app, spread over both processes, answer 200, are each charged once, and track it once', async ({
  request,
}) => {
  const other = second!.request;
  const { email, session } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/two-processes/id1500004301',
  );
  const key = await createKey(session, 'read-only', 'storefront on demand');
  const used = async () =>
    ((await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()) as { used: number }).used;
  const before = await used();
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      (index % 2 ? request : other).get(`${API}/apps/${appId}/metadata?country=GB`, { headers: bearer(key) }),
    ),
  );
  expect(responses.map((response) => response.status())).toEqual(Array(20).fill(200));
  expect(await used()).toBe(before + 20);
  for (const context of [request, other]) {
    expect(
      (
        (await (await context.get(`${API}/apps/${appId}`, { headers: bearer(key) })).json()) as {
          storefronts: string[];
        }
      ).storefronts,
    ).toEqual(['GB', 'US']);
  }
});

/** Both processes, called by the hundred (PlainClient). */
const bothPlain = () => [new PlainClient(baseURL), new PlainClient(`http://localhost:${SECOND_PORT}`)] as const;

test('300 concurrent requests with 100 credits left, spread over both processes, charge exactly 100', async () => {
  const [request, other] = bothPlain();
  const { appId, key } = await accountWithHundredCreditsLeft(request);
  // One charged call on each process first: which process wins the race for the last credits is the machine's doing,
  // and both must have charged the one allowance.
  const first = [];
  for (const context of [request, other])
    first.push((await context.get(`${API}/apps/${appId}`, { headers: bearer(key) })).status());
  expect(first).toEqual([200, 200]);
  const responses = await Promise.all(
    Array.from({ length: 298 }, (_, index) =>
      (index % 2 ? request : other).get(`${API}/apps/${appId}`, { headers: bearer(key) }),
    ),
  );
  await expectExactlyHundredCharged(request, key, [...first, ...responses.map((response) => response.status())]);
});

test('300 concurrent MCP tool calls with 100 credits left, spread over both processes, charge exactly 100', async () => {
  const { appId, key } = await accountWithHundredCreditsLeft(new PlainClient(baseURL));
  const clients = await Promise.all(
    [baseURL, `http://localhost:${SECOND_PORT}`].map(async (origin) => {
      const client = new Client({ name: 'e2e two processes', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), { requestInit: { headers: bearer(key) } }),
      );
      return client;
    }),
  );
  // One charged call on each process first, then the race for the rest (which process wins it is the machine's doing).
  const first = [];
  for (const client of clients) first.push(await client.callTool({ name: 'apps_get', arguments: { id: appId } }));
  expect(first.map((result) => result.isError ?? false)).toEqual([false, false]);
  const results = [
    ...first,
    ...(await Promise.all(
      Array.from({ length: 298 }, (_, index) =>
        clients[index % 2]!.callTool({ name: 'apps_get', arguments: { id: appId } }),
      ),
    )),
  ];
  expect(results.filter((result) => !result.isError)).toHaveLength(100);
  const refusals = results
    .filter((result) => result.isError)
    .map((result) => JSON.parse((result.content as { text: string }[])[0]!.text).code);
  expect(refusals).toEqual(Array(200).fill('credits-exhausted'));
  const usage = await (await new PlainClient(baseURL).get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ used: 1500, remaining: 0 });
  expect(usage.byEndpoint).toContainEqual({ endpoint: 'mcp apps_get', calls: 100, credits: 100 });
  await Promise.all(clients.map((client) => client.close()));
});

test('a key’s requests per minute hold across both processes', async () => {
  const { session } = await newAccount('solo');
  const key = await createKey(session, 'read-only', 'second process rate');
  const answers = await burstsOfFreeCalls(bothPlain(), key);
  const statuses = answers.map((answer) => answer.status);
  const retryAfter = answers.filter((answer) => answer.status === 429).map((answer) => answer.retryAfter);
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // The limit across both, in the window that refused: never more, and short of it by at most each process's unspent
  // lease (10 % of it at most).
  const window = refusingWindow(answers);
  expect(window.surelyCounted).toBeLessThanOrEqual(600);
  expect(window.atMostCounted).toBeGreaterThanOrEqual(600 - 2 * 60);
  expect(retryAfter.every((seconds) => seconds !== null && seconds >= 1 && seconds <= 60)).toBe(true);
});
