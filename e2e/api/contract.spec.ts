// The published contract against the running app: the OpenAPI document and the Postman collection are served,
// and the collection, run by newman with a real key against every demo app, passes its own tests on every request;
// and so it does in test mode, for a Free account with a test key, spending no live credit.
import { expect, test } from '@playwright/test';
import newman from 'newman';
import { API, bearer, createKey, DEMO, newAccount, signIn, trpcQuery } from '../helpers';

/** A request's outcome (`name: status`) that is a success: 200, or 202 for the export it starts. */
const succeeded = (outcome: string) => outcome.endsWith(': 200') || outcome === 'Export datasets: 202';

/**
 * The run's requests, one per item: a test script's own requests (the replies' chain, Postman's pm.sendRequest) are
 * listed after their item's, under its id.
 */
function requestsOf(summary: newman.NewmanRunSummary) {
  return summary.run.executions.filter(
    (execution, index, all) => all.findIndex((other) => other.item.id === execution.item.id) === index,
  );
}

test('GET /openapi.json serves the v1 document without a credential', async ({ request }) => {
  const response = await request.get(`${API}/openapi.json`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  const document = await response.json();
  // The e2e server's origin is this machine's own: a relative server URL, which works wherever the document is read.
  expect(document).toMatchObject({ openapi: '3.1.0', info: { version: 'v1' }, servers: [{ url: API }] });
  expect(Object.keys(document.paths)).toContain('/apps/{id}/keywords');
});

test('the document of each dated version is served, and a version that is not one is refused', async ({ request }) => {
  const newest = await (await request.get(`${API}/openapi.json`)).json();
  const versions = (newest['x-api-versions'] as { version: string }[]).map((entry) => entry.version);
  expect(versions.length).toBeGreaterThan(1);
  for (const version of versions) {
    const response = await request.get(`${API}/openapi.json?version=${version}`);
    expect(response.status(), version).toBe(200);
    expect((await response.json())['x-api-version']).toBe(version);
  }
  const refused = await request.get(`${API}/openapi.json?version=2020-01-01`);
  expect(refused.status()).toBe(400);
  expect((await refused.json()).detail).toContain(versions.join(', '));
});

test('the Postman collection runs clean under newman, with its own tests, against every demo app', async ({
  request,
}) => {
  const collection = await (await request.get(`${API}/collection.json`)).json();
  expect(collection.info.schema).toContain('v2.1.0');
  expect(collection.item.map((folder: { name: string }) => folder.name)).toEqual([
    'Apps',
    'Competitors',
    'Exports',
    'Keywords',
    'Metadata',
    'Reviews',
    'Search',
    'Usage',
    'API keys',
    'Webhook endpoints',
  ]);
  type Request = { name: string; request: { url: { query?: { key: string; disabled?: boolean }[] } } };
  const requests: Request[] = collection.item.flatMap((folder: { item: Request[] }) => folder.item);
  expect(requests).toHaveLength(46);
  // Filters are the user's choice: no optional parameter is sent as shipped.
  const enabled = requests.flatMap((item) =>
    (item.request.url.query ?? [])
      .filter((parameter) => !parameter.disabled)
      .map((parameter) => `${item.name}: ${parameter.key}`),
  );
  expect(enabled).toEqual(['Research a keyword (live): term', 'Search your apps and keywords: query']);

  const session = await signIn(DEMO.email, DEMO.password);
  const apiKey = await createKey(session, 'read-write', 'newman');
  // The seeded ones (other tests add apps of their own to the account meanwhile): the US and GB App Store apps and the Google Play one.
  const listed: { id: string; name: string; bundleId: string; primaryCountry: string }[] = await (
    await request.get(`${API}/apps`, { headers: bearer(apiKey) })
  ).json();
  const apps = listed.filter((app) => app.bundleId.startsWith('com.calmlabs.'));
  expect(apps.map((app) => app.primaryCountry).sort()).toEqual(['GB', 'US', 'US']);
  // Every seeded app as the key's version shapes its answers, and the first one again as the original version's.
  const runs = [...apps.map((app) => ({ app, version: '' })), { app: apps[0]!, version: '2026-11-21' }];
  for (const { app, version } of runs) {
    const summary = await new Promise<newman.NewmanRunSummary>((resolve, reject) =>
      newman.run(
        {
          collection,
          envVar: [
            { key: 'apiKey', value: apiKey },
            { key: 'appId', value: app.id },
            { key: 'asoVersion', value: version },
            { key: 'sessionToken', value: session.token },
            // The e2e server accepts a receiver on this machine (WEBHOOKS_ALLOW_HTTP_LOCALHOST): nothing listens there.
            { key: 'webhookUrl', value: 'http://127.0.0.1:9/newman' },
          ],
          reporters: [],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const executions = requestsOf(summary);
    const outcomes = executions.map(
      (execution) => `${execution.item.name}: ${execution.response?.code ?? 'no response'}`,
    );
    expect(outcomes, app.name).toHaveLength(46);
    // Each answer names the version that shaped it: the one asked for, else the key's (the newest).
    const shapedBy = new Set(executions.map((execution) => execution.response?.headers.get('Aso-Version')));
    expect([...shapedBy], app.name).toEqual([version || '2026-11-29']);
    expect(
      outcomes.filter((outcome) => !succeeded(outcome)),
      app.name,
    ).toEqual([]);
    // Three tests per request, every one run and passed.
    expect(summary.run.stats.assertions.total, app.name).toBe(138);
    expect(
      summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error?.message}`),
      app.name,
    ).toEqual([]);
    // The chained POSTs sent back what was already tracked: the run added nothing.
    const answerOf = (name: string) =>
      JSON.parse(
        requestsOf(summary)
          .find((execution) => execution.item.name === name)!
          .response!.stream!.toString('utf8'),
      );
    expect(answerOf('Track an app'), app.name).toMatchObject({ id: app.id, created: false });
    expect(answerOf('Track keywords'), app.name).toMatchObject({ added: [], alreadyTracked: [expect.anything()] });
    expect(answerOf('Track a competitor'), app.name).toMatchObject({ created: false });
  }
});

test('in test mode, a new Free account runs the Postman collection clean with a test key, spending no live credit', async ({
  request,
}) => {
  const collection = await (await request.get(`${API}/collection.json`)).json();
  const { session } = await newAccount('free');
  const testMode = { ...bearer(session.token), 'X-Test-Mode': 'true' };
  // A test key, made over REST by the session in test mode.
  const made = await request.post(`${API}/keys`, {
    headers: testMode,
    data: { name: 'newman in test mode', scope: 'read-write' },
  });
  expect(made.status()).toBe(200);
  const { secret: apiKey } = (await made.json()) as { secret: string };
  expect(apiKey).toMatch(/^svc_test_/);
  // The sandbox's sample apps have their history loading in the background, as any app just added: a client waits
  // for dataThrough, as the API reference says.
  type Listed = { id: string; name: string; dataThrough: string | null };
  const listed = async () => (await (await request.get(`${API}/apps`, { headers: bearer(apiKey) })).json()) as Listed[];
  await expect
    .poll(async () => (await listed()).every((app) => app.dataThrough !== null), { timeout: 90_000 })
    .toBe(true);
  const apps = await listed();
  expect(apps.length).toBeGreaterThan(0);
  const summary = await new Promise<newman.NewmanRunSummary>((resolve, reject) =>
    newman.run(
      {
        collection,
        envVar: [
          { key: 'apiKey', value: apiKey },
          { key: 'appId', value: apps[0]!.id },
          { key: 'sessionToken', value: session.token },
          { key: 'testMode', value: 'true' },
          { key: 'webhookUrl', value: 'http://127.0.0.1:9/newman-test-mode' },
        ],
        reporters: [],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  const outcomes = requestsOf(summary).map(
    (execution) => `${execution.item.name}: ${execution.response?.code ?? 'no response'}`,
  );
  expect(outcomes).toHaveLength(46);
  expect(outcomes.filter((outcome) => !succeeded(outcome))).toEqual([]);
  expect(summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error?.message}`)).toEqual([]);
  // Every answer was in test mode, and the live account spent nothing: its usage (the dashboard's, in live mode) is 0.
  expect(
    requestsOf(summary)
      .filter((execution) => execution.response?.headers.get('X-Test-Mode') !== 'true')
      .map((execution) => execution.item.name),
  ).toEqual([]);
  expect(await trpcQuery<{ used: number }>(session, 'usage.get?input=%7B%7D')).toMatchObject({ used: 0 });
});
