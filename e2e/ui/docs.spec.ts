// The published docs in Chromium: the API reference renders every endpoint of the document from Scalar's browser
// script, getting started links every problem page, and each resolves.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { API, DEMO, newAccount, signInAs } from '../helpers';

test('the API reference renders every endpoint of the document', async ({ page, request }) => {
  const document = await (await request.get(`${API}/openapi.json`)).json();
  const anchors = Object.entries(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(
        ([method, operation]) => `#tag/${operation.tags[0]!.toLowerCase().replaceAll(' ', '-')}/${method}${path}`,
      ),
  );
  expect(anchors).toHaveLength(46);
  await page.goto('/docs/api');
  await expect(page.getByText('ASO Analytics Public Data API').first()).toBeVisible();
  // Each operation has its link (collapsed tags list theirs as "get /path"); the first waits for the sidebar.
  for (const [index, anchor] of anchors.entries()) {
    await expect(page.locator(`a[href="${anchor}"]`).first(), anchor).toBeAttached({
      timeout: index === 0 ? 60_000 : undefined,
    });
  }
});

test('the reference’s script is the installed Scalar’s, named by its content, cached for good and gzipped when taken', async ({
  request,
}) => {
  const installed = readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'));
  const url = /\/docs\/api\/scalar\.js\?v=[0-9a-f]+/.exec(await (await request.get('/docs/api')).text())?.[0];
  expect(url).toBe(`/docs/api/scalar.js?v=${createHash('sha256').update(installed).digest('hex').slice(0, 16)}`);
  for (const [acceptEncoding, encoding] of [
    ['gzip, deflate, br', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, deflate', undefined],
  ] as const) {
    const response = await request.get(url!, { headers: { 'Accept-Encoding': acceptEncoding } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-encoding'], acceptEncoding).toBe(encoding);
    expect(response.headers()['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers()['vary']).toContain('Accept-Encoding');
    // Playwright decodes a gzipped body.
    expect((await response.body()).equals(installed), acceptEncoding).toBe(true);
  }
  const head = await request.head(url!, { headers: { 'Accept-Encoding': 'gzip' } });
  expect([head.status(), head.headers()['content-encoding'], (await head.body()).length]).toEqual([200, 'gzip', 0]);
});

test('a signed-in user sends a test request from the reference, already authorised', async ({ page }) => {
  const { email, password } = await newAccount('pro');
  await signInAs(page, email, password);
  await page.goto('/apps');
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByText('Test requests are sent as you')).toBeVisible();
  const sent = page.waitForResponse(
    (response) => response.url().endsWith('/api/public/v1/apps') && response.request().method() === 'GET',
  );
  const testRequest = page.getByRole('button', { name: 'Test Request (get /apps)' });
  // Centred, so that Scalar's sticky toolbar does not cover it.
  await testRequest.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await testRequest.click();
  await page.getByRole('button', { name: /^Send/ }).first().click();
  const response = await sent;
  expect(response.status()).toBe(200);
  expect(response.headers()['x-credits-cost']).toBe('1');
});

test('getting started links every problem page, and each resolves', async ({ page, request }) => {
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Getting started with the API' })).toBeVisible();
  const links = await page
    .locator('a[href^="/docs/problems/"]')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')!));
  expect(links.length).toBeGreaterThanOrEqual(13);
  for (const href of links) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
  }

  // Every code block has its Copy button, which copies the block's text.
  const blocks = page.locator('#content .code-block-frame');
  expect(await blocks.count()).toBe(await page.locator('#content pre').count());
  const first = blocks.first();
  await first.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await first.locator('pre').textContent());

  // The header knows who is signed in: a trial for a visitor, the dashboard for a customer; MCP is in its navigation.
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: 'MCP' })).toHaveAttribute('href', '/docs/mcp');
  await expect(header.getByRole('link', { name: 'Start a free trial' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  await signInAs(page, DEMO.email, DEMO.password);
  await page.reload();
  await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/apps');
  await expect(header.getByRole('link', { name: 'Start a free trial' })).toHaveCount(0);
});
