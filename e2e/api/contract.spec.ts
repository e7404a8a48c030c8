// The published contract against the running app: the OpenAPI document and the Postman collection are served,
// and the collection, run by newman with a real key, succeeds on every request.
import { expect, test } from '@playwright/test';
import newman from 'newman';
import { admin, API, bearer, createKey, newAccount } from '../helpers';

test('GET /openapi.json serves the v1 document without a credential', async ({ request }) => {
  const response = await request.get(`${API}/openapi.json`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  const document = await response.json();
  // The e2e server's origin is this machine's own: a relative server URL, which works wherever the document is read.
  expect(document).toMatchObject({ openapi: '3.1.0', info: { version: 'v1' }, servers: [{ url: API }] });
  expect(Object.keys(document.paths)).toContain('/apps/{id}/keywords');
});

test('the Postman collection runs clean with newman against the app', async ({ request }) => {
  test.setTimeout(120_000);
  const collection = await (await request.get(`${API}/collection.json`)).json();
  expect(collection.info.schema).toContain('v2.1.0');
  expect(collection.item.map((folder: { name: string }) => folder.name)).toEqual(['Apps', 'Competitors', 'Keywords', 'Metadata', 'Reviews', 'Usage']);

  const { email, session } = await newAccount('business');
  const appId = await admin('app', 'add', '--email', email, '--url', 'https://apps.apple.com/us/app/sleep-sounds/id1500000077');
  const apiKey = await createKey(session, 'read-write', 'newman');
  const added = await request.post(`${API}/apps/${appId}/keywords`, { headers: { ...bearer(apiKey), 'Content-Type': 'application/json' }, data: { terms: ['sleep sounds'] } });
  expect(added.status()).toBe(200);
  const keywordId = (await added.json()).added[0].keywordId as string;

  const summary = await new Promise<newman.NewmanRunSummary>((resolve, reject) =>
    newman.run(
      { collection, envVar: [{ key: 'apiKey', value: apiKey }, { key: 'appId', value: appId }, { key: 'keywordId', value: keywordId }], reporters: [] },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  const outcomes = summary.run.executions.map((execution) => `${execution.item.name}: ${execution.response?.code ?? 'no response'}`);
  expect(outcomes).toHaveLength(20);
  expect(outcomes.filter((outcome) => !outcome.endsWith(': 200'))).toEqual([]);
  expect(summary.run.failures).toEqual([]);
});
