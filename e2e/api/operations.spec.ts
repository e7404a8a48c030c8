// What an operator watches, against the running app: readiness (beside liveness) and the Prometheus metrics, scraped
// with the token, whose counters move with real requests.
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, DEMO, DEMO_APP_ID, signIn } from '../helpers';

const TOKEN = 'e2e-metrics-token-0123456789';

/** The value of one sample of the exposition text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

test('readiness says the database, its migrations, the pool and the job queue are ready', async ({ request }) => {
  const response = await request.get('/api/ready');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toMatchObject({
    status: 'ready',
    database: 'ok',
    pool: { status: 'ok' },
    jobQueue: 'ok',
  });
  expect((await request.get('/api/health')).status()).toBe(200);
});

test('/metrics answers only with the token, and its counters move with real requests', async ({ request }) => {
  expect((await request.get('/metrics')).status()).toBe(401);
  expect((await request.get('/metrics', { headers: bearer('not-the-token-at-all') })).status()).toBe(401);
  const scrape = async () => {
    const response = await request.get('/metrics', { headers: bearer(TOKEN) });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain');
    return response.text();
  };

  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'metrics spec');
  const before = await scrape();
  for (let index = 0; index < 5; index++)
    expect((await request.get(`${API}/apps/${DEMO_APP_ID}`, { headers: bearer(key) })).status()).toBe(200);
  expect(
    (await request.get(`${API}/apps/00000000-0000-4000-8000-000000000000`, { headers: bearer(key) })).status(),
  ).toBe(404);
  expect((await request.get(`${API}/no-such-endpoint`, { headers: bearer(key) })).status()).toBe(404);
  const after = await scrape();

  const moved = (name: string, labels: Record<string, string>) =>
    sample(after, name, labels) - sample(before, name, labels);
  expect(moved('aso_api_requests_total', { method: 'GET', route: '/apps/{id}', status: '200' })).toBeGreaterThanOrEqual(
    5,
  );
  expect(moved('aso_api_requests_total', { method: 'GET', route: '/apps/{id}', status: '404' })).toBeGreaterThanOrEqual(
    1,
  );
  // A path no route matches is one label value, whatever the path.
  expect(moved('aso_api_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(
    1,
  );
  expect(after).not.toContain('no-such-endpoint');
  expect(
    moved('aso_api_request_duration_seconds_count', { method: 'GET', route: '/apps/{id}', status: '200' }),
  ).toBeGreaterThanOrEqual(5);
  expect(moved('aso_credits_charged_total', { plan: 'pro' })).toBeGreaterThanOrEqual(5);
  // The same answer five times: replays after the first.
  expect(moved('aso_response_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(4);
  expect(sample(after, 'aso_db_pool_connections', { state: 'size' })).toBeGreaterThan(0);
  expect(after).toContain('aso_webhook_deliveries');
  expect(after).toContain('aso_refresh_runs');
  expect(after).toContain('process_cpu_seconds_total');
});
