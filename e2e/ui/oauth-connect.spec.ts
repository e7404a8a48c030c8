// Connecting an agent without a key, in Chromium, with the MCP SDK's own OAuth client (its discovery, dynamic
// registration, PKCE and token exchange): the 401's metadata, registration, the authorization with PKCE, the
// dashboard's sign-in, the consent (read-only, one app), the code for tokens, MCP calls that work and are charged, a
// write tool refused and another app answered 404, then the revocation in Settings → API access, after which the next
// call and the refresh are refused. The consent page passes axe, and fits a phone.
import { Client, UnauthorizedError } from '@modelcontextprotocol/client';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { AgentOAuth, problemOf, REDIRECT, transportFor } from '../agent-oauth';
import { seriousViolations } from '../axe';
import { admin, API, bearer, chooseRowAction, createKey, newAccount } from '../helpers';

test('an agent connects with the owner’s sign-in and consent, works under its restrictions, and is refused once revoked', async ({
  page,
  request,
}) => {
  const { email, password, session } = await newAccount('pro');
  const mine = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const other = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/habit-loop/id1500000002',
  );
  const key = await createKey(session, 'read-only', 'usage reader');

  // Unauthorized: the SDK reads the 401's metadata, registers, and asks for the browser to go to the authorization.
  const oauth = new AgentOAuth();
  await expect(new Client({ name: 'e2e agent', version: '1.0.0' }).connect(transportFor(oauth))).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  expect(oauth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(`${baseURL}/api/mcp`);

  let callback: URL | undefined;
  // Read from the browser's request to it: Chromium's headless shell does not hand a redirect's target to page.route.
  page.on('request', (request) => {
    if (request.url().startsWith(REDIRECT)) callback = new URL(request.url());
  });
  await page.goto(oauth.authorizationUrl!.href);
  // Not signed in to the dashboard: its sign-in first, then back to the consent.
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Connect E2E agent to your account' })).toBeVisible();
  await expect(page.getByText('127.0.0.1:48123')).toBeVisible();
  // The SDK's client registered itself (RFC 7591): its name is its own claim, and the page says so.
  await expect(page.getByTestId('consent-client-source')).toHaveText(/registered itself/);
  expect(await seriousViolations(page)).toEqual([]);
  // On a phone too: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('radio', { name: /^Read only/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /^Read and write/ })).toBeVisible();
  await page.getByRole('radio', { name: 'Only the apps ticked below' }).check();
  await page.getByRole('checkbox', { name: /^Focus Timer/ }).check();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback?.searchParams.get('code') ?? null).not.toBeNull();
  expect(callback!.searchParams.get('iss')).toBe(baseURL);

  await transportFor(oauth).finishAuth(callback!.searchParams);
  const client = new Client({ name: 'e2e agent', version: '1.0.0' });
  await client.connect(transportFor(oauth));
  const tools = (await client.listTools()).tools;
  expect(tools.every((tool) => tool.annotations?.readOnlyHint)).toBe(true);
  const before = (await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()).used as number;
  const read = await client.callTool({ name: 'apps_get', arguments: { id: mine } });
  expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
  expect(read._meta).toMatchObject({ credits: { charged: 1 } });
  expect((await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()).used).toBe(before + 1);
  expect(problemOf(await client.callTool({ name: 'apps_get', arguments: { id: other } })).code).toBe('not-found');
  expect(
    problemOf(await client.callTool({ name: 'keywords_add', arguments: { id: mine, terms: ['deep work'] } })).code,
  ).toBe('insufficient-scope');

  // Its page has its calls, as a key's has.
  await page.goto('/settings/api');
  await page.getByTestId('connected-apps-table').getByRole('link', { name: 'E2E agent' }).click();
  await expect(page.getByRole('cell', { name: 'mcp apps_get' }).first()).toBeVisible();

  // Revoked in the dashboard: the next call is refused, and so is a refresh.
  await page.goto('/settings/api');
  const row = page.getByTestId('connected-apps-table').getByRole('row', { name: /E2E agent/ });
  await expect(row).toContainText('read-only');
  await chooseRowAction(row, 'E2E agent', 'Revoke');
  await page.getByTestId('connected-app-dialog-confirm').click();
  await expect(page.getByTestId('no-connected-apps')).toBeVisible();
  const refused = await fetch(`${baseURL}/api/mcp`, {
    method: 'POST',
    headers: {
      ...bearer(String(oauth.tokens()!.access_token)),
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(refused.status).toBe(401);
  const refresh = await fetch(`${baseURL}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: String(oauth.tokens()!.refresh_token),
      client_id: String(oauth.clientInformation()!.client_id),
    }),
  });
  expect(refresh.status).toBe(400);
  expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  await client.close();
});
